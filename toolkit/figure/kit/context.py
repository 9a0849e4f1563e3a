"""What every figure-duel kit generator is given: the validated database and the paper size."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from toolkit.figure.database import Database
from toolkit.figure.model import Squad, Unit
from toolkit.figure.theme import Theme
from toolkit.kit.fits import TextFits
from toolkit.kit.options import PrintOptions
from toolkit.players import Player


@dataclass(frozen=True)
class KitContext:
    db: Database
    paper: str  # "a4" or "letter"
    options: PrintOptions = field(default_factory=PrintOptions)  # layout, ink and board paper
    smallest_text: float | None = None  # pt, measured from the rest of the kit (stated by the print test)
    # Text cut short while laying out (R001); each generator drains it into its component's warnings.
    fits: TextFits = field(default_factory=TextFits, compare=False)
    squad_ids: tuple[str, ...] = ()  # `build --squads A,B`: the squads of sides A and B (default: the first two)
    # what generators of this one kit share (the manual, written once for the manual and the quick reference)
    shared: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)

    def __post_init__(self) -> None:
        self.fits.locate = self.locate

    @property
    def theme(self) -> Theme:
        return self.db.theme

    def units(self) -> list[Unit]:
        """Every unit, sorted by id: reproducible order."""
        return [entry.value for _, entry in sorted(self.db.units.items())]

    def squads_by_side(self) -> dict[Player, Squad | None]:
        """Side A plays the first squad (by id), side B the second (or the first again if only one), unless
        the squads were chosen (`build --squads A,B`; one id means both sides play it)."""
        chosen = [self.db.squads[sid].value for sid in self.squad_ids]
        squads = chosen or [entry.value for _, entry in sorted(self.db.squads.items())]
        if not squads:
            return {Player.A: None, Player.B: None}
        return {Player.A: squads[0], Player.B: squads[1] if len(squads) > 1 else squads[0]}

    def module_copies(self) -> dict[str, int]:
        """How many cards of each module the kit prints: a deck per side whose squad lists the module,
        each with the module's `copies:`; a module no squad lists is printed once (times `copies:`)."""
        sides = [squad for squad in self.squads_by_side().values() if squad is not None]
        counts = {}
        for module_id, entry in sorted(self.db.modules.items()):
            decks = sum(module_id in squad.modules for squad in sides)
            counts[module_id] = max(1, decks) * entry.value.copies
        return counts

    def locate(self, owner: str, field_name: str) -> tuple[str, int, int] | None:
        """The file, line and column of a unit's or module's field (for text-fit warnings)."""
        entry = self.db.units.get(owner) or self.db.modules.get(owner)
        if entry is None:
            return None
        loc = tuple(int(part) if part.isdigit() else part for part in field_name.split(".") if part)
        pos = entry.pos(*loc)
        return (entry.source.display, pos.line, pos.column) if pos else (entry.source.display, 0, 0)


_LOOK: list[tuple[object, str]] = []  # the last theme and its key


def look_key(ctx: KitContext) -> str:
    """The theme's words and statuses as one key for remembered layout (`kit.memo`): the theme object is
    made again at every load, its text is not."""
    if not _LOOK or _LOOK[0][0] is not ctx.theme:
        _LOOK[:] = [(ctx.theme, repr(ctx.theme))]
    return _LOOK[0][1]
