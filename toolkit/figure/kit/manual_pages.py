"""The protocol manual and the quick-reference card as printable pages (the PDF side of the manual).

A small flow layout: blocks go down the page and a new page starts when the next one does not fit.
Tables repeat their header after a page break. Content comes from `toolkit.figure.kit.manual` only.
"""

from __future__ import annotations

from toolkit.figure.kit.context import KitContext
from toolkit.figure.kit.manual import Bullets, Figure, Manual, Para, Section, Table, build_manual
from toolkit.kit.cards import SAFE, card_face
from toolkit.kit.component import Component
from toolkit.kit.palette import ACCENT, INK, MUTED
from toolkit.render.impose import PAPER_SIZES, card_grid, impose_cards
from toolkit.render.scene import PT_TO_MM, Anchor, FontName, Group, Line, Page, Rect, Shape, Style, Text, filled
from toolkit.render.textfit import LEADING, wrap

CELL_FILL = {"att": "#dbe8f7", "def": "#f9e0d0", "draw": "#ececec", "cmp": "#efe6f7", "head": "#f3f3f3"}
QUICK_CARD = (148.0, 210.0)  # A5: sits beside the board
QUICK_TEXT = 6.5  # pt: the smallest text on the quick-reference card
TABLE_PAD = 1.2


class Flow:
    """Lays blocks out top to bottom over as many pages as needed."""

    def __init__(self, width: float, height: float, margin: float, footer: str, size: float = 9.0) -> None:
        self.width, self.height, self.margin, self.footer, self.size = width, height, margin, footer, size
        self.inner = width - 2 * margin
        self.pages: list[Page] = []
        self.page: Page | None = None
        self.y = 0.0

    def line_height(self, size: float) -> float:
        return size * PT_TO_MM * LEADING

    def new_page(self) -> None:
        self.page = Page(self.width, self.height, label=self.footer)
        self.pages.append(self.page)
        self.page.add(Text(self.width / 2, self.height - self.margin / 2, f"{self.footer} · {len(self.pages)}",
                           6.5, "regular", MUTED, "middle"))
        self.y = self.margin

    def room(self, height: float) -> None:
        if self.page is None or self.y + height > self.height - self.margin:
            self.new_page()

    def add(self, *items: Shape) -> None:
        assert self.page is not None
        self.page.add(*items)

    def text(self, text: str, size: float | None = None, font: FontName = "regular", color: str = INK,
             indent: float = 0.0, gap: float = 1.8) -> None:
        size = size or self.size
        for line in wrap(text, self.inner - indent, font, size):
            self.room(self.line_height(size))
            self.y += self.line_height(size)
            self.add(Text(self.margin + indent, self.y - size * PT_TO_MM * 0.25, line, size, font, color))
        self.y += gap

    def heading(self, text: str, size: float = 13.0, keep: float = 14.0) -> None:
        self.room(self.line_height(size) + 6 + keep)  # keep a heading with (the start of) what follows
        self.y += 3
        self.text(text, size, "bold", ACCENT, gap=0.8)
        self.add(Line(self.margin, self.y, self.margin + self.inner, self.y, Style(stroke="#ccccdd", width=0.3)))
        self.y += 2.5

    def bullets(self, block: Bullets, size: float | None = None) -> None:
        size = size or self.size
        for number, item in enumerate(block.items, start=1):
            mark = f"{number}." if block.ordered else "•"
            self.room(self.line_height(size))
            self.add(Text(self.margin + 1, self.y + self.line_height(size) - size * PT_TO_MM * 0.25, mark, size,
                          "bold", ACCENT))
            self.text(item, size, indent=6, gap=0.8)
        self.y += 1.2

    def _widths(self, block: Table) -> list[float]:
        columns = len(block.header)
        if block.widths:
            return [self.inner * share for share in block.widths]
        if block.compact:
            return [self.inner / columns] * columns
        if columns == 2:
            return [self.inner * 0.28, self.inner * 0.72]
        first = self.inner * 0.22
        return [first] + [(self.inner - first) / (columns - 1)] * (columns - 1)

    def _row_height(self, cells, widths, font: FontName, size: float) -> tuple[float, list[list[str]]]:
        lines = [wrap(cell, width - 2 * TABLE_PAD, font, size) for cell, width in zip(cells, widths, strict=True)]
        return max(len(ls) for ls in lines) * self.line_height(size) + 2 * TABLE_PAD, lines

    def table_height(self, block: Table, size: float | None = None) -> float:
        size = (size or self.size) - 1.5
        widths = self._widths(block)
        rows = [list(block.header), *(list(r) for r in block.rows)]
        return sum(self._row_height(row, widths, "bold" if k == 0 else "regular", size)[0]
                   for k, row in enumerate(rows))

    def table(self, block: Table, size: float | None = None) -> None:
        size = (size or self.size) - 1.5
        columns = len(block.header)
        widths = self._widths(block)
        pad = TABLE_PAD

        def row_height(cells, font) -> tuple[float, list[list[str]]]:
            return self._row_height(cells, widths, font, size)

        def draw_row(cells, fills, fonts, inks) -> None:
            height, lines = row_height(cells, fonts[0])
            self.room(height)
            x = self.margin
            for width, cell_lines, fill, font, ink in zip(widths, lines, fills, fonts, inks, strict=True):
                self.add(Rect(x, self.y, width, height, Style(fill=fill, stroke="#bbbbbb", width=0.2)))
                for k, line in enumerate(cell_lines):
                    anchor: Anchor = "middle" if block.compact else "start"
                    tx = x + width / 2 if block.compact else x + pad
                    self.add(Text(tx, self.y + pad + (k + 0.8) * self.line_height(size), line, size, font, ink, anchor))
                x += width
            self.y += height

        header_fills = [ACCENT] * columns
        header = (list(block.header), header_fills, ["bold"] * columns, ["#ffffff"] * columns)
        total = self.table_height(block, size + 1.5)
        if total <= self.height - 2 * self.margin:
            self.room(total)  # keep a table that fits on a page together
        draw_row(*header)
        for index, row in enumerate(block.rows):
            classes = block.classes[index] if block.classes else ("",) * columns
            fills = [CELL_FILL.get(c) for c in classes]
            fonts = ["bold" if (k == 0 and block.row_headers) or c == "cmp" else "regular"
                     for k, c in enumerate(classes)]
            if block.row_headers:
                fills[0] = CELL_FILL["head"]
            height, _ = row_height(list(row), "regular")
            if self.y + height > self.height - self.margin:
                self.new_page()
                draw_row(*header)
            draw_row(list(row), fills, fonts, [INK] * columns)
        self.y += 3

    def figure(self, block: Figure) -> None:
        self.room(block.page.height + 10)
        self.add(Group(tuple(block.page.items), dx=self.margin, dy=self.y))
        self.y += block.page.height + 1
        self.text(block.caption, self.size - 1, color=MUTED)

    def para_height(self, block: Para, size: float | None = None) -> float:
        size = size or self.size
        return len(wrap(block.text, self.inner, "regular", size)) * self.line_height(size) + 1.8

    def section(self, section: Section, heading_size: float = 13.0) -> None:
        """A heading stays with what follows it: a whole table, or an introduction and its table."""
        blocks = list(section.blocks)
        keep = 14.0
        if blocks and isinstance(blocks[0], Table):
            keep = self.table_height(blocks[0])
        elif len(blocks) > 1 and isinstance(blocks[0], Para) and isinstance(blocks[1], Table):
            keep = self.para_height(blocks[0]) + self.table_height(blocks[1])
        self.heading(section.title, heading_size, min(keep, self.height - 2 * self.margin - 20))
        for block in section.blocks:
            if isinstance(block, Para):
                self.text(block.text)
            elif isinstance(block, Bullets):
                self.bullets(block)
            elif isinstance(block, Table):
                self.table(block)
            elif isinstance(block, Figure):
                self.figure(block)


