"""`--ink saver` for every component: large coloured areas printed as a light tint of their colour, the
words on them turned dark so they stay readable.

One transform over finished pages rather than a switch in every generator, so a new component is covered
without remembering to. Rules: a filled shape of at least `LARGE_AREA` mm² whose colour is not already
pale keeps its hue as a `TINT` of it (plus a thin outline in the full colour, so a tinted area still has
an edge); small fills (colour swatches, team badges, letters' backgrounds) keep their full colour, since
that is where colour carries meaning and costs little ink. Text lying on a tinted area whose colour is
light (white on navy) becomes `DARK`, unless a small fill drawn over the area lies under it (a badge).
Pictures are left as they are (they are the designer's).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace

from toolkit.kit.component import Component
from toolkit.render.fonts import text_width
from toolkit.render.scene import (
    PT_TO_MM,
    Circle,
    Group,
    Page,
    Polygon,
    Rect,
    Reuse,
    Shape,
    Style,
    Text,
    Wedge,
    reusable,
)

LARGE_AREA = 100.0  # mm²: a 10 x 10 mm square
TINT = 0.22  # how much of the colour a large area keeps
LIGHT = 0.72  # relative luminance above which a text colour counts as light (white on a dark fill)
PALE = 200  # a fill whose every channel is at least this (of 255) already takes little ink
DARK = "#1f2630"
OUTLINE = 0.25  # mm, the edge a tinted area gets when it had none

Matrix = tuple[float, float, float, float, float, float]  # x' = a x + c y + e, y' = b x + d y + f
IDENTITY: Matrix = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)


def _luminance(color: str) -> float:
    r, g, b = (int(color[i:i + 2], 16) / 255 for i in (1, 3, 5))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def _pale(color: str) -> bool:
    return min(int(color[i:i + 2], 16) for i in (1, 3, 5)) >= PALE


def tint(color: str, amount: float = TINT) -> str:
    r, g, b = (int(color[i:i + 2], 16) for i in (1, 3, 5))
    return "#" + "".join(f"{round(255 - (255 - c) * amount):02x}" for c in (r, g, b))


def _compose(outer: Matrix, group: Group) -> Matrix:
    """The group's local -> page matrix: translate, rotate (clockwise), mirror, scale, then `outer`."""
    angle = math.radians(group.rotate)
    cos, sin = math.cos(angle), math.sin(angle)
    sx = (-1 if group.mirror_x else 1) * group.scale
    sy = (-1 if group.mirror_y else 1) * group.scale
    # local (x, y) -> rotated and scaled -> translated
    a, b, c, d = cos * sx, sin * sx, -sin * sy, cos * sy
    e, f = group.dx, group.dy
    oa, ob, oc, od, oe, of = outer
    return (oa * a + oc * b, ob * a + od * b, oa * c + oc * d, ob * c + od * d, oa * e + oc * f + oe,
            ob * e + od * f + of)


def _apply(m: Matrix, x: float, y: float) -> tuple[float, float]:
    return m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5]


def _invert(m: Matrix) -> Matrix:
    a, b, c, d, e, f = m
    det = a * d - b * c
    return (d / det, -b / det, -c / det, a / det, (c * f - d * e) / det, (b * e - a * f) / det)


def _area(shape: Shape) -> float:
    if isinstance(shape, Rect):
        return shape.w * shape.h
    if isinstance(shape, Circle):
        return math.pi * shape.r ** 2
    if isinstance(shape, Wedge):
        return math.pi * shape.r ** 2 * min(shape.extent, 360) / 360
    if isinstance(shape, Polygon) and shape.closed:
        points = shape.points
        pairs = zip(points, points[1:] + points[:1], strict=True)
        return abs(sum(x1 * y2 - x2 * y1 for (x1, y1), (x2, y2) in pairs)) / 2
    return 0.0


def _contains(shape: Shape, x: float, y: float) -> bool:
    if isinstance(shape, Rect):
        return shape.x <= x <= shape.x + shape.w and shape.y <= y <= shape.y + shape.h
    if isinstance(shape, Circle):
        return math.hypot(x - shape.cx, y - shape.cy) <= shape.r
    if isinstance(shape, Wedge):
        if math.hypot(x - shape.cx, y - shape.cy) > shape.r:
            return False
        angle = math.degrees(math.atan2(x - shape.cx, -(y - shape.cy))) % 360
        return (angle - shape.start) % 360 <= shape.extent
    if isinstance(shape, Polygon):
        xs, ys = [p[0] for p in shape.points], [p[1] for p in shape.points]
        return min(xs) <= x <= max(xs) and min(ys) <= y <= max(ys)
    return False


class _Saver:
    def __init__(self) -> None:
        # filled areas drawn so far, topmost last: (shape, page -> local, whether it was tinted)
        self.filled: list[tuple[Shape, Matrix, bool]] = []

    def items(self, items: Sequence[Shape], matrix: Matrix) -> list[Shape]:
        return [self.item(item, matrix) for item in items]

    def item(self, item: Shape, matrix: Matrix) -> Shape:
        if isinstance(item, Group):
            return replace(item, items=tuple(self.items(item.items, _compose(matrix, item))))
        if isinstance(item, Reuse):
            return reusable(self.items(item.items, matrix))
        if isinstance(item, Text):
            return self.text(item, matrix)
        style = getattr(item, "style", None)
        if not isinstance(style, Style) or style.fill is None:
            return item
        scale = abs(matrix[0] * matrix[3] - matrix[1] * matrix[2])
        if scale == 0:
            return item
        large = _area(item) * scale >= LARGE_AREA and not _pale(style.fill)
        self.filled.append((item, _invert(matrix), large))
        if not large:
            return item
        outline = style if style.stroke else replace(style, stroke=style.fill, width=OUTLINE)
        return replace(item, style=replace(outline, fill=tint(style.fill)))  # type: ignore[arg-type]

    def text(self, item: Text, matrix: Matrix) -> Text:
        if _luminance(item.color) < LIGHT:
            return item
        width = text_width(item.text, item.font, item.size)
        middle = {"start": item.x + width / 2, "middle": item.x, "end": item.x - width / 2}[item.anchor]
        x, y = _apply(matrix, middle, item.y - item.size * PT_TO_MM * 0.3)
        for shape, inverse, tinted in reversed(self.filled):  # the topmost area under the words decides
            if _contains(shape, *_apply(inverse, x, y)):
                return replace(item, color=DARK) if tinted else item
        return item


def ink_saver_page(page: Page) -> Page:
    """The page with large colour areas tinted and the light words on them darkened (see module doc)."""
    return replace(page, items=_Saver().items(page.items, IDENTITY))


def ink_saver_component(component: Component, saver: bool) -> Component:
    """With `saver`, every page and piece of the component through `ink_saver_page` (in place)."""
    if saver:
        component.pages = [ink_saver_page(page) for page in component.pages]
        component.pieces = [(slug, ink_saver_page(piece)) for slug, piece in component.pieces]
    return component
