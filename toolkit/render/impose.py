"""Imposition: card grids with bleed and crop marks, duplex backs, and tiling of oversized drawings.

Card art is drawn in card-local coordinates: (0, 0) is the top-left trim corner and the art extends
`bleed` mm beyond every trim edge. Sheets are portrait; backs follow their fronts on the next page
with columns mirrored, which is what a long-edge duplex flip needs. Nothing is printed closer than
SHEET_MARGIN to the paper edge (most home printers cannot print the outer 4-6.35 mm).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from toolkit.render.scene import PT_TO_MM, Circle, Group, Line, Page, Rect, Shape, Style, Text, reusable
from toolkit.render.textfit import fit_text, text_lines

PAPER_SIZES: dict[str, tuple[float, float]] = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
LARGE_PAPER_SIZES: dict[str, tuple[float, float]] = {"a3": (297.0, 420.0), "tabloid": (279.4, 431.8)}  # the board
BLEED = 3.0
SAFE_ZONE = 3.0  # card frames and text stay at least this far inside the trim (the print trade's safe zone)
MARK_GAP = 0.5  # crop marks start this far outside the bleed
MARK_LENGTH = 3.0
CROP_STYLE = Style(stroke="#000000", width=0.15)
SHEET_MARGIN = 6.0  # nothing is printed closer to the paper edge: clear of every home printer's dead zone
GUIDE_TRIM = Style(stroke="#e0218a", width=0.12)
GUIDE_BLEED = Style(stroke="#00a0e0", width=0.12, dash=(1.0, 0.7))
GUIDE_SAFE = Style(stroke="#1a9e3a", width=0.12, dash=(0.4, 0.5))
GUIDE_MARGIN = Style(stroke="#e0218a", width=0.15, dash=(2.0, 1.0))


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



def card_grid(paper: str, card_w: float, card_h: float, bleed: float = BLEED, count: int | None = None) -> CardGrid:
    """The orientation that fits the most cards (upright on a tie). Knowing the deck's `count`: the one
    that needs the fewest sheets, and between equals the one that leaves no sheet holding a single card
    (7 poker cards on Letter: 4 + 3 upright rather than 6 + 1 turned), then the most cards a sheet."""
    width, height = PAPER_SIZES[paper]
    room = 2 * (SHEET_MARGIN + MARK_GAP + MARK_LENGTH)
    grids: list[CardGrid] = []
    for rotated in (False, True):
        foot_w, foot_h = (card_h, card_w) if rotated else (card_w, card_h)
        cols = int((width - room + 1e-6) // (foot_w + 2 * bleed))
        rows = int((height - room + 1e-6) // (foot_h + 2 * bleed))
        if cols >= 1 and rows >= 1:
            grids.append(CardGrid((width, height), card_w, card_h, bleed, cols, rows, rotated))
    if not grids:
        raise ValueError(f"a {card_w} x {card_h} mm card does not fit on {paper} paper")

    def cost(grid: CardGrid) -> tuple[int, bool, int, bool]:
        sheets = math.ceil(count / grid.per_sheet) if count else 0
        lone = bool(count) and sheets > 1 and count % grid.per_sheet == 1  # type: ignore[operator]
        return sheets, lone, -grid.per_sheet, grid.rotated

    return min(grids, key=cost)


@lru_cache(maxsize=64)
def crop_marks(grid: CardGrid, count: int, back: bool = False) -> tuple[Line, ...]:
    """Short lines in the margins, in line with every trim edge, never over the art. Remembered: a deck's
    full sheets all have the same marks (the same objects, so a watch hashes them once: `PageCache`)."""
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
    return tuple(marks)


def place_card(art: Sequence[Shape], grid: CardGrid, slot: int, back: bool) -> Group:
    """A card's art at its slot of the sheet (mirrored on a back), clipped to its bleed."""
    dx, dy, rotate = grid.placement(slot, back)
    clip = Rect(-grid.bleed, -grid.bleed, grid.card_w + 2 * grid.bleed, grid.card_h + 2 * grid.bleed)
    return Group(tuple(art), dx=dx, dy=dy, rotate=rotate, clip=clip)


def card_guides(card_w: float, card_h: float, bleed: float = BLEED) -> list[Shape]:
    """Trim (solid), bleed (dashed) and safe zone (dotted) of one card, in card-local coordinates."""
    return [Rect(-bleed, -bleed, card_w + 2 * bleed, card_h + 2 * bleed, GUIDE_BLEED),
            Rect(0, 0, card_w, card_h, GUIDE_TRIM),
            Rect(SAFE_ZONE, SAFE_ZONE, card_w - 2 * SAFE_ZONE, card_h - 2 * SAFE_ZONE, GUIDE_SAFE)]