def build_manual_component(ctx: KitContext, manual: Manual) -> Component:
    width, height = PAPER_SIZES[ctx.paper]
    flow = Flow(width, height, 16.0, manual.title)
    flow.new_page()
    flow.add(Rect(flow.margin, flow.margin, flow.inner, 1.5, filled(ACCENT)))
    flow.y += 6
    flow.text(manual.title, 18, "bold", gap=1)
    flow.text(manual.subtitle, 8, color=MUTED, gap=3)
    for section in manual.sections:
        flow.section(section)
    for page in flow.pages:
        page.side = "flow"  # a manual may be printed on both sides of its sheets, in reading order
    component = Component("manual", manual.title, pages=flow.pages)
    component.pieces = [(f"manual-p{k}", page) for k, page in enumerate(flow.pages, start=1)]
    return component


def build_quickref_component(ctx: KitContext, manual: Manual) -> Component:
    """An A5 card with bleed and crop marks, imposed on the chosen paper."""
    card_w, card_h = QUICK_CARD
    flow = Flow(card_w, card_h, SAFE + 3, f"{ctx.theme.terms.game} quick reference", size=7.0)
    flow.new_page()
    flow.pages[0].items.clear()  # a card has no page footer
    flow.text(f"{ctx.theme.terms.game}: quick reference", 12, "bold", ACCENT, gap=1.5)
    for section in manual.quick:
        flow.heading(section.title, 9)
        for block in section.blocks:
            if isinstance(block, Table):
                flow.table(block, size=QUICK_TEXT + 1.5)  # tables are set 1.5 pt under the size given
            elif isinstance(block, Bullets):
                flow.bullets(block, size=QUICK_TEXT + 0.5)
    if len(flow.pages) > 1:
        raise ValueError("the quick reference no longer fits its card")
    art = card_face(card_w, card_h) + list(flow.pages[0].items)
    grid = card_grid(ctx.paper, card_w, card_h)
    component = Component("quick-reference", f"{ctx.theme.terms.game}: quick reference")
    component.pages = impose_cards([art], None, grid, "Quick reference")
    component.pieces = [("quick-reference", Page(card_w, card_h, art))]
    return component


def build_manual_pages(ctx: KitContext) -> Component:
    """The kit's manual: its examples use the kit's squads; the d10 table is on the kit's d10 sheet."""
    return build_manual_component(ctx, _kit_manual(ctx))


def build_quick_reference(ctx: KitContext) -> Component:
    return build_quickref_component(ctx, _kit_manual(ctx))


def _kit_manual(ctx: KitContext) -> Manual:
    """The kit's manual, written once for both the manual and the quick reference of one kit (the quick
    reference's sections do not depend on where the d10 table is)."""
    manual = ctx.shared.get("manual")
    if not isinstance(manual, Manual):
        manual = ctx.shared["manual"] = build_manual(ctx.db, ctx.squads_by_side(), with_d10_table=False)
    return manual
