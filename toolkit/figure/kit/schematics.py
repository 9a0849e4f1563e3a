"""Schematic cards: one per unit, with its Data Disk as a 1-96 table and as a drawn wheel.

The ranges, sizes and upgrade values come from the rules code (`ranges`, `with_upgrade`), so the card
can never disagree with the engine. Colours always come with their letter for greyscale printing.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import partial

from toolkit.figure import constants
from toolkit.figure.kit.colors import SEGMENT
from toolkit.figure.kit.context import KitContext, look_key
from toolkit.figure.model import Color, Unit
from toolkit.figure.rules.disk import disk_total, range_label, ranges, with_upgrade
from toolkit.figure.rules.roster import upgrade_stages
from toolkit.kit.art import framed
from toolkit.kit.cards import SAFE, SCHEMATIC, card_back, card_face, card_piece, heading, impose_deck
from toolkit.kit.component import Component
from toolkit.kit.fits import data_spot
from toolkit.kit.memo import Same, laid_out_reporting
from toolkit.kit.palette import ACCENT, INK, MUTED, RULE
from toolkit.render.scene import (
    Anchor,
    Circle,
    Line,
    Rect,
    Reuse,
    Shape,
    Style,
    Text,
    Wedge,
    filled,
    reusable,
)
from toolkit.render.textfit import fit_line, fit_text, text_lines

WIDTH, HEIGHT = SCHEMATIC
INNER = WIDTH - 2 * SAFE
STAR = "★"

# Table columns: (left edge, width) inside the safe area.
COL_RANGE = (SAFE, 10.0)
COL_SWATCH = (SAFE + 10.2, 4.4)
COL_MOVE = (SAFE + 15.4, INNER - 15.4 - 14.5)
COL_SIZE = (SAFE + INNER - 14.5, 5.5)
COL_VALUE = (SAFE + INNER - 9.0, 9.0)
TABLE_TOP = 52.0
ROW_BASE = 4.9  # height of a row without effect text, mm
PT = 25.4 / 72
TABLE_BOTTOM = HEIGHT - SAFE - 5.0
ART_H = 14.0  # the unit's picture, when it has one, at the top of the side panel
ROW_PAD = 0.9


@dataclass(frozen=True)
class UnitFacts:
    """What a card needs to know beyond the unit itself."""

    stage: int
    upgrades_to: str | None  # display name of the next form
    upgrades_from: tuple[str, ...]  # display names of the previous forms


def all_unit_facts(ctx: KitContext) -> dict[str, UnitFacts]:
    """Upgrade facts for every unit, computed in one pass over the upgrade graph."""
    units = ctx.db.unit_defs()
    stages = upgrade_stages(units)
    sources: dict[str, list[str]] = {}
    for other in units.values():
        if other.upgrades_to:
            sources.setdefault(other.upgrades_to, []).append(other.name)
    return {
        uid: UnitFacts(stages[uid], units[unit.upgrades_to].name if unit.upgrades_to in units else None,
                       tuple(sorted(sources.get(uid, []))))
        for uid, unit in units.items()
    }


def _value_text(segment, stage_disk_segment) -> str:
    if segment.color.deals_damage:
        return str(stage_disk_segment.damage)
    if segment.color is Color.PURPLE:
        stars = stage_disk_segment.stars or 0
        return STAR * stars if stars <= 4 else f"{stars}{STAR}"
    return ""


def _wheel(cx: float, cy: float, radius: float, unit: Unit) -> list[Shape]:
    """Wedges proportional to size, clockwise from 12 o'clock, each with its colour letter."""
    items: list[Shape] = []
    total = disk_total(unit.disk) or 1
    start = 0.0
    letters: list[Shape] = []
    outline = Style(stroke=INK, width=0.25)
    for segment in unit.disk:
        extent = 360.0 * segment.size / total
        swatch = SEGMENT[segment.color]
        items.append(Wedge(cx, cy, radius, start, extent, filled(swatch.fill, INK, 0.25)))
        if extent >= 24:
            middle = math.radians(start + extent / 2)
            lx = cx + radius * 0.66 * math.sin(middle)
            ly = cy - radius * 0.66 * math.cos(middle)
            letters.append(Text(lx, ly + 1.3, swatch.letter, 8, "bold", swatch.ink, "middle"))
        start += extent
    items.append(Circle(cx, cy, radius, outline))
    items.append(Circle(cx, cy, radius * 0.16, filled("#ffffff", INK, 0.25)))
    items += letters
    return items


