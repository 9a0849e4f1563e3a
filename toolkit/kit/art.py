"""A designer's pictures on the printed pieces: in a frame (card art, token art) or fitted on a card back."""

from __future__ import annotations

from toolkit.pictures import Art
from toolkit.render.scene import Image, Rect, Shape, Style


def framed(art: Art, x: float, y: float, w: float, h: float, stroke: str, *, width: float = 0.3) -> list[Shape]:
    """The picture inside a frame (x, y, w, h), shrunk to fit and centred: nothing of it is cut off."""
    scale = min(w / art.width, h / art.height)
    iw, ih = art.width * scale, art.height * scale
    return [Image(x + (w - iw) / 2, y + (h - ih) / 2, iw, ih, art.data, art.kind, smooth=True),
            Rect(x, y, w, h, Style(stroke=stroke, width=width))]


def fitted(art: Art, x: float, y: float, w: float, h: float, background: str, *, bleed: float = 0.0) -> list[Shape]:
    """A card back's picture: the whole picture fitted inside the box (x, y, w, h), centred, on `background`
    that runs `bleed` past the box, so nothing of the picture is cropped, by the layout or by the cut."""
    scale = min(w / art.width, h / art.height)
    iw, ih = art.width * scale, art.height * scale
    return [Rect(x - bleed, y - bleed, w + 2 * bleed, h + 2 * bleed, Style(fill=background, stroke=None)),
            Image(x + (w - iw) / 2, y + (h - ih) / 2, iw, ih, art.data, art.kind, smooth=True)]
