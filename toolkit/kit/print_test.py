"""The print test every kit starts with: check scale, colours, thin lines and duplex alignment before
printing a whole kit. Shared by every game: a game says only what it prints (its name, its colours with
their letters, a line of its words) through a `PrintTestSpec`.

Page 1 has a 100 mm ruler, an 80 x 50 mm box, colour swatches, line weights and small text, and two
duplex marks near opposite corners. Page 2 (the back) repeats the marks at the mirrored x position
(paper width - x): after a long-edge duplex print, held to the light, each back mark lies on its front mark.
A one-sided kit (`--simplex`, `--layout fold`) has nothing to line up: its print test is page 1 alone,
without the marks, and says so.
"""

from __future__ import annotations

from dataclasses import dataclass

from toolkit.kit.component import Component
from toolkit.kit.palette import ACCENT, INK, MUTED
from toolkit.render.impose import CROP_STYLE, PAPER_SIZES
from toolkit.render.scene import PT_TO_MM, Circle, Line, Page, Polygon, Rect, Shape, Style, Text, filled
from toolkit.render.textfit import fit_line, fit_text, text_lines

MARGIN = 12.0
RULER_MM = 100
BOX = (80.0, 50.0)
MARK_INSET = 24.0  # duplex marks sit this far in from the two nearest paper edges
MARK_R = 3.0
MARK_ARM = 7.0
MARK_STYLE = Style(stroke=INK, width=0.25)


@dataclass(frozen=True)
class Swatch:
    """One printed colour: its fill, the ink that reads on it, the letter it carries and its name."""

    fill: str
    ink: str
    letter: str
    name: str


@dataclass(frozen=True)
class PrintTestSpec:
    """What a game's print test shows: the rest of the page is the same for every game."""

    game: str  # the printed game name
    paper: str  # a4 or letter
    swatches: tuple[Swatch, ...]  # the colours the kit prints, each with its letter
    colour_note: str  # why a black-and-white print still plays
    sample: str  # a line of the game's words for the small-text samples
    smallest_text: float | None  # pt, measured from the rest of the kit's pages (None: not measured)
    accent: str = ACCENT  # the game's accent colour: the top rule, step numbers and section headings
    one_sided: bool = False  # the kit prints single-sided: one page, no duplex marks (`plan.one_sided`)


def duplex_marks(paper: str) -> list[tuple[str, float, float]]:
    """(name, x, y) of the front marks: one near the bottom-left corner, one near the top-right."""
    width, height = PAPER_SIZES[paper]
    return [("A", MARK_INSET, height - MARK_INSET), ("B", width - MARK_INSET, MARK_INSET)]


def mirrored(paper: str, x: float) -> float:
    """Where a point at x on the front lies on the back after a long-edge flip."""
    return PAPER_SIZES[paper][0] - x


def crosshair(x: float, y: float) -> list[Shape]:
    return [Circle(x, y, MARK_R, MARK_STYLE), Line(x - MARK_ARM, y, x + MARK_ARM, y, MARK_STYLE),
            Line(x, y - MARK_ARM, x, y + MARK_ARM, MARK_STYLE)]


SCALE_MM = 6  # the millimetre scale on the front crosshairs, for reading the back offset


def offset_scale(x: float, y: float) -> list[Shape]:
    """Millimetre ticks along a front crosshair's arms, labelled -5 / +5: right and down are +. Held to a
    light, the back's crosshair centre sits on this scale at the printer's back offset."""
    items: list[Shape] = []
    tick = Style(stroke=INK, width=0.15)
    for mm in range(1, SCALE_MM + 1):
        length = 1.6 if mm == 5 else 0.8
        for sign in (-1, 1):
            items.append(Line(x + sign * mm, y - length / 2, x + sign * mm, y + length / 2, tick))
            items.append(Line(x - length / 2, y + sign * mm, x + length / 2, y + sign * mm, tick))
    items += [Text(x + 5, y + 3.4, "+5", 6, "regular", INK, "middle"), Text(x - 5, y + 3.4, "−5", 6, "regular",
                                                                                INK, "middle"),
              Text(x + 1.4, y + 5.8, "+5", 6, "regular", INK), Text(x + 1.4, y - 4.0, "−5", 6, "regular", INK)]
    return items


