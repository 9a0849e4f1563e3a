"""The balance report: ratings, top and bottom ten, outliers, and a heatmap of every matchup.

Numbers come from `toolkit.figure.analysis.balance`; this module only lays them out. The heatmap is a raster
image (one sharp block per matchup) so that a 500-unit database does not mean 250,000 PDF rectangles. Its
colours run along viridis, whose lightness only ever grows, so a greyscale print still orders the cells; up
to LABELLED_MAX units each cell also carries its percentage, in ink that contrasts with the cell.
"""

from __future__ import annotations

import io
import math

from PIL import Image as PILImage

from toolkit.csvsafe import csv_text
from toolkit.figure.analysis.balance import (
    EFFECT_WEIGHT,
    OUTLIER_SHARE,
    OUTLIER_WIN,
    Balance,
    UnitRating,
    explain_outlier,
)
from toolkit.figure.kit.context import KitContext
from toolkit.kit.component import Component
from toolkit.kit.palette import ACCENT, INK, MUTED, RULE
from toolkit.render.impose import PAPER_SIZES
from toolkit.render.scene import Anchor, Group, Image, Line, Page, Rect, Shape, Style, Text, filled
from toolkit.render.textfit import fit_line, fit_text, text_lines

MARGIN = 14.0
# viridis at nine even steps (R's viridis(9)): perceptually even, colour-blind safe, lightness monotonic
VIRIDIS = ((68, 1, 84), (71, 45, 123), (59, 82, 139), (44, 114, 142), (33, 144, 140), (39, 173, 129),
           (93, 200, 99), (170, 220, 50), (253, 231, 37))
WARNING = "#e66101"  # the outlier mark beside a rating
DARK_INK, LIGHT_INK = "#000000", "#ffffff"  # cell numbers: pure black keeps WCAG AA (4.5:1) on mid teal
MAX_LISTED = 25  # outliers named on the summary page; balance.csv has them all
LABELLED_MAX = 40  # above this many units the heatmap labels every k-th rank instead of every unit


def heat_color(value: float) -> tuple[int, int, int]:
    """0 (the attacker never wins) is pale yellow, 1 (always wins) dark violet: more ink, more wins."""
    position = (1.0 - min(1.0, max(0.0, value))) * (len(VIRIDIS) - 1)
    k = min(int(position), len(VIRIDIS) - 2)
    start, end, t = VIRIDIS[k], VIRIDIS[k + 1], position - k
    return tuple(round(a + (b - a) * t) for a, b in zip(start, end, strict=True))  # type: ignore[return-value]