def _header(ctx: KitContext, unit: Unit) -> list[Shape]:
    theme = ctx.theme
    items: list[Shape] = []
    name, overflow = heading(SAFE + 1, SAFE + 6.0, unit.name, INNER - 14, 9.5, 6)
    items.append(name)
    if overflow:
        ctx.fits.cut(data_spot(unit.id, "name"), unit.name)
    class_line = f"{unit.unit_class.value} · {theme.classes[unit.unit_class]}"
    if unit.types:
        class_line += "  ·  " + " / ".join(t.replace("-", " ").title() for t in unit.types)
    fitted = fit_line(class_line, INNER - 14, "regular", 6.5, 4.5)
    items.append(Text(SAFE + 1, SAFE + 10.6, fitted.lines[0], fitted.size, "regular", MUTED))
    # MP badge, top right
    bx, by = WIDTH - SAFE - 5.8, SAFE + 6.3
    items += [Circle(bx, by, 5.2, filled(ACCENT)),
              Text(bx, by + 1.5, str(unit.mp), 12, "bold", "#ffffff", "middle"),
              Text(bx, by + 4.0, theme.terms.mp, 4.2, "bold", "#ffffff", "middle")]
    return items


def _side_panel(ctx: KitContext, unit: Unit, facts: UnitFacts) -> list[Shape]:
    """Subroutine and upgrade information, to the right of the wheel."""
    left, top, width = 37.5, SAFE + 15.0, WIDTH - SAFE - 37.5
    bottom = TABLE_TOP - 3.0
    items: list[Shape] = []
    picture = ctx.db.art.get(("unit", unit.id))
    if picture is not None:  # the unit's art heads the panel; the subroutine moves below it
        items += framed(picture, left, top - 1.5, width, ART_H, ACCENT)
        top += ART_H
    upgrade_lines = []
    if facts.stage:
        upgrade_lines.append(f"Stage {facts.stage}: +{constants.UPGRADE_DAMAGE_BONUS * facts.stage} dmg, "
                             f"+{constants.UPGRADE_STAR_BONUS * facts.stage}{STAR} included")
    if facts.upgrades_from:
        upgrade_lines.append("From " + ", ".join(facts.upgrades_from))
    if facts.upgrades_to:
        upgrade_lines.append(f"Next: {facts.upgrades_to}")
    upgrade_text = "\n".join(upgrade_lines)
    upgrade_height = 0.0
    if upgrade_text:
        room = 11.0 if unit.subroutine is not None else bottom - (top + 10.0)  # no subroutine: use its space
        fitted = fit_text(upgrade_text, width, room, "regular", 6, 4.5)
        upgrade_height = len(fitted.lines) * fitted.line_height() + 1
        items += text_lines(fitted, left, bottom - upgrade_height + 1, "regular", MUTED)
        if fitted.overflow:
            ctx.fits.cut(data_spot(unit.id, "upgrades_to"), upgrade_text)
    box_bottom = bottom - upgrade_height - (1.5 if upgrade_text else 0)
    items.append(Text(left, top + 2.2, ctx.theme.terms.subroutine.upper(), 5.5, "bold", ACCENT))
    if unit.subroutine is None:
        items.append(Text(left, top + 6.5, "None", 7, "regular", MUTED))
        return items
    name, overflow = heading(left, top + 6.6, unit.subroutine.name, width, 7.5, 5)
    items.append(name)
    if overflow:
        ctx.fits.cut(data_spot(unit.id, "subroutine.name"), unit.subroutine.name)
    fitted = fit_text(unit.subroutine.text, width, max(3.0, box_bottom - (top + 8)), "regular", 6.5, 4.5)
    items += text_lines(fitted, left, top + 7.8, "regular", INK)
    if fitted.overflow:
        ctx.fits.cut(data_spot(unit.id, "subroutine.text"), unit.subroutine.text)
    return items


@dataclass(frozen=True)
class _Row:
    range_text: str
    segment_index: int
    move: str
    effect_lines: tuple[str, ...]
    effect_size: float
    value: str
    height: float


MIN_ROW_SCALE = 0.55  # below this a row's text would be unreadable