def ruler(x0: float, y: float) -> list[Shape]:
    """A RULER_MM mm ruler: the top edge at y, ticks every mm (longer at 5 and 10), numbers every 10 mm."""
    items: list[Shape] = [Rect(x0 - 4, y - 2, RULER_MM + 8, 14.5, filled("#f6f4ec", MUTED, 0.2), radius=1.0),
                          Line(x0, y, x0 + RULER_MM, y, Style(stroke=INK, width=0.25))]
    for mm in range(RULER_MM + 1):
        length = 6.0 if mm % 10 == 0 else 4.0 if mm % 5 == 0 else 2.5
        items.append(Line(x0 + mm, y, x0 + mm, y + length, Style(stroke=INK, width=0.15)))
        if mm % 10 == 0:
            items.append(Text(x0 + mm, y + 9.6, str(mm), 7, "regular", INK, "middle"))
    items.append(Text(x0 + RULER_MM + 5.5, y + 9.6, "mm", 6, "regular", MUTED, "start"))
    return items


def _section(x: float, y: float, text: str, accent: str) -> Text:
    return Text(x, y, text, 9.5, "bold", accent)


def _arrow_line(x1: float, y1: float, x2: float, y2: float) -> list[Shape]:
    """A dimension line with arrowheads (horizontal or vertical)."""
    style = Style(stroke=MUTED, width=0.2)
    head = 1.6
    items: list[Shape] = [Line(x1, y1, x2, y2, style)]
    if y1 == y2:
        items += [Polygon(((x1, y1), (x1 + head, y1 - 0.7), (x1 + head, y1 + 0.7)), filled(MUTED)),
                  Polygon(((x2, y2), (x2 - head, y2 - 0.7), (x2 - head, y2 + 0.7)), filled(MUTED))]
    else:
        items += [Polygon(((x1, y1), (x1 - 0.7, y1 + head), (x1 + 0.7, y1 + head)), filled(MUTED)),
                  Polygon(((x2, y2), (x2 - 0.7, y2 - head), (x2 + 0.7, y2 - head)), filled(MUTED))]
    return items


def _steps(items: list[Shape], steps: list[str], x: float, y: float, width: float, accent: str) -> float:
    for number, step in enumerate(steps, start=1):
        fitted = fit_text(step, width - 7, 12, "regular", 9, 6.5)
        items.append(Text(x + 1.0, y + fitted.size * PT_TO_MM * 0.8, f"{number}.", fitted.size, "bold", accent))
        items += text_lines(fitted, x + 6.5, y, "regular", INK)
        y += len(fitted.lines) * fitted.line_height() + 1.5
    return y


def front_page(spec: PrintTestSpec) -> Page:
    """Built once to measure, then again with the spare height shared between the sections."""
    page, bottom = _front(spec, 0.0)
    spare = duplex_marks(spec.paper)[0][2] - 14.0 - bottom
    return _front(spec, max(0.0, min(12.0, spare / 4)))[0] if spare > 0 else page


