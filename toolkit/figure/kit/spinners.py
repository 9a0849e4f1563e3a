"""Spinner discs: each unit's wheel drawn to scale, to cut out and spin with a paperclip on a pencil.

Wedges run clockwise from 12 o'clock in wheel order; each covers size/96 of the circle (the sizes and
1-96 ranges come from the rules), is filled with its segment colour and carries the colour letter, so a
black-and-white print still works.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import partial

from toolkit.figure import constants
from toolkit.figure.kit.colors import LEGEND_ORDER, SEGMENT
from toolkit.figure.kit.context import KitContext, look_key
from toolkit.figure.model import Color, Unit
from toolkit.figure.rules.disk import range_label, ranges
from toolkit.figure.theme import Theme
from toolkit.kit.component import Component
from toolkit.kit.fits import data_spot
from toolkit.kit.memo import Same, laid_out
from toolkit.kit.palette import ACCENT, INK, MUTED
from toolkit.render.fonts import text_width
from toolkit.render.impose import PAPER_SIZES
from toolkit.render.scene import PT_TO_MM, Circle, Group, Line, Page, Rect, Shape, Style, Text, Wedge, filled
from toolkit.render.textfit import fit_line, fit_text, text_lines

DIAMETER = 80.0  # preferred; a little smaller when that gets six discs on a page
MIN_SIX_UP = 76.0  # below this, a page holds four 80 mm discs instead
CUT_GAP = 3.6  # the dashed cut circle lies this far outside the disc: the unit's name runs in between
NAME_SIZE, NAME_MIN = 7.0, 5.0  # pt, the name along the bottom of the disc
NAME_ARC = 160.0  # degrees of the bottom arc the name may take
HUB_R = 6.5
MARGIN = 7.0
HEADER_H = 20.0
NAME_H = 0.0  # the name sits inside the cut circle, so nothing under it
ROW_GAP = 1.5
CUT_STYLE = Style(stroke="#555555", width=0.25, dash=(2.0, 1.2))


def wedge_angles(unit: Unit) -> list[tuple[float, float]]:
    """(start, extent) in degrees clockwise from 12 o'clock, one per segment, from the 1-96 ranges."""
    total = constants.DISK_TOTAL
    return [((low - 1) * 360 / total, (high - low + 1) * 360 / total) for low, high in ranges(unit.disk)]


def _polar(cx: float, cy: float, r: float, angle: float) -> tuple[float, float]:
    rad = math.radians(angle)
    return cx + r * math.sin(rad), cy - r * math.cos(rad)


def disc(unit: Unit, cx: float, cy: float, radius: float = DIAMETER / 2) -> tuple[list[Shape], list[tuple[str, str]]]:
    """The disc centred on (cx, cy) with its cut circle; returns the items and any text cut short."""
    items: list[Shape] = []
    cut: list[tuple[str, str]] = []
    spans = wedge_angles(unit)
    for segment, (start, extent) in zip(unit.disk, spans, strict=True):
        items.append(Wedge(cx, cy, radius, start, extent, filled(SEGMENT[segment.color].fill)))
    # Outline, and a dark line on every boundary (two White wedges side by side stay distinct).
    items.append(Circle(cx, cy, radius, Style(stroke=INK, width=0.35)))
    if len(spans) > 1:
        for start, _ in spans:
            x1, y1 = _polar(cx, cy, HUB_R, start)
            x2, y2 = _polar(cx, cy, radius, start)
            items.append(Line(x1, y1, x2, y2, Style(stroke="#333333", width=0.3)))
    for index, (segment, (low, high), (start, extent)) in enumerate(
            zip(unit.disk, ranges(unit.disk), spans, strict=True)):
        label, overflow = _wedge_label(segment.move, segment.color, low, high, start, extent, radius)
        items.append(Group(label.items, dx=cx, dy=cy, rotate=label.rotate))
        if overflow:
            cut.append((f"disk.{index}.move", segment.move))
    # Hub: where the pencil point holds the paperclip (or a split pin goes through).
    items += [Circle(cx, cy, HUB_R, filled("#ffffff", INK, 0.3)),
              Line(cx - 2.2, cy - 1.0, cx + 2.2, cy - 1.0, Style(stroke=INK, width=0.25)),
              Line(cx, cy - 3.2, cx, cy + 1.2, Style(stroke=INK, width=0.25)),
              Circle(cx, cy - 1.0, 0.55, filled(INK)),
              Text(cx, cy + 3.4, "pierce here", 4.2, "condensed-bold", INK, "middle")]
    items.append(Circle(cx, cy, radius + CUT_GAP, CUT_STYLE))
    return items, cut