def _rows(ctx: KitContext, unit: Unit, stage: int) -> tuple[list[_Row], float, int]:
    """Lay out table rows: shrink effect text first; if the rows still do not fit, shrink whole rows and drop
    effect text; if even that fails, list as many rows as fit. Returns (rows, row scale, rows left out)."""
    staged = with_upgrade(unit.disk, stage)
    spans = ranges(unit.disk)
    available = TABLE_BOTTOM - (TABLE_TOP + 5.0)

    def row(index: int, effect_lines: tuple[str, ...], size: float, scale: float) -> _Row:
        low, high = spans[index]
        height = (ROW_BASE + ROW_PAD) * scale + len(effect_lines) * size * PT * 1.18
        return _Row(range_label(low, high), index, unit.disk[index].move, effect_lines, size,
                    _value_text(unit.disk[index], staged[index]), height)

    for effect_size in (6.5, 6.0, 5.5, 5.0, 4.5):
        rows, overflowed = [], []
        for index, segment in enumerate(unit.disk):
            effect_lines: tuple[str, ...] = ()
            effect = ctx.theme.effect_text(segment)
            if effect:
                fitted = fit_text(effect, COL_MOVE[1], 100.0, "regular", effect_size, effect_size)
                effect_lines = fitted.lines
            rows.append(row(index, effect_lines, effect_size, 1.0))
        if sum(r.height for r in rows) <= available + 1e-6:
            return rows, 1.0, 0
    # Too many segments or too much text: effect text goes, rows shrink.
    for index, segment in enumerate(unit.disk):
        if ctx.theme.effect_text(segment):
            overflowed.append(index)
    scale = max(MIN_ROW_SCALE, min(1.0, available / ((ROW_BASE + ROW_PAD) * len(unit.disk))))
    fitting = int((available + 1e-6) // ((ROW_BASE + ROW_PAD) * scale))
    hidden = 0 if fitting >= len(unit.disk) else len(unit.disk) - (fitting - 1)
    shown = len(unit.disk) - hidden
    rows = [row(index, (), 0.0, scale) for index in range(shown)]
    for index in overflowed:
        if index < shown:
            ctx.fits.cut(data_spot(unit.id, f"disk.{index}.effect"), ctx.theme.effect_text(unit.disk[index]) or "")
    if hidden:
        ctx.fits.cut(data_spot(unit.id, "disk"), f"{len(unit.disk)} segments; {hidden} not listed")
    return rows, scale, hidden


def _table(ctx: KitContext, unit: Unit, stage: int) -> list[Shape]:
    items: list[Shape] = []
    y = TABLE_TOP + 5.0
    table_start = y
    rows, scale, hidden = _rows(ctx, unit, stage)
    for row in rows:
        segment = unit.disk[row.segment_index]
        swatch = SEGMENT[segment.color]
        baseline = y + 3.8 * scale
        items.append(Text(COL_RANGE[0], baseline, row.range_text, 7 * scale, "bold", INK))
        items += [Rect(COL_SWATCH[0], y + 0.7 * scale, COL_SWATCH[1], 4.1 * scale, filled(swatch.fill, INK, 0.2),
                       radius=0.6 * scale),
                  Text(COL_SWATCH[0] + COL_SWATCH[1] / 2, baseline, swatch.letter, 7 * scale, "bold", swatch.ink,
                       "middle")]
        move = fit_line(row.move, COL_MOVE[1], "bold", 7.5 * scale, 5 * scale)
        if move.overflow:
            ctx.fits.cut(data_spot(unit.id, f"disk.{row.segment_index}.move"), row.move)
        items.append(Text(COL_MOVE[0], baseline, move.lines[0], move.size, "bold", INK))
        items.append(Text(COL_SIZE[0] + COL_SIZE[1], baseline, str(segment.size), 6.5 * scale, "regular", MUTED,
                          "end"))
        value = fit_line(row.value, COL_VALUE[1], "bold", 8 * scale, 4.5 * scale)
        items.append(Text(COL_VALUE[0] + COL_VALUE[1], baseline, value.lines[0], value.size, "bold", INK, "end"))
        line_height = row.effect_size * PT * 1.18
        for number, line in enumerate(row.effect_lines):
            items.append(Text(COL_MOVE[0], y + ROW_BASE + line_height * (number + 0.8) - 0.4, line, row.effect_size,
                              "regular", INK))
        y += row.height
        items.append(Line(SAFE, y - 0.3 * scale, WIDTH - SAFE, y - 0.3 * scale, Style(stroke=RULE, width=0.15)))
    if hidden:
        items.append(Text(COL_MOVE[0], y + 3.8 * scale, f"… and {hidden} more: see the spinner sheet", 7 * scale,
                          "regular", MUTED))
    elif y <= STRIP_TOP - 2 and y > table_start:
        items += _strip(unit)
    return items


STRIP_TOP = HEIGHT - SAFE - 11.5


def _strip(unit: Unit) -> list[Shape]:
    """The 1-96 line as a bar, so a d10 result can be found at a glance."""
    items: list[Shape] = []
    scale = INNER / constants.DISK_TOTAL
    x = SAFE
    spans = ranges(unit.disk)
    last_label = SAFE
    for segment, (low, _) in zip(unit.disk, spans, strict=True):
        swatch = SEGMENT[segment.color]
        width = segment.size * scale
        items.append(Rect(x, STRIP_TOP, width, 4.2, filled(swatch.fill, INK, 0.2)))
        if width >= 3.2:
            items.append(Text(x + width / 2, STRIP_TOP + 3.1, swatch.letter, 6, "bold", swatch.ink, "middle"))
        if low == 1 or (x - last_label >= 4.0 and SAFE + INNER - x >= 4.0):
            items.append(Text(x, STRIP_TOP + 6.9, str(low), 4.5, "regular", MUTED, "start" if low == 1 else "middle"))
            last_label = x
        x += width
    items.append(Text(SAFE + INNER, STRIP_TOP + 6.9, str(constants.DISK_TOTAL), 4.5, "regular", MUTED, "end"))
    return items


def _frame(ctx: KitContext) -> list[Shape]:
    """What every schematic of a theme shares: the face, rules and the fixed labels."""
    terms = ctx.theme.terms
    items: list[Shape] = card_face(WIDTH, HEIGHT)
    items.append(Line(SAFE, SAFE + 13, WIDTH - SAFE, SAFE + 13, Style(stroke=ACCENT, width=0.4)))
    title = f"{terms.data_disk.upper()}  ·  1–{constants.DISK_TOTAL}"
    items.append(Text(SAFE + 1, TABLE_TOP - 0.8, title, 5.5, "bold", ACCENT))
    header_y = TABLE_TOP + 3.0
    headers: tuple[tuple[tuple[float, float], str, Anchor], ...] = (
        (COL_RANGE, "Range", "start"), (COL_MOVE, "Move", "start"), (COL_SIZE, "Size", "end"),
        (COL_VALUE, "Dmg/" + STAR, "end"))
    for (x, width), label, anchor in headers:
        items.append(Text(x + width if anchor == "end" else x, header_y, label, 5, "bold", MUTED, anchor))
    items.append(Line(SAFE, TABLE_TOP + 4.4, WIDTH - SAFE, TABLE_TOP + 4.4, Style(stroke=ACCENT, width=0.3)))
    return items


def schematic_front(ctx: KitContext, unit: Unit, facts: UnitFacts,
                    frame: Reuse | None = None) -> tuple[Shape, ...]:
    """A unit's card. Laid out once per watch for the same unit, facts, art and theme (`laid_out_reporting`:
    its text cut short is reported again at each rebuild)."""
    frame = frame or reusable(_frame(ctx))
    inputs = (Same(unit), facts, frame.key, ctx.db.art.get(("unit", unit.id)), look_key(ctx), ctx.options)
    return laid_out_reporting("schematic_front", inputs, ctx.fits, partial(_schematic_front, ctx, unit, facts, frame))


def _schematic_front(ctx: KitContext, unit: Unit, facts: UnitFacts, frame: Reuse) -> tuple[Shape, ...]:
    items: list[Shape] = [frame]
    items += _header(ctx, unit)
    items += _wheel(SAFE + 15.5, SAFE + 30.5, 15.0, unit)
    items += _side_panel(ctx, unit, facts)
    items += _table(ctx, unit, facts.stage)
    terms = ctx.theme.terms
    footer = fit_line(f"{terms.schematic} · {terms.game} · {unit.id}", INNER - 4, "regular", 4.5, 3.5)
    items.append(Text(WIDTH / 2, HEIGHT - SAFE - 0.6, footer.lines[0], footer.size, "regular", MUTED, "middle"))
    return tuple(text_on_top(items))


def text_on_top(items: list[Shape]) -> list[Shape]:
    """Shapes first, then all text: text always sits on top of a card's art, and one run of text
    renders much faster than text interleaved with shapes."""
    return [i for i in items if not isinstance(i, Text)] + [i for i in items if isinstance(i, Text)]


def build_schematics(ctx: KitContext) -> Component:
    terms = ctx.theme.terms
    component = Component("schematics", f"{terms.game}: {terms.schematic}s")
    facts = all_unit_facts(ctx)
    frame = reusable(_frame(ctx))
    fronts = [schematic_front(ctx, unit, facts[unit.id], frame) for unit in ctx.units()]
    back = card_back(WIDTH, HEIGHT, terms.game, terms.schematic, ink_saver=ctx.options.ink == "saver",
                     look=ctx.db.back)
    printed = [art for unit, art in zip(ctx.units(), fronts, strict=True) for _ in range(unit.copies)]
    component.pages = impose_deck(printed, [back], WIDTH, HEIGHT, ctx.paper, terms.schematic, ctx.options)
    component.pieces = [(f"schematic-{unit.id}", card_piece(art, WIDTH, HEIGHT, unit.name))
                        for unit, art in zip(ctx.units(), fronts, strict=True)]
    component.pieces.append(("back-schematic", card_piece(back, WIDTH, HEIGHT, f"{terms.schematic} back")))
    component.warnings = ctx.fits.drain()
    return component
