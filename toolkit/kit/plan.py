"""The print plan of kit.pdf: every sheet in print order, a "how to print" page computed from that list,
and blank pages so the whole file prints double-sided in one go.

Printed double-sided, page 2k-1 and page 2k share a sheet. So every sheet of the kit takes exactly two
pages: a front on an odd page, then its back, or a blank page when it is one-sided. Consecutive "flow"
pages (a manual) fill both sides of their sheets in order. With `--simplex` (and with `--layout fold`, whose
backs are printed beside their fronts) there are no backs and no blanks: every page is a one-sided sheet.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from toolkit.errors import DuelkitError
from toolkit.kit.component import Component
from toolkit.kit.options import PrintOptions
from toolkit.kit.palette import ACCENT, INK, MUTED, RULE
from toolkit.render.impose import LARGE_PAPER_SIZES, PAPER_SIZES, sheet_guides
from toolkit.render.scene import PT_TO_MM, Group, Line, Page, Rect, Style, Text, filled
from toolkit.render.textfit import fit_line, fit_text, text_lines

MARGIN = 14.0  # the plan page's own margin (well inside SHEET_MARGIN)
ROW_H = 6.2
TEXT_SIZE = 8.5


class PlanError(DuelkitError):
    """A component's pages do not pair up (a back without its front): a bug in that component."""


@dataclass(frozen=True)
class Sheet:
    """One sheet of paper: its front page and, when it is double-sided, its back page."""

    part: str  # the component's title
    front: Page
    back: Page | None
    flow: bool = False  # both sides carry running pages (a manual), not a registered front and back
    # where the pages come from: the component's place in the kit and each page's index in its pages, so
    # kit.pdf is assembled from the component PDFs rendered once (`toolkit.render.assemble`)
    component: int = 0
    front_at: int = 0
    back_at: int | None = None

    @property
    def duplex(self) -> bool:
        return self.back is not None


def paper_name(page: Page) -> str:
    """'A4', 'Letter', 'A3', 'Tabloid', or the size in mm."""
    short, long = sorted((page.width, page.height))
    for name, (width, height) in {**PAPER_SIZES, **LARGE_PAPER_SIZES}.items():
        if abs(short - width) < 0.5 and abs(long - height) < 0.5:
            return name.upper() if name.startswith("a") else name.capitalize()
    return f"{page.width:g} x {page.height:g} mm"


def flip_edge(page: Page) -> str:
    """Backs are mirrored left to right: on a portrait sheet that is the long-edge flip."""
    return "long edge" if page.height >= page.width else "short edge"


def sheets_of(component: Component, number: int = 0) -> list[Sheet]:
    """The component's pages as sheets; a "front" takes the "back" after it. `number`: the component's
    place in the kit (recorded in each sheet)."""
    result: list[Sheet] = []
    pages = component.pages
    index = 0
    while index < len(pages):
        page = pages[index]
        following = pages[index + 1] if index + 1 < len(pages) else None
        if page.side == "front":
            if following is None or following.side != "back":
                raise PlanError(f"{component.name}: page '{page.label}' is a front without its back")
            result.append(Sheet(component.title, page, following, False, number, index, index + 1))
            index += 2
        elif page.side == "back":
            raise PlanError(f"{component.name}: page '{page.label}' is a back without its front")
        elif page.side == "flow" and following is not None and following.side == "flow":
            result.append(Sheet(component.title, page, following, True, number, index, index + 1))
            index += 2
        else:
            result.append(Sheet(component.title, page, None, page.side == "flow", number, index))
            index += 1
    return result


