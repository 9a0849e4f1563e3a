"""What every game offers the command line: one adapter per game (modelled on python-chess's variants).

The command line knows no game by name: it finds the games of a folder through `toolkit.registry`
and asks each adapter to load, validate, build, write reference sheets or a balance report. A command
that does not apply to a game raises `NotApplicable`, which the command line reports with exit 2.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from toolkit.errors import UsageError
from toolkit.problems import Problem

if TYPE_CHECKING:
    from toolkit.export.pieces import ExportSet
    from toolkit.kit.component import Component
    from toolkit.kit.options import PrintOptions
    from toolkit.loading import Project
    from toolkit.web.table import ReplayFrames, Table, TableRequest


SHEET_EXPORT = "export csv|xlsx"  # the command name `supports` and `why_not` know the sheet exports by


class NotApplicable(UsageError):
    """A command asked of a game that has no such thing (a balance report of the card duel)."""


@dataclass(frozen=True)
class Where:
    """Where a game's data lives: a project made by `duelkit new` (one game), or the bundled layout."""

    root: Path
    project: bool
    settings: Project | None = None  # the project's duelkit.yaml (None for the bundled layout)


class GameData(ABC):
    """One game's loaded data: whatever the game needs, and every problem found while loading it."""

    problems: list[Problem]

    @property
    def has_errors(self) -> bool:
        return any(problem.is_error for problem in self.problems)


@dataclass
class Output:
    """Files a command writes for one game (name -> bytes), and what to tell the user about them."""

    files: dict[str, bytes]
    note: str = ""  # e.g. "manual.pdf (4 pages), quick-reference.pdf and manual.html"
    lines: list[str] = field(default_factory=list)  # further lines to print under the summary
    incomplete: bool = False  # some of the data could not be written (the lines say what)


@dataclass(frozen=True)
class OddsRequest:
    """`duelkit odds`: who attacks whom, in which state."""

    attacker: str
    defender: str | None  # None: against every other unit (`--vs all`)
    attacker_status: str | None = None
    defender_status: str | None = None
    attacker_stage: int | None = None
    defender_stage: int | None = None
    module: str | None = None
    as_json: bool = False


@dataclass
class Report:
    """What a command tells the user: lines for standard output, and notes for standard error."""

    lines: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    failed: bool = False


Advance = Callable[[str], None]  # a progress callback: one call per step, with a label
Show = Callable[[str], None]  # print one line for the person at the terminal
# choose(board and prompt lines, (group heading, label) per option) -> index of the chosen option; raises to
# stop the game. Options of one group follow each other; an empty heading: no group.
Choose = Callable[[list[str], list[tuple[str, str]]], int]


@dataclass(frozen=True)
class PlayRequest:
    """`duelkit play`: which squads, who plays each side, the seed for every spin."""

    squad_a: str
    squad_b: str
    players: tuple[str, str]
    seed: int
    first: str | None  # "A", "B" or None for a seeded spin
    data: str | None  # the data folder, as the game record should name it


@dataclass(frozen=True)
class SimulateRequest:
    """`duelkit simulate`: which squads (None: every squad against every squad), how many games, who plays."""

    squads: tuple[str, str] | None
    games: int
    players: tuple[str, str]
    seed: int
    jobs: int = 1
    rules: tuple[str, ...] = ()  # NAME=VALUE switches, as typed
    until_ci: float | None = None  # stop once the widest 95% interval is narrower (checked at checkpoints)
    cluster: str | None = None  # a Ray cluster: "auto", an address, or "local"
    files: bool = False  # also build the playtest files (--out)
    records: int = 4  # keep the records of this many first games
    data: str | None = None  # the data folder, as game records should name it
    builds: str | None = None  # --builds, as typed (games whose players choose a build)
    techniques: str | None = None  # --techniques, as typed (games whose players draft techniques)
    ladder: tuple[str, ...] | None = None  # play the match once per rung, each bot against itself (--ladder)
    baseline: Any = None  # another project's loaded data (GameData): the same seeds on it (--baseline)
    baseline_name: str = ""  # how to name it in reports


@dataclass
class SimulateResult:
    """What `duelkit simulate` reports: the JSON object, the same in words, and files per output folder."""

    summary: dict[str, Any]
    lines: list[str]
    files: dict[str, dict[str, bytes]] = field(default_factory=dict)


