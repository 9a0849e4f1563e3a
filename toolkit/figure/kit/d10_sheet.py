"""The d10 table: two ten-sided dice read as a 1-96 roll (spec 000 section 4.4, exact odds).

Every cell is computed with `d10_pair_to_roll`; the 97-100 cells say "again" and are shaded.
"""

from __future__ import annotations

from toolkit.figure import constants
from toolkit.figure.kit.context import KitContext
from toolkit.figure.rules.disk import d10_pair_to_roll
from toolkit.kit.component import Component
from toolkit.kit.palette import ACCENT, INK, MUTED, RULE
from toolkit.render.impose import PAPER_SIZES
from toolkit.render.scene import PT_TO_MM, Group, Line, Page, Rect, Shape, Style, Text, filled
from toolkit.render.textfit import fit_line, fit_text, text_lines

MARGIN = 12.0
AGAIN = "again"
AGAIN_FILL = "#d9d9d9"
HEAD_FILL = ACCENT
ZEBRA = "#f3f5f7"


def cell_text(tens: int, ones: int) -> str:
    roll = d10_pair_to_roll(tens, ones)
    return AGAIN if roll is None else f"{roll:02d}"


def _reading(tens: int, ones: int) -> str:
    roll = d10_pair_to_roll(tens, ones)
    return "roll again" if roll is None else f"{roll:02d}"


def build_d10(ctx: KitContext) -> Component:
    terms = ctx.theme.terms
    width, height = PAPER_SIZES[ctx.paper]
    inner = width - 2 * MARGIN
    items: list[Shape] = []
    component = Component("d10", f"{terms.game}: d10 table")

    # Title block.
    y = MARGIN
    items.append(Rect(MARGIN, y, inner, 1.2, filled(ACCENT, None)))
    title = fit_line(f"{terms.data_disk} without a spinner: the d10 table", inner, "bold", 17, 10)
    items.append(Text(MARGIN, y + 10.5, title.lines[0], title.size, "bold", INK))
    total = constants.DISK_TOTAL
    sub = fit_line(f"{terms.game}  ·  a roll from 01 to {total} with exact odds", inner, "regular", 9, 6)
    items.append(Text(MARGIN, y + 16.5, sub.lines[0], sub.size, "regular", MUTED))
    y += 22.0

    steps = [
        "Roll two d10 of different colours. Choose one as the tens die and the other as the ones die "
        "before you roll.",
        "Read the tens die down the left and the ones die across the top. 0-0 reads 100.",
        f"{total + 1}-100 (shaded '{AGAIN}'): roll both dice again. Every result 01-{total} is then exactly "
        f"as likely (1 in {total}), just like spinning the {terms.data_disk}.",
        f"Find the result in the ranges on the unit's {terms.schematic}: that wedge is the move.",
    ]
    for number, step in enumerate(steps, start=1):
        fitted = fit_text(step, inner - 8, 12, "regular", 9.5, 7)
        items.append(Text(MARGIN + 1.5, y + fitted.size * 0.2822, f"{number}.", fitted.size, "bold", ACCENT))
        items += text_lines(fitted, MARGIN + 7, y, "regular", INK)
        y += len(fitted.lines) * fitted.line_height() + 1.6
    y += 4.0

    # Grid: a header row (ones die) and a header column (tens die), then 10 x 10 cells.
    label_w = 8.0  # the rotated "tens die" label
    head = 12.0
    cell = min((inner - label_w - head) / 10, (height - MARGIN - 14.0 - y - 7.0 - head) / 10)
    grid_w = head + 10 * cell
    left = MARGIN + label_w + (inner - label_w - grid_w) / 2
    top = y + 7.0
    items.append(Text(left + head + 5 * cell, top - 2.2, "ones die  →", 9, "bold", ACCENT, "middle"))
    items.append(_vertical_label(left - 5.5, top + head + 5 * cell, "tens die  →"))
    items.append(Rect(left, top, grid_w, head, filled(HEAD_FILL, None)))
    items.append(Rect(left, top, head, head + 10 * cell, filled(HEAD_FILL, None)))
    items.append(Line(left, top, left + head, top + head, Style(stroke="#8795a3", width=0.25)))
    items.append(Text(left + head - 1.2, top + 4.2, "ones", 5.5, "regular", "#ffffff", "end"))
    items.append(Text(left + 1.2, top + head - 1.5, "tens", 5.5, "regular", "#ffffff"))
    size = 12 if cell >= 14 else 10
    for digit in range(10):
        cx = left + head + digit * cell + cell / 2
        items.append(Text(cx, top + head / 2 + 2.0, str(digit), 14, "bold", "#ffffff", "middle"))
        cy = top + head + digit * cell + cell / 2
        items.append(Text(left + head / 2, cy + 2.0, str(digit), 14, "bold", "#ffffff", "middle"))
    for tens in range(10):
        for ones in range(10):
            x = left + head + ones * cell
            yy = top + head + tens * cell
            text = cell_text(tens, ones)
            baseline = yy + cell / 2 + size * PT_TO_MM * 0.36  # one baseline per row, numbers centred
            if text == AGAIN:
                items.append(Rect(x, yy, cell, cell, filled(AGAIN_FILL, None)))
                items.append(Text(x + cell / 2, baseline, text, size * 0.8, "condensed", "#333333", "middle"))
            else:
                if tens % 2:
                    items.append(Rect(x, yy, cell, cell, filled(ZEBRA, None)))
                items.append(Text(x + cell / 2, baseline, text, size, "bold", INK, "middle"))
    grid_style = Style(stroke=RULE, width=0.25)
    for i in range(11):
        gx = left + head + i * cell
        items.append(Line(gx, top + head, gx, top + head + 10 * cell, grid_style))
        gy = top + head + i * cell
        items.append(Line(left + head, gy, left + grid_w, gy, grid_style))
    items.append(Rect(left, top, grid_w, head + 10 * cell, Style(stroke=INK, width=0.5)))
    bottom = top + head + 10 * cell

    # Example, under the grid.
    shown = "   ".join(f"Tens {tens}, ones {ones} → {_reading(tens, ones)}." for tens, ones in ((4, 7), (0, 5), (9, 8)))
    example = fit_line(f"Examples: {shown}", inner, "regular", 8.5, 6)
    items.append(Text(width / 2, bottom + 7.0, example.lines[0], example.size, "regular", MUTED, "middle"))
    footer = fit_line(f"{terms.game}  ·  d10 table", inner, "regular", 7, 5)
    items.append(Text(width / 2, height - MARGIN + 2.0, footer.lines[0], footer.size, "regular", MUTED, "middle"))

    page = Page(width, height, items, label="d10 table")
    component.pages.append(page)
    component.pieces.append(("d10", page))
    return component


def _vertical_label(x: float, y: float, text: str) -> Shape:
    """Text reading downwards (turned 90 degrees clockwise, letter tops facing right), centred on (x, y)."""
    return Group((Text(0, 0, text, 9, "bold", ACCENT, "middle"),), dx=x, dy=y, rotate=90)
