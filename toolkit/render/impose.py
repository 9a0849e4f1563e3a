"""Imposition: card grids with bleed and crop marks, duplex backs, and tiling of oversized drawings.

Card art is drawn in card-local coordinates: (0, 0) is the top-left trim corner and the art extends
`bleed` mm beyond every trim edge. Sheets are portrait; backs follow their fronts on the next page
with columns mirrored, which is what a long-edge duplex flip needs.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from toolkit.render.scene import Circle, Group, Line, Page, Rect, Shape, Style, Text, reusable

PAPER_SIZES: dict[str, tuple[float, float]] = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
BLEED = 3.0
MARK_GAP = 1.0  # crop marks start this far outside the bleed
MARK_LENGTH = 4.0
CROP_STYLE = Style(stroke="#000000", width=0.15)


@dataclass(frozen=True)
class CardGrid:
    """Where the trim boxes of w x h cards sit on a sheet, with 2 x bleed between neighbours.

    `rotated` cards lie sideways (turned 90 degrees) when that fits more of them on a sheet."""

    paper: tuple[float, float]
    card_w: float
    card_h: float
    bleed: float
    cols: int
    rows: int
    rotated: bool = False

    @property
    def foot_w(self) -> float:
        return self.card_h if self.rotated else self.card_w

    @property
    def foot_h(self) -> float:
        return self.card_w if self.rotated else self.card_h

    @property
    def pitch_x(self) -> float:
        return self.foot_w + 2 * self.bleed

    @property
    def pitch_y(self) -> float:
        return self.foot_h + 2 * self.bleed

    @property
    def origin(self) -> tuple[float, float]:
        """Top-left trim corner of the first card, with the grid centred on the sheet."""
        grid_w = self.cols * self.pitch_x
        grid_h = self.rows * self.pitch_y
        return ((self.paper[0] - grid_w) / 2 + self.bleed, (self.paper[1] - grid_h) / 2 + self.bleed)

    @property
    def per_sheet(self) -> int:
        return self.cols * self.rows

    def slot(self, index: int, back: bool = False) -> tuple[float, float]:
        """Top-left of slot `index`'s trim footprint; on a back page columns are mirrored (long-edge flip)."""
        row, col = divmod(index, self.cols)
        ox, oy = self.origin
        x = ox + col * self.pitch_x
        if back:
            x = self.paper[0] - x - self.foot_w
        return x, oy + row * self.pitch_y

    def placement(self, index: int, back: bool = False) -> tuple[float, float, float]:
        """(dx, dy, rotate) that put card-local (0, 0) at the trim corner. A sideways card's back turns
        the other way, so after the flip its top edge lies under the front's top edge."""
        x, y = self.slot(index, back)
        if not self.rotated:
            return x, y, 0.0
        return (x, y + self.card_w, -90.0) if back else (x + self.card_h, y, 90.0)


SHEET_MARGIN = 4.0  # crop marks stop this far from the paper edge (most home printers need ~4 mm)


