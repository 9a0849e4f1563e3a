"""What every figure-duel kit generator is given: the validated database and the paper size."""

from __future__ import annotations

from dataclasses import dataclass

from toolkit.figure.database import Database
from toolkit.figure.model import Squad, Unit
from toolkit.figure.theme import Theme
from toolkit.problems import Problem, Severity


@dataclass(frozen=True)
class KitContext:
    db: Database
    paper: str  # "a4" or "letter"

    @property
    def theme(self) -> Theme:
        return self.db.theme

    def units(self) -> list[Unit]:
        """Every unit, sorted by id: reproducible order."""
        return [entry.value for _, entry in sorted(self.db.units.items())]

    def squads_by_side(self) -> dict[str, Squad | None]:
        """Side A plays the first squad (by id), side B the second (or the first again if only one)."""
        squads = [entry.value for _, entry in sorted(self.db.squads.items())]
        if not squads:
            return {"A": None, "B": None}
        return {"A": squads[0], "B": squads[1] if len(squads) > 1 else squads[0]}

    def fit_warning(self, owner: str, field_name: str, text: str) -> Problem:
        """Text that did not fit even at the smallest size: a warning naming the unit and field."""
        entry = self.db.units.get(owner) or self.db.modules.get(owner)
        file, line, column = ("", 0, 0)
        if entry is not None:
            loc = tuple(int(part) if part.isdigit() else part for part in field_name.split(".") if part)
            pos = entry.pos(*loc)
            file = entry.source.display
            line, column = (pos.line, pos.column) if pos else (0, 0)
        shown = text if len(text) < 50 else text[:47] + "..."
        return Problem("R001", Severity.WARNING, file, line, column,
                       f"'{owner}' {field_name}: text does not fit its box even at the smallest size and was "
                       f"cut short: '{shown}'", hint="shorten the text")