def _front(spec: PrintTestSpec, gap: float) -> tuple[Page, float]:
    width, height = PAPER_SIZES[spec.paper]
    inner = width - 2 * MARGIN
    beside_mark = 0.0 if spec.one_sided else 2 * MARK_ARM + 8  # mark B sits top right on a duplex test
    items: list[Shape] = [Rect(MARGIN, MARGIN, inner - beside_mark, 1.2, filled(spec.accent))]
    items.append(Text(MARGIN, MARGIN + 10.5, "Print test", 17, "bold", INK))
    which = "" if spec.one_sided else "page 1 of 2 (front)  ·  "
    sub = fit_line(f"{spec.game}  ·  {which}{spec.paper.upper()} paper", inner - beside_mark - 2, "regular", 9, 6)
    items.append(Text(MARGIN, MARGIN + 16.5, sub.lines[0], sub.size, "regular", MUTED))
    scale = (f"Measure the ruler: 0 to {RULER_MM} must be exactly {RULER_MM} mm, and the box {BOX[0]:g} x "
             f"{BOX[1]:g} mm. If not, fix the print scale before printing the kit, or cards, tokens and the board "
             "come out the wrong size.")
    at_size = "at 100% (\"Actual size\"; turn off \"Fit to page\" and \"Shrink to fit\")."
    steps = ([f"Print this page {at_size}", scale,
              "This kit prints single-sided (no backs to line up with their fronts), so there is no duplex "
              "check: check the colours and the smallest text below."] if spec.one_sided else
             [f"Print both pages of this file {at_size}", scale,
              "Print double-sided, flipping on the long edge, then hold the sheet up to a light: the back's "
              "crosshairs A and B must lie on the ones on this side (see the notes at the bottom)."])
    y = _steps(items, steps, MARGIN, MARGIN + 22.0, inner, spec.accent)

    # Scale: ruler and box.
    y += 6.0 + gap
    items.append(_section(MARGIN, y, "Scale", spec.accent))
    x0 = (width - RULER_MM) / 2
    y += 6.0
    items += ruler(x0, y)
    y += 22.0
    bx = (width - BOX[0]) / 2
    items.append(Rect(bx, y, BOX[0], BOX[1], Style(fill="#ffffff", stroke=INK, width=0.3)))
    items.append(Text(width / 2, y + BOX[1] / 2 + 1.5, f"{BOX[0]:g} × {BOX[1]:g} mm", 12, "bold", INK, "middle"))
    items.append(Text(width / 2, y + BOX[1] / 2 + 7.0, "measure the outside of the line", 7, "regular", MUTED,
                      "middle"))
    items += _arrow_line(bx, y - 3.0, bx + BOX[0], y - 3.0)
    items.append(Text(width / 2, y - 4.2, f"{BOX[0]:g} mm", 7, "regular", MUTED, "middle"))
    items += _arrow_line(bx + BOX[0] + 3.0, y, bx + BOX[0] + 3.0, y + BOX[1])
    items.append(Text(bx + BOX[0] + 4.5, y + BOX[1] / 2 + 1.0, f"{BOX[1]:g} mm", 7, "regular", MUTED))
    y += BOX[1] + 11.0

    # Colours: every colour the kit prints, with its letter and name.
    y += gap
    items.append(_section(MARGIN, y, "Colours", spec.accent))
    note = fit_line(spec.colour_note, inner - 30, "regular", 7.5, 5.5)
    items.append(Text(width - MARGIN, y, note.lines[0], note.size, "regular", MUTED, "end"))
    y += 3.5
    slot = inner / len(spec.swatches)
    for index, swatch in enumerate(spec.swatches):
        sx = MARGIN + index * slot
        items.append(Rect(sx + 1, y, slot - 2, 12.0, filled(swatch.fill, INK, 0.2), radius=1.0))
        items.append(Text(sx + slot / 2, y + 8.3, swatch.letter, 13, "bold", swatch.ink, "middle"))
        label = fit_line(swatch.name, slot - 2, "condensed", 7, 5)
        items.append(Text(sx + slot / 2, y + 16.0, label.lines[0], label.size, "condensed", INK, "middle"))
    y += 25.0

    # Fine lines and small text.
    y += gap
    items.append(_section(MARGIN, y, "Fine lines and small text", spec.accent))
    y += 5.0
    weights = [(CROP_STYLE.width, "crop marks"), (0.25, ""), (0.35, ""), (0.5, "")]
    for index, (weight, what) in enumerate(weights):
        ly = y + 1.5 + index * 4.2
        items.append(Line(MARGIN, ly, MARGIN + 45, ly, Style(stroke=INK, width=weight)))
        items.append(Text(MARGIN + 48, ly + 1.0, f"{weight:g} mm" + (f"  ({what})" if what else ""), 7,
                          "regular", INK))
    tx = width / 2 + 5
    smallest = spec.smallest_text
    sizes = sorted({round(smallest, 1), 6.5, 7, 8}) if smallest else [5, 6, 7, 8]
    for index, size in enumerate(sizes[:4]):
        sample = fit_line(f"{size:g} pt: {spec.sample}", width - MARGIN - tx,
                          "regular", size, size)
        items.append(Text(tx, y + 2.5 + index * 4.2, sample.lines[0], size, "regular", INK))
    said = (f"The smallest text in this kit is {smallest:.1f} pt (measured from its pages): it should still be "
            "readable." if smallest else "Check that the small text is still readable.")
    note = fit_text(said, width / 2 - 5 - MARGIN, 6.0, "regular", 6.5, 6.5)
    items += text_lines(note, tx, y + 2.5 + 4 * 4.2 - 2.0, "regular", MUTED)
    bottom = y + 2.5 + 4 * 4.2 + 0.5
    if spec.one_sided:
        return Page(width, height, items, label="print test", side="single"), bottom

    # Duplex marks.
    for name, mx, my in duplex_marks(spec.paper):
        items += crosshair(mx, my)
        items += offset_scale(mx, my)
        items.append(Text(mx, my + MARK_ARM + 3.6, f"{name} front", 7, "bold", INK, "middle"))
    ax, ay = duplex_marks(spec.paper)[0][1:]
    box_x = ax + MARK_ARM + 8
    text = ("Duplex check and back offset: with page 2 printed on the back (flip on long edge), hold the sheet "
            "to a light, this side towards you. Read where the centre of the back's crosshair A sits on the "
            "millimetre scale of A: across (right is +) and down (down is +). Build the kit with "
            "--back-offset ACROSS,DOWN (say --back-offset 1.5,-0.5) and print this test again: A and B then "
            "coincide. Marks at the opposite end mean the printer flipped on the short edge.")
    fitted = fit_text(text, width - MARGIN - box_x, 22, "regular", 7.5, 6.5)
    items += text_lines(fitted, box_x, ay - 9.0, "regular", MUTED)
    return Page(width, height, items, label="print test front", side="front"), bottom