def sheet_guides(width: float, height: float) -> list[Shape]:
    """The printable area: nothing of the kit lies outside this dashed rectangle."""
    return [Rect(SHEET_MARGIN, SHEET_MARGIN, width - 2 * SHEET_MARGIN, height - 2 * SHEET_MARGIN, GUIDE_MARGIN)]


@lru_cache(maxsize=64)
def _slot_guides(grid: CardGrid, count: int, back: bool) -> tuple[Shape, ...]:
    guides = card_guides(grid.card_w, grid.card_h, grid.bleed)
    placed: list[Shape] = []
    for slot in range(count):
        dx, dy, rotate = grid.placement(slot, back)
        placed.append(Group(tuple(guides), dx=dx, dy=dy, rotate=rotate))
    return tuple(placed)


def one_back(items: Sequence[Shape]) -> tuple[Shape, ...]:
    """The back every card shares, as a form: stored once in the PDF."""
    return (reusable(items),)


def impose_cards(fronts: Sequence[Sequence[Shape]], backs: Sequence[Sequence[Shape]] | None, grid: CardGrid,
                 label: str, place: Callable[[Sequence[Shape], CardGrid, int, bool], Group] = place_card,
                 shared_back: Callable[[Sequence[Shape]], tuple[Shape, ...]] = one_back) -> list[Page]:
    """Front sheet, then (with backs) its back sheet, for every `grid.per_sheet` cards.
    `backs` holds one back per front, or a single back used for every card (made a form by `shared_back`);
    `place` puts a card on its slot (a watch passes ones that remember: `kit.cards.impose_deck`)."""
    pages: list[Page] = []
    width, height = grid.paper
    if backs and len(backs) == 1:
        backs = [shared_back(backs[0])]
    for sheet, start in enumerate(range(0, len(fronts), grid.per_sheet), start=1):
        chunk = list(range(start, min(start + grid.per_sheet, len(fronts))))
        front = Page(width, height, label=f"{label} {sheet}" + (" front" if backs else ""),
                     side="front" if backs else "single", guides=list(_slot_guides(grid, len(chunk), False)))
        for slot, index in enumerate(chunk):
            front.add(place(fronts[index], grid, slot, False))
        front.add(*crop_marks(grid, len(chunk)))
        pages.append(front)
        if backs:
            back = Page(width, height, label=f"{label} {sheet} back", side="back",
                        guides=list(_slot_guides(grid, len(chunk), True)))
            for slot, index in enumerate(chunk):
                art = backs[index] if len(backs) > 1 else backs[0]
                back.add(place(art, grid, slot, True))
            back.add(*crop_marks(grid, len(chunk), back=True))
            pages.append(back)
    return pages


FOLD_STYLE = Style(stroke="#333333", width=0.3, dash=(2.0, 1.2))
FOLD_HALO = Style(stroke="#ffffff", width=0.7)  # under the dashes: the fold shows on dark backs too


def fold_line(x: float, top: float, bottom: float) -> list[Shape]:
    """The vertical dashed line to fold on, over a white halo (cards and glue-and-fold tokens)."""
    return [Line(x, top, x, bottom, FOLD_HALO), Line(x, top, x, bottom, FOLD_STYLE)]


def fold_pairs(fronts: Sequence[Sequence[Shape]], backs: Sequence[Sequence[Shape]], card_w: float,
               card_h: float, bleed: float = BLEED) -> list[list[Shape]]:
    """Each card's front and back side by side as one 2w x h piece, joined along a dashed fold line.
    Folded along it (back behind front) and glued, the back lies exactly behind the front: a fold keeps
    left and right as printed, so nothing is mirrored. Each half is clipped at the fold."""
    pairs: list[list[Shape]] = []
    for index, art in enumerate(fronts):
        back = backs[index] if len(backs) > 1 else backs[0]
        front_half = Group(tuple(art), clip=Rect(-bleed, -bleed, card_w + bleed, card_h + 2 * bleed))
        back_half = Group(tuple(back), dx=card_w, clip=Rect(0, -bleed, card_w + bleed, card_h + 2 * bleed))
        pairs.append([front_half, back_half, *fold_line(card_w, -bleed, card_h + bleed)])
    return pairs