def prepared(page: Page, options: PrintOptions) -> Page:
    """The page as printed: a back shifted by the measured offset, guides drawn when asked for.

    `back_offset` (dx, dy) is where the back lands, seen from the front, right and down positive. A back
    is mirrored left to right, so moving it dx to its own right moves it dx to the left seen from the
    front: shifting by (+dx, -dy) cancels the printer's drift."""
    items = list(page.items)
    if options.guides:
        items += page.guides
    dx, dy = options.back_offset
    if page.side == "back" and (dx or dy) and not one_sided(options):
        items = [Group(tuple(items), dx=dx, dy=-dy)]
    if options.guides:
        items += sheet_guides(page.width, page.height)
    if items == page.items:
        return page
    return Page(page.width, page.height, items, page.label, page.side, folds=page.folds)


def component_pages(component: Component, options: PrintOptions) -> list[Page]:
    """A component's own PDF: its pages as printed, without backs under --simplex."""
    return [prepared(page, options) for page in component.pages if printed(page, options)]


def printed(page: Page, options: PrintOptions) -> bool:
    """Whether the page is in its component's PDF (and kit.pdf): backs are left out of one-sided kits."""
    return not (one_sided(options) and page.side == "back")


def blank_page(like: Page) -> Page:
    """The empty back of a one-sided sheet, marked so nobody wonders whether something is missing."""
    note = Text(like.width / 2, like.height / 2, "this side is left blank on purpose", 7, "regular", "#aaaaaa",
                "middle")
    return Page(like.width, like.height, [note], label="blank", side="back")


def one_sided(options: PrintOptions) -> bool:
    """Kits meant for one-sided printing: no backs on the backs of sheets, and no blank pages."""
    return options.simplex or options.layout == "fold"


@dataclass(frozen=True)
class PlanRow:
    """Consecutive sheets of one part printed the same way."""

    first: int  # page numbers in kit.pdf, 1-based
    last: int
    part: str
    sheets: int
    how: str
    paper: str


def _how(sheet: Sheet, options: PrintOptions) -> str:
    if sheet.flow and sheet.back is not None:
        return f"double-sided, flip on {flip_edge(sheet.front)} (text pages)"
    if sheet.back is not None:
        return f"double-sided, flip on {flip_edge(sheet.front)}"
    if one_sided(options):
        return "single-sided"
    return "single-sided (its back page is blank)"


PageRef = tuple[int, int]  # (source, page index): source 0 is the plan document, n + 1 is component n's PDF


@dataclass(frozen=True)
class KitLayout:
    """kit.pdf as references into documents each rendered once: the plan document (the "how to print"
    page(s), then one blank page per paper size that needs one) and each component's own PDF."""

    plan: list[Page]  # the plan document's pages: the plan, then the blanks
    pages: list[PageRef]  # every page of kit.pdf, in order


class _Blanks:
    """The blank pages of the plan document: one per paper size, made when first needed."""

    def __init__(self, first: int) -> None:
        self.first = first  # the plan document's index of the first blank
        self.pages: list[Page] = []

    def ref(self, like: Page) -> PageRef:
        for index, page in enumerate(self.pages):
            if (page.width, page.height) == (like.width, like.height):
                return 0, self.first + index
        self.pages.append(blank_page(like))
        return 0, self.first + len(self.pages) - 1


def _layout(sheets: Sequence[Sheet], options: PrintOptions, first_page: int, positions: Sequence[dict[int, int]],
            blanks: _Blanks) -> tuple[list[PageRef], list[PlanRow]]:
    """The kit's pages after the plan (as references), and the plan's rows with their page numbers.
    `positions[n]` maps a page index of component n to its index in that component's PDF."""
    pages: list[PageRef] = []
    rows: list[PlanRow] = []
    for sheet in sheets:
        start = first_page + len(pages)
        source = sheet.component + 1
        pages.append((source, positions[sheet.component][sheet.front_at]))
        if sheet.back is not None and sheet.back_at is not None:
            pages.append((source, positions[sheet.component][sheet.back_at]))
        elif not one_sided(options):
            pages.append(blanks.ref(sheet.front))
        how, paper = _how(sheet, options), paper_name(sheet.front)
        end = first_page + len(pages) - 1
        last = rows[-1] if rows else None
        follows = last is not None and (last.part, last.paper) == (sheet.part, paper) and last.last == start - 1
        if last and follows and last.how == how:
            rows[-1] = PlanRow(last.first, end, last.part, last.sheets + 1, how, paper)
        elif last and follows and sheet.flow and last.how == _how(replace(sheet, back=sheet.front), options):
            # a text part's odd last page: one row for the part, not a second row that reads like another part
            rows[-1] = PlanRow(last.first, end, last.part, last.sheets + 1,
                               last.how.replace("(text pages)", "(last back blank)"), paper)
        else:
            rows.append(PlanRow(start, end, sheet.part, 1, how, paper))
    return pages, rows


