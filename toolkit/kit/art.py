"""A designer's pictures on the printed pieces: in a frame (card art, token art) or covering a card back."""

from __future__ import annotations

from toolkit.pictures import Art
from toolkit.render.scene import Group, Image, Rect, Shape, Style


def framed(art: Art, x: float, y: float, w: float, h: float, stroke: str, *, width: float = 0.3) -> list[Shape]:
    """The picture inside a frame (x, y, w, h), shrunk to fit and centred: nothing of it is cut off."""
    scale = min(w / art.width, h / art.height)
    iw, ih = art.width * scale, art.height * scale
    return [Image(x + (w - iw) / 2, y + (h - ih) / 2, iw, ih, art.data, art.kind, smooth=True),
            Rect(x, y, w, h, Style(stroke=stroke, width=width))]


def covering(art: Art, x: float, y: float, w: float, h: float) -> list[Shape]:
    """The picture covering the box (x, y, w, h), centred, the overflow clipped: a card back to its bleed."""
    scale = max(w / art.width, h / art.height)
    iw, ih = art.width * scale, art.height * scale
    image = Image((w - iw) / 2, (h - ih) / 2, iw, ih, art.data, art.kind, smooth=True)
    return [Group((image,), dx=x, dy=y, clip=Rect(0, 0, w, h, Style(stroke=None)))]