TILE_OVERLAP = 15.0  # the glue strip: this much of one sheet lies under the next
SEAM_CLEARANCE = 2.0  # a seam keeps this far from anything that must stay whole (a goal circle)
_MARK = Style(stroke="#000000", width=0.2)
_CUT = Style(stroke="#000000", width=0.3, dash=(2.5, 1.5))
_GLUE = Style(fill="#ececec", stroke="#9a9a9a", width=0.2)
NOTE_SIZE = 7.0
TILE_MARGIN = SHEET_MARGIN + 0.5  # tiles are clipped here: the clip edge and the cut line's stroke stay clear


@dataclass(frozen=True)
class Box:
    """A rectangle in the drawing's coordinates (x, y: top-left)."""

    x: float
    y: float
    w: float
    h: float


def _tile_count(content: float, area: float) -> int:
    return max(1, math.ceil((content - TILE_OVERLAP) / (area - TILE_OVERLAP)))


def seam_positions(content: float, area: float, keep_whole: Sequence[tuple[float, float]]) -> list[float]:
    """Where each sheet after the first starts along one axis (the visible seams), in drawing coordinates.

    Sheet i covers [start_i, start_i + area]; the next one starts at least TILE_OVERLAP before that ends
    (the glue strip). Within that freedom each seam moves to the spot nearest the even split whose line
    keeps SEAM_CLEARANCE from every span in `keep_whole` (goal circles are not cut in two)."""
    count = _tile_count(content, area)
    step = area - TILE_OVERLAP
    starts: list[float] = []
    previous = 0.0
    for index in range(1, count):
        low = max(previous + 1.0, content - area - (count - 1 - index) * step)
        high = previous + step
        ideal = min(high, max(low, index * content / count))
        best, best_cost = ideal, math.inf
        candidate = low
        while candidate <= high + 1e-9:
            blocked = any(a - SEAM_CLEARANCE < candidate < b + SEAM_CLEARANCE for a, b in keep_whole)
            cost = abs(candidate - ideal) + (1000.0 if blocked else 0.0)
            if cost < best_cost - 1e-9:
                best, best_cost = candidate, cost
            candidate += 0.5
        starts.append(round(best, 3))
        previous = best
    return starts


def tile(items: Sequence[Shape], content_w: float, content_h: float, paper: str | tuple[float, float], label: str,
         keep_whole: Sequence[Box] = (), note_spots: Sequence[Box] = (), margin: float = TILE_MARGIN) -> list[Page]:
    """One page when the drawing fits the printable area; otherwise sheets whose seams avoid the
    `keep_whole` boxes. Each sheet that goes under its neighbour carries a shaded glue strip; the sheet
    on top has a dashed cut line where its edge must meet the solid line on the sheet below, with
    half-circle marks across the seam that close into circles when the sheets line up. Every sheet
    carries its assembly note inside the printable area: in one of the `note_spots` (empty parts of the
    drawing) that it shows whole, else in a band kept free at the bottom of the sheet."""
    width, height = PAPER_SIZES[paper] if isinstance(paper, str) else paper
    area_w, area_h = width - 2 * margin, height - 2 * margin
    if content_w <= area_w and content_h <= area_h:
        page = Page(width, height, label=label)
        page.add(Group(tuple(items), dx=(width - content_w) / 2, dy=(height - content_h) / 2))
        return [page]
    band = 0.0 if note_spots else 3 * NOTE_SIZE * PT_TO_MM * 1.25 + 2.0
    xs = [0.0, *seam_positions(content_w, area_w, [(b.x, b.x + b.w) for b in keep_whole])]
    ys = [0.0, *seam_positions(content_h, area_h - band, [(b.y, b.y + b.h) for b in keep_whole])]
    cols, rows = len(xs), len(ys)
    # centred along an axis that needs one sheet; tiled from the first sheet's edge otherwise
    spare_x = (area_w - content_w) / 2 if cols == 1 else 0.0
    spare_y = (area_h - band - content_h) / 2 if rows == 1 else 0.0
    pages = []
    for row in range(rows):
        for col in range(cols):
            number = row * cols + col + 1
            page = Page(width, height, label=f"{label} sheet {number} of {rows * cols}")
            left = xs[col] - (spare_x if col == 0 else 0.0)
            top = ys[row] - (spare_y if row == 0 else 0.0)
            dx, dy = margin - left, margin - top
            view = Box(left, top, area_w, area_h - band)
            right_seam = xs[col + 1] if col + 1 < cols else None
            below_seam = ys[row + 1] if row + 1 < rows else None
            # the drawing up to the seams; beyond them lies the glue strip, then paper the next sheet covers
            shown_w = (right_seam if right_seam is not None else left + area_w) - left
            shown_h = (below_seam if below_seam is not None else top + area_h - band) - top
            page.add(Group(tuple(items), dx=dx, dy=dy, clip=Rect(left, top, shown_w, shown_h)))
            if right_seam is not None:  # this sheet goes under the next one: glue strip and the line to meet
                page.add(*_glue_strip(right_seam + dx, margin, TILE_OVERLAP, area_h - band, vertical=True))
            if below_seam is not None:
                page.add(*_glue_strip(margin, below_seam + dy, area_w, TILE_OVERLAP, vertical=False))
            if col > 0:
                page.add(*_cut_line(xs[col] + dx, margin, area_h - band, vertical=True))
            if row > 0:
                page.add(*_cut_line(margin, ys[row] + dy, area_w, vertical=False))
            note = _tile_note(label, number, rows * cols, cols, row, col)
            spot = next((b for b in note_spots if _inside(b, view, xs, ys, row, col)), None)
            if spot is not None:
                page.add(*_note_in(note, spot.x + dx, spot.y + dy, spot.w, spot.h))
            else:
                page.add(*_note_in(note, margin, height - margin - band + 1.0, area_w, band - 1.0))
            pages.append(page)
    return pages