def kit_layout(components: Sequence[Component], title: str, options: PrintOptions) -> KitLayout:
    """kit.pdf: the "how to print" plan first, then each sheet as printed, as references to the plan
    document and the component PDFs (`component_pages`), so no page is drawn twice."""
    sheets = [sheet for number, component in enumerate(components) for sheet in sheets_of(component, number)]
    if one_sided(options):
        sheets = [replace(s, back=s.back if s.flow else None, back_at=s.back_at if s.flow else None) for s in sheets]
        sheets = [split for s in sheets for split in _split_flow(s)]
    positions = [_positions(component, options) for component in components]
    like = sheets[0].front if sheets else Page(*PAPER_SIZES["a4"])
    plan_count = 1
    while True:  # the plan's own length moves every page number after it
        padded = plan_count + (plan_count % 2 if not one_sided(options) else 0)
        blanks = _Blanks(plan_count)
        body, rows = _layout(sheets, options, padded + 1, positions, blanks)
        plan = plan_pages(rows, title, options, like, sheets)
        if len(plan) == plan_count:
            break
        plan_count = len(plan)
    head: list[PageRef] = [(0, index) for index in range(len(plan))]
    if not one_sided(options) and len(plan) % 2:
        head.append(blanks.ref(like))
    return KitLayout(plan + blanks.pages, head + body)


def _positions(component: Component, options: PrintOptions) -> dict[int, int]:
    """Each printed page's index in the component's own PDF, by its index in `component.pages`."""
    kept = [index for index, page in enumerate(component.pages) if printed(page, options)]
    return {index: position for position, index in enumerate(kept)}


def _split_flow(sheet: Sheet) -> list[Sheet]:
    if sheet.back is None or sheet.back_at is None:
        return [sheet]
    return [replace(sheet, back=None, back_at=None),
            replace(sheet, front=sheet.back, front_at=sheet.back_at, back=None, back_at=None)]


def _instructions(rows: Sequence[PlanRow], options: PrintOptions, sheets: Sequence[Sheet]) -> list[str]:
    papers = sorted({row.paper for row in rows})
    duplex = any(sheet.duplex and not sheet.flow for sheet in sheets)
    steps = ["Print the print test first, at 100% (\"Actual size\"; turn off \"Fit to page\" and \"Shrink to fit\"), "
             "and check its ruler: every piece of the kit is drawn to size."]  # worded as the print test says it
    if options.layout == "fold":
        steps.append(_fold_step({sheet.front.folds for sheet in sheets}))
    elif options.simplex:
        steps.append("This kit has no backs (built with --simplex): print every page single-sided.")
    else:
        edges = sorted({flip_edge(sheet.front) for sheet in sheets if sheet.duplex})
        edge = " / ".join(edges) or "long edge"
        steps.append(f"With a duplex printer, print the whole file double-sided, flipping on the {edge}: "
                     "each sheet takes two pages, so blank pages are there on purpose and every back lands "
                     "behind its front.")
        if duplex:
            steps.append("Without duplex: print the odd pages, put the stack back into the tray printed side "
                         "down (top edge first), then print the even pages. Or build with --layout fold "
                         "(front and back side by side, fold and glue) or --simplex (no backs).")
    dx, dy = options.back_offset
    if (dx or dy) and not one_sided(options):
        steps.append(f"Backs are shifted by {dx:+g} mm across and {dy:+g} mm down to cancel the drift the print "
                     "test measured (--back-offset).")
    if len(papers) > 1:
        steps.append(f"The kit uses more than one paper size ({', '.join(papers)}): print those pages "
                     "separately, on the paper the table names.")
    return steps