def card_grid(paper: str, card_w: float, card_h: float, bleed: float = BLEED) -> CardGrid:
    """The orientation that fits the most cards (upright on a tie)."""
    width, height = PAPER_SIZES[paper]
    room = 2 * (SHEET_MARGIN + MARK_GAP + MARK_LENGTH)
    best: CardGrid | None = None
    for rotated in (False, True):
        foot_w, foot_h = (card_h, card_w) if rotated else (card_w, card_h)
        cols = int((width - room + 1e-6) // (foot_w + 2 * bleed))
        rows = int((height - room + 1e-6) // (foot_h + 2 * bleed))
        if cols >= 1 and rows >= 1 and (best is None or cols * rows > best.per_sheet):
            best = CardGrid((width, height), card_w, card_h, bleed, cols, rows, rotated)
    if best is None:
        raise ValueError(f"a {card_w} x {card_h} mm card does not fit on {paper} paper")
    return best


def crop_marks(grid: CardGrid, count: int, back: bool = False) -> list[Line]:
    """Short lines in the margins, in line with every trim edge, never over the art."""
    used_rows = math.ceil(count / grid.cols)
    used_cols = min(count, grid.cols)
    xs: set[float] = set()
    ys: set[float] = set()
    for index in range(count):
        x, y = grid.slot(index, back)
        xs.update((round(x, 4), round(x + grid.foot_w, 4)))
        ys.update((round(y, 4), round(y + grid.foot_h, 4)))
    _, first_y = grid.slot(0)
    top = first_y - grid.bleed - MARK_GAP
    bottom = first_y + (used_rows - 1) * grid.pitch_y + grid.foot_h + grid.bleed + MARK_GAP
    left = min(grid.slot(i, back)[0] for i in range(used_cols)) - grid.bleed - MARK_GAP
    right = max(grid.slot(i, back)[0] for i in range(used_cols)) + grid.foot_w + grid.bleed + MARK_GAP
    marks = []
    for x in sorted(xs):
        marks.append(Line(x, top, x, top - MARK_LENGTH, CROP_STYLE))
        marks.append(Line(x, bottom, x, bottom + MARK_LENGTH, CROP_STYLE))
    for y in sorted(ys):
        marks.append(Line(left, y, left - MARK_LENGTH, y, CROP_STYLE))
        marks.append(Line(right, y, right + MARK_LENGTH, y, CROP_STYLE))
    return marks


def _card_group(art: Sequence[Shape], grid: CardGrid, slot: int, back: bool) -> Group:
    dx, dy, rotate = grid.placement(slot, back)
    clip = Rect(-grid.bleed, -grid.bleed, grid.card_w + 2 * grid.bleed, grid.card_h + 2 * grid.bleed)
    return Group(tuple(art), dx=dx, dy=dy, rotate=rotate, clip=clip)


def impose_cards(fronts: Sequence[Sequence[Shape]], backs: Sequence[Sequence[Shape]] | None, grid: CardGrid,
                 label: str) -> list[Page]:
    """Front sheet, then (with backs) its back sheet, for every `grid.per_sheet` cards.
    `backs` holds one back per front, or a single back used for every card."""
    pages: list[Page] = []
    width, height = grid.paper
    if backs and len(backs) == 1:
        backs = [[reusable(backs[0])]]  # one back for every card: stored once in the PDF
    for sheet, start in enumerate(range(0, len(fronts), grid.per_sheet), start=1):
        chunk = list(range(start, min(start + grid.per_sheet, len(fronts))))
        front = Page(width, height, label=f"{label} {sheet} front")
        for slot, index in enumerate(chunk):
            front.add(_card_group(fronts[index], grid, slot, back=False))
        front.add(*crop_marks(grid, len(chunk)))
        pages.append(front)
        if backs:
            back = Page(width, height, label=f"{label} {sheet} back")
            for slot, index in enumerate(chunk):
                art = backs[index] if len(backs) > 1 else backs[0]
                back.add(_card_group(art, grid, slot, back=True))
            back.add(*crop_marks(grid, len(chunk), back=True))
            pages.append(back)
    return pages


TILE_OVERLAP = 15.0
FOOTER_FROM_EDGE = 4.3  # baseline of a tile's caption: inside the margin band, clear of the printer's edge
_MARK = Style(stroke="#000000", width=0.2)


def _alignment_mark(x: float, y: float) -> list[Line | Circle]:
    return [Circle(x, y, 2.5, _MARK), Line(x - 4, y, x + 4, y, _MARK), Line(x, y - 4, x, y + 4, _MARK)]


def tile(items: Sequence[Shape], content_w: float, content_h: float, paper: str, label: str,
         margin: float = SHEET_MARGIN) -> list[Page]:
    """One page when the drawing fits the printable area; otherwise tiles that overlap by TILE_OVERLAP mm,
    each with alignment marks at the overlap corners and a 'row-column' label."""
    width, height = PAPER_SIZES[paper]
    area_w, area_h = width - 2 * margin, height - 2 * margin
    if content_w <= area_w and content_h <= area_h:
        page = Page(width, height, label=label)
        page.add(Group(tuple(items), dx=(width - content_w) / 2, dy=(height - content_h) / 2))
        return [page]
    step_w, step_h = area_w - TILE_OVERLAP, area_h - TILE_OVERLAP
    cols = max(1, math.ceil((content_w - TILE_OVERLAP) / step_w))
    rows = max(1, math.ceil((content_h - TILE_OVERLAP) / step_h))
    # centre the drawing within the tiled area
    off_x = (cols * step_w + TILE_OVERLAP - content_w) / 2
    off_y = (rows * step_h + TILE_OVERLAP - content_h) / 2
    pages = []
    for row in range(rows):
        for col in range(cols):
            page = Page(width, height, label=f"{label} tile {row + 1}-{col + 1}")
            dx = margin + off_x - col * step_w
            dy = margin + off_y - row * step_h
            page.add(Group(tuple(items), dx=dx, dy=dy, clip=Rect(margin - dx, margin - dy, area_w, area_h)))
            page.add(Rect(margin, margin, area_w, area_h, Style(stroke="#999999", width=0.1, dash=(1, 1))))
            if col < cols - 1:
                page.add(*_overlap_marks(margin + area_w - TILE_OVERLAP / 2, margin, area_h, vertical=True))
            if row < rows - 1:
                page.add(*_overlap_marks(margin + area_h - TILE_OVERLAP / 2, margin, area_w, vertical=False))
            if col > 0:
                page.add(*_overlap_marks(margin + TILE_OVERLAP / 2, margin, area_h, vertical=True))
            if row > 0:
                page.add(*_overlap_marks(margin + TILE_OVERLAP / 2, margin, area_w, vertical=False))
            page.add(Text(width / 2, height - FOOTER_FROM_EDGE, f"{label}: tile row {row + 1} of {rows}, "
                          f"column {col + 1} of {cols}; overlap the marked {TILE_OVERLAP:g} mm strips so the "
                          "circles meet", 5, anchor="middle"))
            pages.append(page)
    return pages


def _overlap_marks(centre: float, start: float, length: float, vertical: bool) -> list[Line | Circle]:
    """Alignment marks along the middle of an overlap strip, at a quarter and three quarters along."""
    marks: list[Line | Circle] = []
    for fraction in (0.25, 0.75):
        along = start + length * fraction
        marks += _alignment_mark(centre, along) if vertical else _alignment_mark(along, centre)
    return marks
