"""Colour and shape operators for the PDF renderer, written as reportlab's canvas writes them, byte for byte,
each made once per process: a sheet of cards draws the same colours, circles, wedges and rounded frames
again and again (each card is a group moved into place, so its shapes keep their coordinates), and
reportlab re-parsed each colour and recomputed each Bezier arc every time.

The operators are reportlab's own (its path object draws into a scratch list), so a PDF is the same with
or without this memory.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from reportlab.lib.colors import CMYKColor, Color
from reportlab.lib.rl_accel import fp_str
from reportlab.pdfgen.canvas import PATH_OPS  # type: ignore[attr-defined]  # not in the stubs
from reportlab.pdfgen.pathobject import PDFPathObject

from toolkit.render.scene import Circle, Rect, Wedge


def fill_op(color: Color) -> str:
    """reportlab's fill-colour operator (duelkit's colours carry no spot name and are opaque)."""
    return f"{_components(color)} {'k' if isinstance(color, CMYKColor) else 'rg'}"


def stroke_op(color: Color) -> str:
    """reportlab's stroke-colour operator."""
    return f"{_components(color)} {'K' if isinstance(color, CMYKColor) else 'RG'}"


def _components(color: Color) -> str:
    if isinstance(color, CMYKColor):
        d = color.density
        return str(fp_str(d * color.cyan, d * color.magenta, d * color.yellow, d * color.black))
    return str(fp_str((color.red, color.green, color.blue)))


class Colors:
    """Colour operators by (colour as written, CMYK), parsed once (`parse` is the renderer's parser)."""

    def __init__(self, parse: Any) -> None:
        self.parse = parse
        self.fills: dict[tuple[str, bool], str] = {}
        self.strokes: dict[tuple[str, bool], str] = {}

    def fill(self, value: str, cmyk: bool) -> str:
        key = (value, cmyk)
        found = self.fills.get(key)
        if found is None:
            found = self.fills[key] = fill_op(self.parse(value, cmyk))
        return found

    def stroke(self, value: str, cmyk: bool) -> str:
        key = (value, cmyk)
        found = self.strokes.get(key)
        if found is None:
            found = self.strokes[key] = stroke_op(self.parse(value, cmyk))
        return found


@lru_cache(maxsize=256)
def line_width_op(width: float) -> str:
    return f"{fp_str(width)} w"


_SHAPES: dict[tuple[object, ...], tuple[str, ...]] = {}
SHAPE_MEMORY = 16384  # shapes remembered (a kit has a few thousand distinct ones)


def shape_ops(shape: Rect | Circle | Wedge, stroke: int, fill: int, fill_mode: int) -> tuple[str, ...]:
    """The lines reportlab's `roundRect`, `circle` or `wedge` append to the page for this shape, with
    reportlab's own arithmetic. A full-turn wedge is a circle, as the renderer draws it. Remembered by
    geometry (a tuple of numbers hashes far faster than the frozen dataclass with its style)."""
    if isinstance(shape, Rect):
        key: tuple[object, ...] = (shape.x, shape.y, shape.w, shape.h, shape.radius, stroke, fill, fill_mode)
    elif isinstance(shape, Circle) or shape.extent >= 360:
        key = (shape.cx, shape.cy, shape.r, stroke, fill, fill_mode)
    else:
        key = (shape.cx, shape.cy, shape.r, shape.start, shape.extent, stroke, fill, fill_mode, 0)
    found = _SHAPES.get(key)
    if found is None:
        if len(_SHAPES) >= SHAPE_MEMORY:
            _SHAPES.clear()
        found = _SHAPES[key] = _path(shape, stroke, fill, fill_mode)
    return found


def _path(shape: Rect | Circle | Wedge, stroke: int, fill: int, fill_mode: int) -> tuple[str, ...]:
    code: list[str] = []
    path = PDFPathObject(code=code)
    if isinstance(shape, Rect):
        path.roundRect(shape.x, shape.y, shape.w, shape.h, shape.radius)
    else:
        x1, y1, x2, y2 = shape.cx - shape.r, shape.cy - shape.r, shape.cx + shape.r, shape.cy + shape.r
        if isinstance(shape, Circle) or shape.extent >= 360:
            path.ellipse(x1, y1, x2 - x1, y2 - y1)
        else:
            # In the flipped space, reportlab's angles run clockwise on paper from 3 o'clock.
            path.moveTo(0.5 * (x1 + x2), 0.5 * (y1 + y2))
            path.arcTo(x1, y1, x2, y2, shape.start - 90, shape.extent)  # type: ignore[arg-type]  # degrees
            path.close()
    code.append(PATH_OPS[stroke, fill, fill_mode])
    return tuple(code)