def _fold_step(folds: set[str]) -> str:
    """How to print and make the kit's glue-and-fold pieces, naming only those its pages hold."""
    pieces = " and ".join(kind[:-1] for kind in ("cards", "tokens") if kind in folds)
    step = "Print every page single-sided (built with --layout fold)"
    if not pieces:
        return step + "."
    step += (f": cut each {pieces} out with its back as one piece, fold it on the dashed line, back behind "
             "front, and glue the halves together.")
    if "tokens" in folds:
        step += " Once the glue is dry, cut each token through both layers on the front's thin line."
    return step


def plan_pages(rows: Sequence[PlanRow], title: str, options: PrintOptions, like: Page,
               sheets: Sequence[Sheet]) -> list[Page]:
    """The "how to print" page(s): the instructions, then one table row per run of sheets."""
    width, height = like.width, like.height
    inner = width - 2 * MARGIN
    pages: list[Page] = []
    page = Page(width, height, label="how to print")
    pages.append(page)
    page.add(Rect(MARGIN, MARGIN, inner, 1.2, filled(ACCENT)))
    page.add(Text(MARGIN, MARGIN + 10.5, "How to print this kit", 17, "bold", INK))
    total = sum(row.sheets for row in rows)
    sub = fit_line(f"{title}  ·  {total} sheets after this plan  ·  page numbers as in kit.pdf", inner,
                   "regular", 9, 7)
    page.add(Text(MARGIN, MARGIN + 16.5, sub.lines[0], sub.size, "regular", MUTED))
    y = MARGIN + 22.0
    for number, step in enumerate(_instructions(rows, options, sheets), start=1):
        fitted = fit_text(step, inner - 7, 14, "regular", 9, 7)
        page.add(Text(MARGIN + 1, y + fitted.size * PT_TO_MM * 0.8, f"{number}.", fitted.size, "bold", ACCENT))
        page.add(*text_lines(fitted, MARGIN + 6.5, y, "regular", INK))
        y += len(fitted.lines) * fitted.line_height() + 1.8
    y += 3.0
    columns = (("pages", 0.13), ("part", 0.27), ("sheets", 0.08), ("how", 0.42), ("paper", 0.10))
    for row_index, row in enumerate([None, *rows]):
        if y + ROW_H > height - MARGIN:
            page = Page(width, height, label="how to print")
            pages.append(page)
            y = MARGIN
        x = MARGIN
        if row is None:
            page.add(Rect(MARGIN, y, inner, ROW_H, filled(ACCENT)))
            cells = [name for name, _ in columns]
        else:
            if row_index % 2 == 0:
                page.add(Rect(MARGIN, y, inner, ROW_H, filled("#f1f3f5")))
            span = f"{row.first}" if row.first == row.last else f"{row.first}–{row.last}"
            part = row.part[len(title) + 2:] if row.part.startswith(f"{title}: ") else row.part
            cells = [span, part[:1].upper() + part[1:], str(row.sheets), row.how, row.paper]  # one case for all
        for (_, share), cell in zip(columns, cells, strict=True):
            fitted = fit_line(cell, inner * share - 2.0, "bold" if row is None else "regular", TEXT_SIZE, 6.5)
            page.add(Text(x + 1.2, y + ROW_H / 2 + fitted.size * PT_TO_MM * 0.36, fitted.lines[0], fitted.size,
                          "bold" if row is None else "regular", "#ffffff" if row is None else INK))
            x += inner * share
        y += ROW_H
        page.add(Line(MARGIN, y, MARGIN + inner, y, Style(stroke=RULE, width=0.2)))
    return [prepared(page, options) for page in pages]