def back_page(spec: PrintTestSpec) -> Page:
    width, height = PAPER_SIZES[spec.paper]
    items: list[Shape] = []
    for name, mx, my in duplex_marks(spec.paper):
        bx = mirrored(spec.paper, mx)
        items += crosshair(bx, my)
        items.append(Text(bx, my - MARK_ARM - 2.2, f"{name} back", 7, "bold", INK, "middle"))
    title_x = MARK_INSET + MARK_ARM + 6  # clear of mark B, which is top-left on this side
    items.append(Text(title_x, MARGIN + 10.5, "Print test: back", 17, "bold", INK))
    sub = fit_line(f"{spec.game}  ·  page 2 of 2  ·  {spec.paper.upper()} paper", width - MARGIN - title_x,
                   "regular", 9, 6)
    items.append(Text(title_x, MARGIN + 16.5, sub.lines[0], sub.size, "regular", MUTED))
    text = ("This side must be printed on the back of page 1, flipping on the long edge. Hold the sheet up to "
            "a light: crosshair A must lie on A, and B on B. If they sit a few millimetres apart, card backs "
            "will be off by the same amount: read the offset on the front's millimetre scale and build the kit "
            "with --back-offset ACROSS,DOWN, which moves every back page to cancel it. If this page's marks "
            "show up at the other end of the sheet, choose \"flip on long edge\" (not short edge).")
    fitted = fit_text(text, width - MARGIN - title_x, 40, "regular", 9, 6.5)
    items += text_lines(fitted, title_x, MARGIN + 24.0, "regular", INK)
    return Page(width, height, items, label="print test back", side="back")


def print_test(spec: PrintTestSpec, name: str = "print-test") -> Component:
    """The two pages (one in a one-sided kit), as the component `name` (its file is `<name>.pdf`)."""
    front = front_page(spec)
    if spec.one_sided:
        return Component(name, f"{spec.game}: print test", pages=[front], pieces=[("print-test", front)])
    back = back_page(spec)
    return Component(name, f"{spec.game}: print test", pages=[front, back],
                     pieces=[("print-test-front", front), ("print-test-back", back)])
