"""The one place text-fit warnings (R001) are made: text that did not fit its box even at the smallest
size and was cut short. Data text is located at its YAML line through the game's locator; words that
come from a theme or the kit itself have no file and say what to change instead."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

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

    def cut(self, where: Spot | str, text: str, hint: str = "shorten the text") -> None:
        """`text`, written at `where`, was cut short."""
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
        self.problems.append(Problem("R001", Severity.WARNING, "", 0, 0, message, hint=hint))

    def drain(self) -> list[Problem]:
        """The warnings collected since the last drain (one component's worth)."""
        found, self.problems = self.problems, []
        return found