SimulateProgress = Callable[[int, int], None]  # (games finished, games planned)


@dataclass
class ReplayResult:
    """`duelkit replay`: what to print, and where the record stops agreeing with the rules."""

    lines: list[str] = field(default_factory=list)
    divergence: str | None = None  # "LINE: message"


class Game(ABC):
    """One game (or theme) the toolkit knows: its id, and what each command does with its data."""

    id: str
    title: str  # the printed name, e.g. on kit.pdf's title
    # The commands that apply to this game; any other is refused with exit 2 (see `why_not`).
    commands: frozenset[str] = frozenset({"validate", "build", "reference", "new"})
    has_squads: bool = True  # play and simulate name two squads (False: they take only [DATA_DIR])
    # Commands this game runs only when chosen on purpose (`--game`, or its own project): over the bundled
    # data they are skipped with a note (the card duel's balance is minutes of self-play).
    on_purpose_only: frozenset[str] = frozenset()
    # The players a command uses when --players is not given, where the game differs from the usual.
    default_players: ClassVar[dict[str, str]] = {}

    def supports(self, command: str) -> bool:
        return command in self.commands

    def why_not(self, command: str) -> str:
        """Why a command does not apply to this game, in words a designer understands."""
        return f"`{command}` does not apply to {self.id}"

    def help_notes(self, command: str) -> list[str]:
        """Lines for a command's `--help` that only the game knows (its statuses, its import columns)."""
        del command
        return []

    @abstractmethod
    def found_in(self, root: Path) -> bool:
        """Whether a folder in the bundled layout holds data of this game."""

    @abstractmethod
    def load(self, where: Where) -> GameData:
        """Load and check the data; problems are collected in the result, never raised."""

    @abstractmethod
    def describe(self, data: GameData) -> str:
        """One line for `duelkit validate`: what was loaded."""

    def layout_warnings(self, data: GameData) -> list[Problem]:
        """Text that would not fit its box on the printed kit (R001), found without rendering."""
        del data
        return []

    def kit_parts(self) -> tuple[str, ...]:
        """The names of the kit's components (their PDFs are `<name>.pdf`), in print order: what
        `build --only` accepts."""
        return ()

    def kit_steps(self, data: GameData) -> int:
        """How many progress steps `build_kit` reports (for a progress bar)."""
        del data
        return 0

    @abstractmethod
    def build_kit(self, data: GameData, paper: str, advance: Advance, *, with_balance: bool,
                  squads: tuple[str, ...] = (), options: PrintOptions | None = None,
                  only: Collection[str] = ()) -> list[Component]:
        """Every component of the printable kit, in print order, laid out as `options` asks; `squads`
        chooses the sides' squads; `only` (names from `kit_parts`), when given, the components to lay out."""

    def kit_title(self, data: GameData) -> str:
        del data
        return self.title

    def export_table(self, where: Where, fmt: str, columns: str = "") -> Output:
        """`duelkit export csv|xlsx`: the unit database as a sheet that `duelkit import` reads back (`columns`:
        the designer's `field=Header,...` map). Reads the data as written, so it works on invalid data too."""
        del where, fmt, columns
        raise NotApplicable(self.why_not(SHEET_EXPORT))

    def export_set(self, data: GameData) -> ExportSet:
        """`duelkit export`: the card decks, board, mats and tokens, as vector pieces."""
        del data
        raise NotApplicable(self.why_not("export"))

    def reference(self, data: GameData, paper: str, templates: Path | None) -> Output:
        """Rule reference sheets."""
        del data, paper, templates
        raise NotApplicable(self.why_not("reference"))

    def balance(self, data: GameData, paper: str, board: SimulateRequest | None = None,
                progress: SimulateProgress | None = None) -> Output:
        """Every unit against every unit: the balance report (with `board`, also the board-level section:
        every squad against every squad, and each unit's impact on its squad's win rate)."""
        del data, paper, board, progress
        raise NotApplicable(self.why_not("balance"))

    def without_invalid(self, data: GameData) -> tuple[GameData, list[str]]:
        """The data with every definition that has a rule problem left out (`build --skip-invalid`), and
        one line per thing left out."""
        del data
        raise NotApplicable(self.why_not("build --skip-invalid"))

    def squad_ids(self, data: GameData) -> list[str]:
        """The squads (teams) the data holds, for games that have them."""
        del data
        return []

    def play(self, data: GameData, request: PlayRequest, show: Show, choose: Choose,
             handover: Show | None = None) -> str:
        """Play one game to its end; returns its record (JSON lines). `handover` (hot-seat games with secret
        choices) clears the screen and waits until the named player has the seat."""
        del data, request, show, choose, handover
        raise NotApplicable(self.why_not("play"))

    def replay(self, data: GameData, record: str, turn: int | None) -> ReplayResult:
        """Re-check a game record against the rules."""
        del data, record, turn
        raise NotApplicable(self.why_not("replay"))

    def simulate(self, data: GameData, request: SimulateRequest, progress: SimulateProgress) -> SimulateResult:
        """Self-play between two squads (or a round robin): win rates with intervals and what decided them."""
        del data, request, progress
        raise NotApplicable(self.why_not("simulate"))

    def simulate_folders(self, data: GameData, request: SimulateRequest) -> list[str]:
        """The output folders `simulate` with `--out` will write (the keys of `SimulateResult.files`), known
        before the games so a folder that cannot be replaced is refused before they are played."""
        del data, request
        return []

    def project_folders(self) -> list[tuple[str, str]]:
        """For `duelkit new`: (folder of the bundled data, folder of the new project) pairs to copy."""
        return []

    def starter(self) -> Path | None:
        """For `duelkit new`: a folder of small, commented example files to start from (None: the game
        has none, and `new` copies its bundled data as with `--from-bundled`)."""
        return None

    def edit_hint(self) -> str:
        """The project folder a designer edits first."""
        return "."

    def has_units(self, data: GameData, unit_ids: list[str]) -> bool:
        """Whether every one of these unit ids is a unit of this game's data (for `duelkit odds`)."""
        del data, unit_ids
        return False

    def web_intro(self, data: GameData) -> str:
        """`duelkit serve`'s start page: one line on how a game starts (for games without squads)."""
        del data
        return ""

    def web_players(self) -> list[str]:
        """`duelkit serve`: the computer players a seat may take (besides a human)."""
        return []

    def web_table(self, data: GameData, request: TableRequest) -> Table:
        """`duelkit serve`: one game to play in the browser."""
        del data, request
        raise NotApplicable(self.why_not("serve"))

    def web_replay(self, data: GameData, record: str) -> ReplayFrames:
        """`duelkit serve`'s replay page: a record checked as `replay` checks it, step by step."""
        del data, record
        raise NotApplicable(self.why_not("replay"))

    def unit_ids(self, data: GameData) -> list[str]:
        """Every unit id of this game's data (for "did you mean" in `duelkit odds`)."""
        del data
        return []

    def broken_unit_ids(self, data: GameData) -> list[str]:
        """Unit ids whose own file failed to load (`duelkit odds` says so instead of "no unit")."""
        del data
        return []

    def odds(self, data: GameData, request: OddsRequest) -> str:
        """Exact battle odds, as text or JSON."""
        del data, request
        raise NotApplicable(self.why_not("odds"))

    def check_board(self, path: Path | None, where: Where | None = None) -> Report:
        """`duelkit board check`: the structural checks of a board file (by default the board of the
        project at `where`, else the standard one) and the distances a designer plans with."""
        del path, where
        raise NotApplicable(self.why_not("board"))

    def sheet_game(self, path: Path) -> str | None:
        """The game a sheet says it holds (a sheet this game's export wrote names it), or None."""
        del path
        return None

    def import_table(self, csv_path: Path, out: Path, columns: str = "", layout: str = "auto",
                     dry_run: bool = False, delete: bool = False) -> Report:
        """`duelkit import`: a spreadsheet of this game's pieces turned into a project (`columns`: the
        designer's `field=Header,...` map; `layout`: auto, segment or unit; `dry_run`: only say what changes;
        `delete`: delete the items the sheet no longer has)."""
        del csv_path, out, columns, layout, dry_run, delete
        raise NotApplicable(self.why_not("import"))
