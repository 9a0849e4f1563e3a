"""What a game hands the web server: a table (one game being played) and a replay (a checked record).

A table knows its two seats and which of them computers play; the server decides which seats a browser
holds (its link's token) and passes them in. Views are HTML fragments the game draws, so the server and
the page's script know no game. Tables are pure: no I/O, seeded randomness only.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass, field

HUMAN = "human"


@dataclass(frozen=True)
class TableRequest:
    """`/play?game=ID&a=SQUAD&b=SQUAD&players=P,Q&seed=S` (no squads for a game without squads)."""

    squads: tuple[str, str] | None
    players: tuple[str, str]
    seed: int
    data: str | None = None  # the data folder, as a game record names it


@dataclass
class TableView:
    """One browser's view: the HTML of the play area, and what the page's script should do next."""

    html: str
    computer_next: bool = False  # a computer (or a chance spin) is to act: the page asks for its move
    over: bool = False
    title: str = ""


class Table(ABC):
    """One game in play. `version` grows with every change, so pages poll cheaply."""

    players: tuple[str, str]
    version: int = 0
    writes_record = False  # whether `record()` gives a game record (the page then offers it for download)

    def human_seats(self) -> frozenset[int]:
        return frozenset(seat for seat, name in enumerate(self.players) if name == HUMAN)

    @abstractmethod
    def view(self, seats: frozenset[int], hotseat: bool) -> TableView:
        """The page for a browser holding `seats` (`hotseat`: one device passed between two people)."""

    @abstractmethod
    def act(self, seats: frozenset[int], form: dict[str, str]) -> None:
        """A human's choice (the fields of the clicked element or submitted form); DuelkitError if not allowed."""

    @abstractmethod
    def computer_turn(self) -> bool:
        """Let computers (and chance) act until a human must; whether anything changed."""

    def undo(self, seats: frozenset[int]) -> bool:
        del seats
        return False

    def redo(self, seats: frozenset[int]) -> bool:
        del seats
        return False

    def record(self) -> str | None:
        """The game record so far (JSON lines), for games that write one."""
        return None


@dataclass
class ReplayFrames:
    """A checked record, step by step: `frame(k)` draws the board after k steps (0..steps); log[k-1] says
    step k. Frames are drawn when asked, so a 300-turn record costs one page per step looked at."""

    title: str
    steps: int
    frame: Callable[[int], str]
    log: list[str]
    problem: str | None = None  # where the record stops agreeing with the rules (line: message)
    notes: list[str] = field(default_factory=list)
