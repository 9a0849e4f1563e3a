"""The backend-neutral scene: shapes and text in millimetres, origin at the top-left, y growing down.

Generators build these; `pdf.py` and `svg.py` draw them. Angles are degrees clockwise from 12 o'clock,
as on a drawn wheel. Text sizes are points (what designers think in); everything else is millimetres.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Literal, Union

PT_TO_MM = 25.4 / 72


@dataclass(frozen=True)
class Style:
    fill: str | None = None  # "#rrggbb" or None for no fill
    stroke: str | None = "#000000"
    width: float = 0.3  # stroke width, mm
    dash: tuple[float, ...] = ()  # mm on, mm off, ...


NO_STROKE = Style(stroke=None)


def filled(color: str, stroke: str | None = None, width: float = 0.3) -> Style:
    return Style(fill=color, stroke=stroke, width=width)


@dataclass(frozen=True)
class Rect:
    x: float
    y: float
    w: float
    h: float
    style: Style = Style()
    radius: float = 0.0


@dataclass(frozen=True)
class Circle:
    cx: float
    cy: float
    r: float
    style: Style = Style()


@dataclass(frozen=True)
class Line:
    x1: float
    y1: float
    x2: float
    y2: float
    style: Style = Style()


@dataclass(frozen=True)
class Polygon:
    points: tuple[tuple[float, float], ...]
    style: Style = Style()
    closed: bool = True


@dataclass(frozen=True)
class Wedge:
    """A pie slice from `start` through `extent` degrees, clockwise from 12 o'clock."""

    cx: float
    cy: float
    r: float
    start: float
    extent: float
    style: Style = Style()


FontName = Literal["regular", "bold", "condensed", "condensed-bold"]
Anchor = Literal["start", "middle", "end"]


@dataclass(frozen=True)
class Text:
    """One line of text; (x, y) is the baseline point at the anchor."""

    x: float
    y: float
    text: str
    size: float  # points
    font: FontName = "regular"
    color: str = "#000000"
    anchor: Anchor = "start"


@dataclass(frozen=True)
class Group:
    """Items moved by (dx, dy), then turned `rotate` degrees clockwise about that point, then mirrored
    (`mirror_x`: left-right, `mirror_y`: top-bottom) and scaled by `scale` about it, optionally clipped to
    `clip` (in the group's own coordinates, after the mirror and scale). Mirroring extends card art into a
    wider bleed (`export/bleed.py`); scaling fits a card to a print service's size (`export/services.py`)."""

    items: tuple[Shape, ...]
    dx: float = 0.0
    dy: float = 0.0
    rotate: float = 0.0
    clip: Rect | None = None
    mirror_x: bool = False
    mirror_y: bool = False
    scale: float = 1.0


@dataclass(frozen=True)
class Image:
    """A raster image (PNG or JPEG bytes) stretched over a box. A chart's pixels stay sharp; `smooth`
    (a designer's art) lets the viewer interpolate."""

    x: float
    y: float
    w: float
    h: float
    data: bytes = field(repr=False)
    kind: Literal["png", "jpeg"] = "png"
    smooth: bool = False


@dataclass(frozen=True)
class Reuse:
    """Items drawn identically many times (a card back, a card frame). `key` names them within a
    document; the PDF stores them once as a form and places the copies, the SVG simply inlines them."""

    key: str
    items: tuple[Shape, ...]


Shape = Union[Rect, Circle, Line, Polygon, Wedge, Text, Group, Reuse, Image]  # noqa: UP007 - a runtime alias


def reusable(items: Sequence[Shape]) -> Reuse:
    """Wrap items for reuse, keyed by their content, so equal art shares one PDF form and different
    art never does."""
    frozen = tuple(items)
    return Reuse(hashlib.sha1(repr(frozen).encode("utf-8")).hexdigest()[:16], frozen)


PageSide = Literal["single", "front", "back", "flow"]
Folds = Literal["", "cards", "tokens"]


@dataclass
class Page:
    """One printed page. `side` says how it prints: a "front" is followed by its "back" (the other side
    of the same sheet); "single" pages are one-sided; consecutive "flow" pages (a manual) may share
    sheets in order. `guides` (trim, bleed, safe zones) are drawn only when asked for (`--guides`).
    `folds` names what the page's glue-and-fold pairs are (`--layout fold`), so the print plan says how
    to make them."""

    width: float
    height: float
    items: list[Shape] = field(default_factory=list)
    label: str = ""
    side: PageSide = "single"
    guides: list[Shape] = field(default_factory=list)
    folds: Folds = ""

    def add(self, *items: Shape) -> None:
        self.items.extend(items)


@dataclass
class Document:
    title: str
    pages: list[Page] = field(default_factory=list)


def texts_in(items: Iterable[Shape]) -> Iterator[Text]:
    """Every text item, inside groups too, at the size written (a kit's groups never scale; only a print
    service's export scales a whole card, and the preflight measures that from the PDF)."""
    for item in items:
        if isinstance(item, Text):
            yield item
        elif isinstance(item, (Group, Reuse)):
            yield from texts_in(item.items)
