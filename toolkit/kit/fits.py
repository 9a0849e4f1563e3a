"""The one place text-fit warnings (R001) are made: text that did not fit its box even at the smallest
size and was cut short. Data text is located at its YAML line through the game's locator; words that
come from a theme or the kit itself have no file and say what to change instead."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from toolkit.problems import Problem, Severity

# (owner id, dotted field path) -> (file, line, column), or None when the owner is not data.
Locator = Callable[[str, str], tuple[str, int, int] | None]


@dataclass(frozen=True)
class Spot:
    """Where a text comes from: `label` for the message; `owner` and `field` find it in the data."""

    label: str
    owner: str = ""
    field: str = ""


def data_spot(owner: str, field: str, kind: str = "") -> Spot:
    """A field of a definition: "'v-k4' name", or "technique 'kiri' philosophy" with a kind."""
    return Spot(f"{kind} '{owner}' {field}" if kind else f"'{owner}' {field}", owner, field)


class TextFits:
    """Collects one R001 warning per text cut short while a kit is laid out."""

    def __init__(self, locate: Locator | None = None) -> None:
        self.locate = locate
        self.problems: list[Problem] = []
        self._log: list[tuple[str, tuple[Any, ...]]] | None = None

    @contextmanager
    def recording(self) -> Iterator[list[tuple[str, tuple[Any, ...]]]]:
        """The cuts and notes made inside the block, as calls `replay` makes again (a layout remembered
        between watch rebuilds reports its cuts anew, located where the text is now)."""
        saved, self._log = self._log, []
        try:
            yield self._log
        finally:
            log, self._log = self._log, saved
            if saved is not None:
                saved.extend(log)

    def replay(self, calls: tuple[tuple[str, tuple[Any, ...]], ...]) -> None:
        for name, args in calls:
            getattr(self, name)(*args)

    def cut(self, where: Spot | str, text: str, hint: str = "shorten the text") -> None:
        """`text`, written at `where`, was cut short."""
        if self._log is not None:
            self._log.append(("cut", (where, text, hint)))
        spot = where if isinstance(where, Spot) else Spot(where)
        file, line, column = "", 0, 0
        if spot.owner and self.locate is not None:
            file, line, column = self.locate(spot.owner, spot.field) or ("", 0, 0)
        shown = text if len(text) < 50 else text[:47] + "..."
        self.problems.append(Problem("R001", Severity.WARNING, file, line, column,
                                     f"{spot.label}: text does not fit its box even at the smallest size and was "
                                     f"cut short: '{shown}'", hint=hint))

    def note(self, message: str, hint: str) -> None:
        """A word of the theme or the kit that does not fit, worded by the caller."""
        if self._log is not None:
            self._log.append(("note", (message, hint)))
        self.problems.append(Problem("R001", Severity.WARNING, "", 0, 0, message, hint=hint))

    def drain(self) -> list[Problem]:
        """The warnings collected since the last drain (one component's worth)."""
        found, self.problems = self.problems, []
        return found