def luminance(rgb: tuple[int, int, int]) -> float:
    """WCAG relative luminance (0 black .. 1 white): what a greyscale print keeps of a colour."""
    def linear(channel: int) -> float:
        c = channel / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = (linear(c) for c in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def cell_ink(rgb: tuple[int, int, int]) -> str:
    """Black or white, whichever contrasts more with the cell (WCAG contrast ratio)."""
    light = luminance(rgb)
    return DARK_INK if (light + 0.05) / 0.05 >= 1.05 / (light + 0.05) else LIGHT_INK


def _hex(rgb: tuple[int, int, int]) -> str:
    return "#{:02x}{:02x}{:02x}".format(*rgb)


def heatmap_png(result: Balance) -> bytes:
    """Rows attack, columns defend, both in rating order; each matchup a square block of pixels."""
    order = [result.unit_ids.index(uid) for uid in result.ranked_ids()]
    n = max(len(order), 1)
    image = PILImage.new("RGB", (n, n))
    image.putdata([heat_color(result.matrix[i][j].p("attacker_wins")) for i in order for j in order])
    block = max(1, math.ceil(1200 / n))  # enlarge with hard edges: viewers would blur a tiny image
    image = image.resize((n * block, n * block), PILImage.Resampling.NEAREST)
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", optimize=False)
    return buffer.getvalue()


def _pct(value: float) -> str:
    return f"{value * 100:.0f}%"


def _name(ctx: KitContext, unit_id: str) -> str:
    entry = ctx.db.units.get(unit_id)
    return entry.value.name if entry else unit_id


def _table(ctx: KitContext, x: float, y: float, width: float, title: str, ratings: list[UnitRating],
           ranks: list[int]) -> tuple[list[Shape], float]:
    items: list[Shape] = [Text(x, y, title, 9, "bold", ACCENT)]
    y += 4.5
    columns: tuple[tuple[str, float, Anchor], ...] = (
        ("#", 0.0, "start"), (ctx.theme.terms.unit, 7.0, "start"), ("rating", width - 62, "end"),
        ("wins", width - 46, "end"), ("effects", width - 30, "end"), ("KO dealt", width - 15, "end"),
        ("KO taken", width, "end"))
    for label, offset, anchor in columns:
        items.append(Text(x + offset, y, label, 6, "bold", MUTED, anchor))
    y += 1.4
    items.append(Line(x, y, x + width, y, Style(stroke=ACCENT, width=0.3)))
    for rank, rating in zip(ranks, ratings, strict=True):
        y += 4.6
        name = fit_line(f"{_name(ctx, rating.unit_id)} ({rating.unit_id})", width - 75, "regular", 7, 5)
        values = (str(rank), name.lines[0], f"{rating.rating:+.2f}", _pct(rating.win_rating),
                  _pct(rating.effects), _pct(rating.knockouts), _pct(rating.knocked_out))
        for (_, offset, anchor), value in zip(columns, values, strict=True):
            size = name.size if value is name.lines[0] else 7
            items.append(Text(x + offset, y, value, size, "bold" if offset == 0 else "regular", INK, anchor))
        if rating.outlier:
            items.append(Text(x + width + 1.5, y, "!", 7, "bold", WARNING))
        items.append(Line(x, y + 1.3, x + width, y + 1.3, Style(stroke=RULE, width=0.1)))
    return items, y + 6


def _summary_page(ctx: KitContext, result: Balance, width: float, height: float) -> Page:
    page = Page(width, height, label="Balance report")
    inner = width - 2 * MARGIN
    terms = ctx.theme.terms
    page.add(Rect(MARGIN, MARGIN, inner, 1.2, filled(ACCENT)),
             Text(MARGIN, MARGIN + 9, f"Balance report: {terms.game}", 16, "bold", INK),
             Text(MARGIN, MARGIN + 14, f"{len(result.unit_ids)} {terms.units.lower()}, every one attacking "
                  "every other: exact odds from Table 2.1, upgrade bonuses included", 7.5, "regular", MUTED))
    explanation = (
        f"Rating = chance to knock the opponent out + {EFFECT_WEIGHT:g} x chance a Purple effect lands "
        f"- chance of being knocked out, averaged over all battles as attacker and defender (from -1 to +1). "
        f"'wins' follow the matrix only (Table 2.1 treats both roles alike, so a unit wins as often attacking "
        f"as defending): a Blue win is a wash and a Purple win applies an effect, so a unit can win often and "
        f"still rate low. Flagged (!): beats more than {_pct(OUTLIER_SHARE)} of the "
        f"database with over {_pct(OUTLIER_WIN)} odds as attacker.")
    fitted = fit_text(explanation, inner, 16, "regular", 7.5, 6)
    page.add(*text_lines(fitted, MARGIN, MARGIN + 17, "regular", INK))
    y = MARGIN + 20 + len(fitted.lines) * fitted.line_height()
    ranked = list(result.ratings)
    outliers = [r for r in ranked if r.outlier]
    items, y = _table(ctx, MARGIN, y + 4, inner - 4, "Top ten", ranked[:10], list(range(1, min(10, len(ranked)) + 1)))
    page.add(*items)
    bottom = ranked[-10:] if len(ranked) > 10 else []
    if bottom:
        first = len(ranked) - len(bottom) + 1
        items, y = _table(ctx, MARGIN, y + 2, inner - 4, "Bottom ten", bottom, list(range(first, len(ranked) + 1)))
        page.add(*items)
    page.add(Text(MARGIN, y + 4, "Outliers", 9, "bold", ACCENT))
    if not outliers:
        page.add(Text(MARGIN, y + 9, "None: no unit dominates the database.", 7.5, "regular", INK))
    else:
        units = ctx.db.unit_defs()
        lines = [f"{_name(ctx, r.unit_id)} ({r.unit_id}): beats {_pct(r.dominated_share)} of the database with "
                 f"over {_pct(OUTLIER_WIN)} odds; rating {r.rating:+.2f}; {explain_outlier(r, result, units)}"
                 for r in outliers[:MAX_LISTED]]
        if len(outliers) > MAX_LISTED:
            lines.append(f"... and {len(outliers) - MAX_LISTED} more: see the 'outlier' column of balance.csv")
        fitted = fit_text("\n".join(lines), inner, height - MARGIN - (y + 6), "regular", 7.5, 5)
        page.add(*text_lines(fitted, MARGIN, y + 6, "regular", INK))
    return page


def _cell_numbers(result: Balance, ranked: list[str], left: float, top: float, cell: float) -> list[Shape]:
    """Each matchup's percentage, whole numbers without the % sign so that "100" fits a 40-unit cell."""
    font = min(6.0, cell * 2.83465 * 0.8 / 1.95)  # "100" is 1.9 em wide in DejaVu Sans; leave a fifth spare
    items: list[Shape] = []
    for row, attacker in enumerate(ranked):
        i = result.unit_ids.index(attacker)
        for column, defender in enumerate(ranked):
            value = result.matrix[i][result.unit_ids.index(defender)].p("attacker_wins")
            items.append(Text(left + (column + 0.5) * cell, top + (row + 0.5) * cell + font * 0.125,
                              f"{value * 100:.0f}", font, "regular", cell_ink(heat_color(value)), "middle"))
    return items


def _heatmap_page(result: Balance, width: float, height: float) -> Page:
    page = Page(width, height, label="Balance heatmap")
    n = len(result.unit_ids)
    page.add(Text(MARGIN, MARGIN + 6, "Who beats whom", 14, "bold", INK),
             Text(MARGIN, MARGIN + 11, "Each cell: the chance (%) the row's unit wins attacking the column's "
                  "unit (darker: more). Rows and columns in rating order, best first.", 7.5, "regular", MUTED))
    label_room = 26.0 if n <= LABELLED_MAX else 8.0
    size = min(width - 2 * MARGIN - label_room, height - MARGIN * 2 - 40 - label_room)
    left, top = MARGIN + label_room, MARGIN + 16 + label_room
    page.add(Image(left, top, size, size, heatmap_png(result)),
             Rect(left, top, size, size, Style(stroke=INK, width=0.2)))
    ranked = result.ranked_ids()
    cell = size / max(n, 1)
    if n <= LABELLED_MAX:
        page.add(*_cell_numbers(result, ranked, left, top, cell))
        font = min(6.0, cell / 0.42)
        for k, uid in enumerate(ranked):
            centre = top + (k + 0.5) * cell + font * 0.15
            page.add(Text(left - 1, centre, uid, font, "regular", INK, "end"))
            page.add(Group((Text(0, 0, uid, font, "regular", INK, "start"),),
                           dx=left + (k + 0.5) * cell + font * 0.15, dy=top - 1, rotate=-90))
    else:
        step = 50 if n > 200 else 10
        for rank in range(0, n, step):
            page.add(Text(left - 1, top + (rank + 0.5) * cell + 1, str(rank + 1), 5.5, "regular", MUTED, "end"),
                     Text(left + (rank + 0.5) * cell, top - 1.5, str(rank + 1), 5.5, "regular", MUTED, "middle"))
        page.add(Text(left, top + size + 4, "Axis numbers are ranks; balance.csv lists every unit by rank.",
                      6.5, "regular", MUTED))
    # legend
    legend_y = top + size + 9
    bar_w = min(100.0, size)
    steps = 50
    for k in range(steps):
        page.add(Rect(left + k * bar_w / steps, legend_y, bar_w / steps + 0.05, 4,
                      filled(_hex(heat_color(k / (steps - 1))))))
    page.add(Rect(left, legend_y, bar_w, 4, Style(stroke=INK, width=0.2)))
    for value in (0, 0.25, 0.5, 0.75, 1.0):
        x = left + value * bar_w
        page.add(Line(x, legend_y + 4, x, legend_y + 5.2, Style(stroke=INK, width=0.2)),
                 Text(x, legend_y + 8, _pct(value), 6.5, "regular", INK, "middle"))
    page.add(Text(left + bar_w + 3, legend_y + 3.3, "attacker's chance to win", 7, "regular", INK))
    return page


def build_balance(ctx: KitContext, result: Balance) -> Component:
    width, height = PAPER_SIZES[ctx.paper]
    component = Component("balance", f"{ctx.theme.terms.game}: balance report")
    component.pages = [_summary_page(ctx, result, width, height), _heatmap_page(result, width, height)]
    component.pieces = [("balance-summary", component.pages[0]), ("balance-heatmap", component.pages[1])]
    return component


KEPT_COLUMNS = ("rank", "id", "name", "mp", "class")  # always written, even when every unit agrees


def ratings_csv(ctx: KitContext, result: Balance) -> str:
    """One row per unit, best first. A column every unit has the same value in (no effects anywhere, no
    outlier), or that repeats an earlier one (the matrix treats both roles alike, so attack_win and
    defend_win equal win_rating), tells a designer nothing and is left out."""
    units = ctx.db.unit_defs()
    header = ["rank", "id", "name", "mp", "class", "rating", "win_rating", "attack_win", "defend_win", "knockouts",
              "knocked_out", "effects", "dominated_share", "outlier", "outlier_why"]
    rows = []
    for rank, r in enumerate(result.ratings, start=1):
        unit = units.get(r.unit_id)
        rows.append([str(rank), r.unit_id, _name(ctx, r.unit_id), str(unit.mp) if unit else "",
                     unit.unit_class.value if unit else "", f"{r.rating:.6f}", f"{r.win_rating:.6f}",
                     f"{r.attack_win:.6f}", f"{r.defend_win:.6f}", f"{r.knockouts:.6f}", f"{r.knocked_out:.6f}",
                     f"{r.effects:.6f}", f"{r.dominated_share:.6f}", str(int(r.outlier)),
                     explain_outlier(r, result, units) if r.outlier else ""])
    columns = [[row[k] for row in rows] for k in range(len(header))]
    keep = [k for k, name in enumerate(header) if name in KEPT_COLUMNS
            or (len(set(columns[k])) > 1 and columns[k] not in columns[:k])]
    return csv_text([[header[k] for k in keep], *([row[k] for k in keep] for row in rows)])


def matchups_csv(result: Balance) -> str:
    names = ("attacker_wins", "defender_wins", "draw", "attacker_deactivated", "defender_deactivated",
             "attacker_effect", "defender_effect")
    rows: list[list[object]] = [["attacker", "defender", *names]]
    for i, attacker in enumerate(result.unit_ids):
        for j, defender in enumerate(result.unit_ids):
            m = result.matrix[i][j]
            rows.append([attacker, defender, *(f"{m.p(name):.6f}" for name in names)])
    return csv_text(rows)