def _wedge_label(move: str, color: Color, low: int, high: int, start: float, extent: float,
                 radius: float) -> tuple[Group, bool]:
    """Move name by the rim, letter in the middle, range under it; turned to run along the wedge's middle,
    reading from the rim inwards on the top half and outwards on the bottom half (never upside down)."""
    swatch = SEGMENT[color]
    mid = start + extent / 2
    flip = 90 < mid < 270
    sign = 1 if flip else -1  # local y of "outwards"
    half = math.radians(min(extent, 180) / 2)
    items: list[Shape] = []

    def chord(r: float) -> float:
        return 2 * r * math.sin(half) - 2.5

    def baseline(r: float, size: float) -> float:
        """Local baseline that vertically centres a line of `size` pt on radius r."""
        return sign * r + size * PT_TO_MM * 0.36

    r_name = radius - 5.0
    name = fit_line(move, max(chord(r_name), 4.0), "condensed-bold", 7.5, 5)
    items.append(Text(0, baseline(r_name, name.size), name.lines[0], name.size, "condensed-bold", swatch.ink,
                      "middle"))
    r_letter = radius * 0.58
    letter_size = 16 if chord(r_letter) > 8 else 11
    items.append(Text(0, baseline(r_letter, letter_size), swatch.letter, letter_size, "bold", swatch.ink, "middle"))
    span = range_label(low, high)  # written as the card's table writes it
    # Towards the hub under the letter; a narrow wedge tries smaller type, then the wider band by the rim.
    for r_range, size in ((r_letter - 6.5, 7.5), (r_letter - 6.5, 6.0), ((r_letter + r_name) / 2 + 1.5, 6.0),
                          ((r_letter + r_name) / 2 + 1.5, 5.0)):
        if text_width(span, "condensed", size) <= chord(r_range):
            items.append(Text(0, baseline(r_range, size), span, size, "condensed", swatch.ink, "middle"))
            break
    return Group(tuple(items), rotate=mid + (180 if flip else 0)), name.overflow


def arc_name(name: str, cx: float, cy: float, radius: float) -> tuple[list[Shape], bool]:
    """The unit's name along the bottom of the disc, between the disc and its cut circle, upright and
    reading left to right (each letter turned to the arc), so a cut-out spinner still says whose it is.
    Returns the letters and whether the name had to be cut short."""
    size = NAME_SIZE
    cap = size * PT_TO_MM * 0.72
    base = radius + 0.6 + cap  # the baseline's radius: letters stand on it, tops towards the centre
    room = math.radians(NAME_ARC) * base
    while text_width(name, "bold", size) > room and size > NAME_MIN:
        size = max(NAME_MIN, size - 0.5)
    fitted = fit_line(name, room, "bold", size, size)
    shown = fitted.lines[0]
    widths = [text_width(ch, "bold", size) for ch in shown]
    total = math.degrees(sum(widths) / base)
    angle = 180 + total / 2  # the left end; angles clockwise from 12 o'clock
    letters: list[Shape] = []
    for ch, width in zip(shown, widths, strict=True):
        middle = angle - math.degrees(width / 2 / base)
        x, y = _polar(cx, cy, base, middle)
        letters.append(Group((Text(0, 0, ch, size, "bold", INK, "middle"),), dx=x, dy=y, rotate=middle - 180))
        angle -= math.degrees(width / base)
    return letters, fitted.overflow


def spinner_cell(unit: Unit, x: float, y: float, width: float,
                 radius: float = DIAMETER / 2) -> tuple[list[Shape], list[tuple[str, str]]]:
    """One cell: the disc, its name inside the cut circle along the bottom; (x, y) is the cell's top-left.
    Laid out once per watch for the same unit and place (`laid_out`): a pure function of its arguments."""
    inputs = (unit, x, y, width, radius)
    items, cut = laid_out("spinner_cell", (Same(unit), *inputs[1:]), partial(_spinner_cell, *inputs))
    return list(items), list(cut)


def _spinner_cell(unit: Unit, x: float, y: float, width: float,
                  radius: float) -> tuple[tuple[Shape, ...], tuple[tuple[str, str], ...]]:
    cx = x + width / 2
    cy = y + radius + CUT_GAP
    items, cut = disc(unit, cx, cy, radius)
    letters, overflow = arc_name(unit.name, cx, cy, radius)
    if overflow:
        cut.append(("name", unit.name))
    items += letters
    return tuple(items), tuple(cut)


@dataclass(frozen=True)
class SpinnerLayout:
    cols: int
    rows: int
    diameter: float
    cell_w: float
    pitch: float  # row to row

    @property
    def per_page(self) -> int:
        return self.cols * self.rows


