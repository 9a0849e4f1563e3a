"""Cut-out pieces with bleed: a token's background runs on past its cut line, as a card's art does.

Scissors wander. A piece whose colour stops exactly at its cut line shows a white rim wherever the cut
goes a little wide, so every cut-out token is printed with TOKEN_BLEED of its background beyond the trim
and a thin cut line on the trim, drawn in the piece's own contrasting ink so it shows on light and dark
backgrounds alike. The trim (the piece's size once cut) is unchanged by the bleed.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from toolkit.render.impose import GUIDE_BLEED, GUIDE_SAFE, GUIDE_TRIM
from toolkit.render.scene import Circle, Group, Rect, Shape, Style

TOKEN_BLEED = 1.5  # mm of background beyond the cut line (neighbours on a 4 mm gap keep 1 mm of paper between)
TOKEN_SAFE = 1.0  # the text of a token stays at least this far inside its cut line
CUT_WIDTH = 0.2  # the cut line: thin, so cutting on it leaves no stroke of another colour on the piece
CUT_NOTE = "cut on the thin outer line: the colour runs past it on purpose"  # on every token sheet


@dataclass(frozen=True)
class Trim:
    """Where a piece is cut: a w x h rectangle with its top-left at (x, y), or, when `round`, the disc
    inscribed in it (w == h, the diameter)."""

    x: float
    y: float
    w: float
    h: float
    round: bool = False

    @staticmethod
    def disc(cx: float, cy: float, diameter: float) -> Trim:
        return Trim(cx - diameter / 2, cy - diameter / 2, diameter, diameter, round=True)

    @staticmethod
    def rect(x: float, y: float, w: float, h: float) -> Trim:
        return Trim(x, y, w, h)

    def grown(self, by: float) -> Trim:
        """The same outline `by` mm further out (inwards when negative)."""
        return replace(self, x=self.x - by, y=self.y - by, w=self.w + 2 * by, h=self.h + 2 * by)

    def shape(self, style: Style) -> Shape:
        if self.round:
            return Circle(self.x + self.w / 2, self.y + self.h / 2, self.w / 2, style)
        return Rect(self.x, self.y, self.w, self.h, style)


@dataclass(frozen=True)
class Cutout:
    """One piece to cut out: its trim, its background `fill`, the `ink` of its cut line (a colour that
    contrasts with the fill) and the art drawn over the background, in the same coordinates as the trim."""

    trim: Trim
    fill: str
    ink: str
    art: tuple[Shape, ...]

    def printed(self) -> tuple[Shape, ...]:
        """As on a token sheet: the background TOKEN_BLEED past the trim, the art, the cut line on top."""
        return (self.trim.grown(TOKEN_BLEED).shape(Style(fill=self.fill, stroke=None)), *self.art,
                self.trim.shape(Style(stroke=self.ink, width=CUT_WIDTH)))

    def at_trim(self) -> tuple[Shape, ...]:
        """The piece exactly as cut, nothing beyond its edge: the image of a digital token (exports)."""
        return (self.trim.shape(Style(fill=self.fill, stroke=None)), *self.art,
                self.trim.shape(Style(stroke=self.ink, width=CUT_WIDTH)))

    def guides(self) -> tuple[Shape, ...]:
        """For `build --guides`: trim (solid), bleed (dashed) and safe zone (dotted), as cards have."""
        return (self.trim.grown(TOKEN_BLEED).shape(GUIDE_BLEED), self.trim.shape(GUIDE_TRIM),
                self.trim.grown(-TOKEN_SAFE).shape(GUIDE_SAFE))


def placed_guides(piece: Cutout, dx: float, dy: float) -> Group:
    """The piece's guides moved where its art is placed on the sheet."""
    return Group(piece.guides(), dx=dx, dy=dy)