def _inside(spot: Box, view: Box, xs: Sequence[float], ys: Sequence[float], row: int, col: int) -> bool:
    """Whether a note spot shows whole on this sheet, clear of its glue strips."""
    right = xs[col + 1] if col + 1 < len(xs) else view.x + view.w
    bottom = ys[row + 1] if row + 1 < len(ys) else view.y + view.h
    return (spot.x >= max(view.x, xs[col]) and spot.x + spot.w <= min(view.x + view.w, right)
            and spot.y >= max(view.y, ys[row]) and spot.y + spot.h <= min(view.y + view.h, bottom))


def _tile_note(label: str, number: int, total: int, cols: int, row: int, col: int) -> list[str]:
    lines = [f"{label}: sheet {number} of {total}"]
    if col > 0:
        lines.append(f"Cut along the dashed line on the left; lay this sheet over sheet {number - 1} so its edge "
                     "meets the solid line there and the half circles close. Glue.")
    if row > 0:
        lines.append(f"Cut along the dashed line at the top; lay this sheet over sheet {number - cols} so its edge "
                     "meets the solid line there and the half circles close. Glue.")
    if col == 0 and row == 0:
        lines.append("Start here. Print every sheet at 100%. Shaded strips go under the next sheet: put glue "
                     "there.")
    return lines


def _note_in(lines: Sequence[str], x: float, y: float, w: float, h: float) -> list[Shape]:
    """The assembly note fitted into a box: the first line bold, the rest wrapped under it."""
    items: list[Shape] = []
    head = fit_text(lines[0], w, h, "bold", NOTE_SIZE + 1, 6.5)
    items += text_lines(head, x, y, "bold")
    used = len(head.lines) * head.line_height() + 1.0
    body = fit_text(" ".join(lines[1:]), w, max(1.0, h - used), "regular", NOTE_SIZE, 6.5)
    items += text_lines(body, x, y + used, "regular")
    return items


def _glue_strip(x: float, y: float, w: float, h: float, vertical: bool) -> list[Shape]:
    """The strip that goes under the next sheet: shaded, labelled, with the line its edge must meet."""
    items: list[Shape] = [Rect(x, y, w, h, _GLUE), Line(x, y, x, y + h, _MARK) if vertical else Line(x, y, x + w, y,
                                                                                                      _MARK)]
    length = h if vertical else w
    for fraction in (0.25, 0.75):
        cx, cy = (x, y + length * fraction) if vertical else (x + length * fraction, y)
        items.append(Circle(cx, cy, 3.0, _MARK))
    word = "GLUE  ·  under the next sheet"
    for fraction in (0.5,):
        cx, cy = (x + w / 2, y + length * fraction) if vertical else (x + length * fraction, y + h / 2)
        items.append(Group((Text(0, 1.0, word, 7, "bold", "#555555", "middle"),), dx=cx, dy=cy,
                           rotate=90.0 if vertical else 0.0))
    return items


def _cut_line(x: float, y: float, length: float, vertical: bool) -> list[Shape]:
    """Where the sheet on top is cut, with the halves of the alignment circles beyond it."""
    items: list[Shape] = [Line(x, y, x, y + length, _CUT) if vertical else Line(x, y, x + length, y, _CUT)]
    for fraction in (0.25, 0.75):
        cx, cy = (x, y + length * fraction) if vertical else (x + length * fraction, y)
        items.append(Group((Circle(cx, cy, 3.0, _MARK),),
                           clip=Rect(cx, cy - 4, 4, 8) if vertical else Rect(cx - 4, cy, 8, 4)))
    return items