def spinner_layout(paper: str) -> SpinnerLayout:
    """Six discs a page when three rows of at least MIN_SIX_UP mm fit; otherwise four 80 mm discs."""
    width, height = PAPER_SIZES[paper]
    room = height - 2 * MARGIN - HEADER_H
    six_up = min(DIAMETER, math.floor((room - 2 * ROW_GAP) / 3 - 2 * CUT_GAP - NAME_H))
    rows, diameter = (3, six_up) if six_up >= MIN_SIX_UP else (2, DIAMETER)
    return SpinnerLayout(2, rows, diameter, (width - 2 * MARGIN) / 2, room / rows)


def build_spinners(ctx: KitContext) -> Component:
    terms = ctx.theme.terms
    width, height = PAPER_SIZES[ctx.paper]
    component = Component("spinners", f"{terms.game}: {terms.data_disk} spinners")
    layout = spinner_layout(ctx.paper)
    radius = layout.diameter / 2
    cell_h = layout.diameter + 2 * CUT_GAP + NAME_H
    units = ctx.units()
    sheets = math.ceil(len(units) / layout.per_page)
    for sheet, first in enumerate(range(0, len(units), layout.per_page), start=1):
        page = Page(width, height, label=f"{terms.data_disk} spinners {sheet}")
        page.add(*_header(ctx, width, sheet, sheets))
        for slot, unit in enumerate(units[first:first + layout.per_page]):
            row, col = divmod(slot, layout.cols)
            x = MARGIN + col * layout.cell_w
            y = MARGIN + HEADER_H + row * layout.pitch + (layout.pitch - cell_h) / 2
            items, cut = spinner_cell(unit, x, y, layout.cell_w, radius)
            page.add(*items)
            for field_name, text in cut:
                ctx.fits.cut(data_spot(unit.id, field_name), text)
        component.pages.append(page)
    piece_w = DIAMETER + 2 * CUT_GAP + 10
    for unit in units:
        items, _ = spinner_cell(unit, 0, 3, piece_w)
        piece = Page(piece_w, DIAMETER + 2 * CUT_GAP + NAME_H + 5, label=unit.name)
        piece.add(*items)
        component.pieces.append((f"spinner-{unit.id}", piece))
    component.warnings = ctx.fits.drain()
    return component


def _header(ctx: KitContext, width: float, sheet: int, sheets: int) -> list[Shape]:
    """A page's title, how to spin and the colour legend; laid out once per watch (`laid_out`)."""
    return list(laid_out("spinner_header", (look_key(ctx), width, sheet, sheets),
                         partial(_laid_out_header, ctx.theme, width, sheet, sheets)))


def _laid_out_header(theme: Theme, width: float, sheet: int, sheets: int) -> tuple[Shape, ...]:
    terms = theme.terms
    inner = width - 2 * MARGIN
    top = MARGIN
    title = fit_line(f"{terms.data_disk} spinners", inner * 0.55, "bold", 13, 8)
    items: list[Shape] = [Text(MARGIN, top + 4.6, title.lines[0], title.size, "bold", INK)]
    meta = fit_line(f"{terms.game}  ·  sheet {sheet} of {sheets}", inner * 0.4, "regular", 7.5, 5)
    items.append(Text(width - MARGIN, top + 4.6, meta.lines[0], meta.size, "regular", MUTED, "end"))
    how = ("Cut on the dashed circles. To spin, stand a pencil point on the centre mark through the loop of a "
           "paperclip and flick the clip: the wedge under its tip is the result. Numbers are the "
           f"1-{constants.DISK_TOTAL} ranges, for the d10 table.")
    fitted = fit_text(how, inner, 5.8, "regular", 7, 5)
    items += text_lines(fitted, MARGIN, top + 6.4, "regular", MUTED)
    # Legend: colour, letter and the theme's name for the colour.
    x = MARGIN
    y = top + 15.6
    slot = inner / len(LEGEND_ORDER)
    for color in LEGEND_ORDER:
        swatch = SEGMENT[color]
        items.append(Rect(x, y - 3.1, 4.2, 4.2, filled(swatch.fill, INK, 0.2), radius=0.6))
        items.append(Text(x + 2.1, y + 0.3, swatch.letter, 7, "bold", swatch.ink, "middle"))
        label = fit_line(theme.colors[color], slot - 7.0, "regular", 7.5, 5.5)
        items.append(Text(x + 5.6, y, label.lines[0], label.size, "regular", INK))
        x += slot
    items.append(Line(MARGIN, top + HEADER_H - 2.5, width - MARGIN, top + HEADER_H - 2.5,
                      Style(stroke=ACCENT, width=0.4)))
    return tuple(items)
