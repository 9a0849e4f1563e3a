"""Glue-and-fold tokens (`--layout fold`): each piece printed beside its back, for one-sided printers.

A pair is two touching halves, each FOLD_ROOM larger than the piece's bleed on every side, joined by a
dashed fold line. The designer cuts the pair out on its grey outline, folds it on the line (back behind
front), glues, and then cuts the token through both layers on the front's thin cut line; the back's
bleed hides a fold that is a little off. A fold keeps left and right as printed (see
`toolkit.render.impose.fold_pairs`), so the back is drawn unmirrored, its trim centred in the other half:
mirrored across the fold line from the front's, which puts it exactly behind the front once folded.
"""

from __future__ import annotations

from dataclasses import dataclass

from toolkit.kit.bleed import TOKEN_BLEED, Cutout
from toolkit.render.impose import fold_line
from toolkit.render.scene import Group, Rect, Shape, Style

FOLD_ROOM = 1.0  # paper between a face's bleed and the edge of its half: room for the first, rough cut
PAIR_GAP = 3.0  # between neighbouring pairs' outlines: room for scissors
PAIR_EDGE = Style(stroke="#9a9a9a", width=0.2)  # where the pair is cut out (grey: not the token's cut line)
FOLD_NOTE = "cut out each pair, fold on the dashed line, glue, then cut on the front's thin line"


@dataclass(frozen=True)
class FoldPair:
    """A piece's front and back side by side, in a w x h footprint with (0, 0) at its top-left."""

    front: Cutout
    back: Cutout

    def __post_init__(self) -> None:
        a, b = self.front.trim, self.back.trim
        if (a.w, a.h, a.round) != (b.w, b.h, b.round):
            raise ValueError("a token's back must have the shape and size of its front")

    @property
    def half_w(self) -> float:
        return self.front.trim.w + 2 * (TOKEN_BLEED + FOLD_ROOM)

    @property
    def w(self) -> float:
        return 2 * self.half_w

    @property
    def h(self) -> float:
        return self.front.trim.h + 2 * (TOKEN_BLEED + FOLD_ROOM)

    def _centred(self, piece: Cutout, items: tuple[Shape, ...], half: int) -> Group:
        """`items` (in the piece's coordinates) moved so the piece's trim is centred in half 0 or 1."""
        trim = piece.trim
        return Group(items, dx=(half + 0.5) * self.half_w - trim.x - trim.w / 2, dy=self.h / 2 - trim.y - trim.h / 2)

    def printed(self) -> tuple[Shape, ...]:
        """The pair's outline, both faces with their bleed and cut line, and the fold line between them."""
        return (self._centred(self.front, self.front.printed(), 0), self._centred(self.back, self.back.printed(), 1),
                *fold_line(self.half_w, 0, self.h), Rect(0, 0, self.w, self.h, PAIR_EDGE))

    def guides(self) -> tuple[Shape, ...]:
        """Trim, bleed and safe zone of both faces (`build --guides`)."""
        return (self._centred(self.front, self.front.guides(), 0), self._centred(self.back, self.back.guides(), 1))
