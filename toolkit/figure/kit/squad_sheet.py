"""Squad sheets: one page per side, saying whose pieces are whose and how the side starts.

Each lists the side's units (name, the code its token shows, class, MP, what it upgrades to, its
subroutine) and its modules (name, what they do in a few words, a box to tick when used), in the side's
team colour and letter, with the two setup facts a player reaches for: every unit starts in the Hangar,
and who goes first (a d10 roll or a coin).
"""

from __future__ import annotations

from toolkit.figure import constants
from toolkit.figure.kit.context import KitContext
from toolkit.figure.kit.manual_teach import first_turn_deploys
from toolkit.figure.kit.module_cards import effect_tag, squad_label
from toolkit.figure.kit.tokens import designation
from toolkit.figure.model import Squad, Unit
from toolkit.kit.component import Component
from toolkit.kit.palette import ACCENT, INK, MUTED, TEAM
from toolkit.players import PLAYERS, Player
from toolkit.render.impose import PAPER_SIZES
from toolkit.render.scene import Line, Page, Rect, Style, Text, filled
from toolkit.render.textfit import fit_line, fit_text, text_lines

MARGIN = 14.0
ROW_H = 9.0
BAND_H = 22.0


def _cell(text: str, x: float, y: float, width: float, size: float = 8.5, font: str = "regular",
          color: str = INK, ctx: KitContext | None = None) -> Text:
    fitted = fit_line(text, width, font, size, 5.5)  # type: ignore[arg-type]
    if fitted.overflow and ctx is not None:
        ctx.fits.note(f"squad sheet: '{text}' does not fit its column and was cut short", "use a shorter name")
    return Text(x, y, fitted.lines[0], fitted.size, font, color)  # type: ignore[arg-type]


def _forms(ctx: KitContext, unit: Unit) -> list[Unit]:
    """The unit's upgrade chain after it (each form once, stopping at a loop)."""
    chain: list[Unit] = []
    seen = {unit.id}
    current = unit
    while current.upgrades_to and current.upgrades_to in ctx.db.units and current.upgrades_to not in seen:
        current = ctx.db.units[current.upgrades_to].value
        seen.add(current.id)
        chain.append(current)
    return chain


def squad_page(ctx: KitContext, side: Player, squad: Squad | None, width: float, height: float) -> Page:
    terms = ctx.theme.terms
    team = TEAM[side]
    saver = ctx.options.ink == "saver"
    inner = width - 2 * MARGIN
    page = Page(width, height, label=f"Squad sheet {side.value}")
    band_fill, band_ink = ("#ffffff", INK) if saver else (team.fill, team.ink)
    page.add(Rect(MARGIN, MARGIN, inner, BAND_H, filled(band_fill, team.fill if saver else None, 1.2), radius=3))
    page.add(Text(MARGIN + 6, MARGIN + 16.5, side.value, 30, "bold", band_ink))
    title = squad_label(squad) if squad is not None else f"no squad for {terms.player} {side.value}"
    page.add(_cell(f"{terms.player} {side.value}", MARGIN + 22, MARGIN + 8, inner - 30, 9, "bold", band_ink))
    page.add(_cell(title, MARGIN + 22, MARGIN + 17, inner - 30, 15, "bold", band_ink, ctx))
    y = MARGIN + BAND_H + 8
    half = constants.D10_PAIR_MAX // 2
    setup = (f"Setup: all {constants.HANGAR_SLOTS} {terms.units.lower()} start in your {terms.hangar}. "
             f"Who goes first: roll two d10: 1-{half} {terms.player} A, {half + 1}-{constants.D10_PAIR_MAX} "
             f"{terms.player} B (or flip a coin: "
             "heads, A). The first move has "
             f"{constants.FIRST_TURN_MP_PENALTY} {terms.mp} less"
             + ("." if first_turn_deploys(1) else f" (a {terms.unit.lower()} with {terms.mp} 1 cannot deploy on it)."))
    fitted = fit_text(setup, inner, 14, "regular", 9, 6)
    page.add(*text_lines(fitted, MARGIN, y, "regular", INK))
    y += len(fitted.lines) * fitted.line_height() + 6
    units = [ctx.db.units[uid].value for uid in (squad.units if squad else ()) if uid in ctx.db.units]
    columns = (("Name", 0.0, 0.36), ("Token", 0.36, 0.12), (terms.unit_class, 0.48, 0.14), (terms.mp, 0.62, 0.06),
               ("Upgrades to", 0.68, 0.14), (terms.subroutine, 0.82, 0.18))
    page.add(_cell(f"{terms.units} ({len(units)})", MARGIN, y, inner, 12, "bold", ACCENT))
    y += 4
    page.add(Line(MARGIN, y, MARGIN + inner, y, Style(stroke=ACCENT, width=0.5)))
    y += 5
    for label, left, share in columns:
        page.add(_cell(label, MARGIN + left * inner, y, share * inner - 2, 7, "bold", MUTED))
    y += 2
    for index, unit in enumerate(units):
        top = y + index * ROW_H
        if index % 2 == 0 and not saver:
            page.add(Rect(MARGIN, top, inner, ROW_H, filled("#f1f3f6")))
        base = top + ROW_H * 0.68
        forms = _forms(ctx, unit)
        cells = (unit.name, designation(unit), ctx.theme.classes[unit.unit_class], str(unit.mp),
                 " → ".join(designation(form) for form in forms) or "-",
                 unit.subroutine.name if unit.subroutine else "-")
        for (label, left, share), text in zip(columns, cells, strict=True):
            bold = label == "Token"
            page.add(_cell(text, MARGIN + left * inner, base, share * inner - 2, 8.5, "bold" if bold else "regular",
                           INK, ctx if label == "Name" else None))
    y += max(1, len(units)) * ROW_H + 10
    modules = [ctx.db.modules[mid].value for mid in (squad.modules if squad else ()) if mid in ctx.db.modules]
    page.add(_cell(f"{terms.modules} ({len(modules)}, each once)", MARGIN, y, inner, 12, "bold", ACCENT))
    y += 4
    page.add(Line(MARGIN, y, MARGIN + inner, y, Style(stroke=ACCENT, width=0.5)))
    y += 3
    for index, module in enumerate(modules):
        top = y + index * ROW_H
        base = top + ROW_H * 0.68
        page.add(Rect(MARGIN, top + 2.2, 4.6, 4.6, Style(fill="#ffffff", stroke=INK, width=0.35), radius=0.5))
        page.add(_cell(module.name, MARGIN + 8, base, inner * 0.40 - 8, 8.5, "bold"))
        page.add(_cell(effect_tag(module, terms), MARGIN + inner * 0.40, base, inner * 0.60, 8.5, "regular", MUTED))
    if not modules:
        page.add(_cell(f"no {terms.modules}", MARGIN, y + 6, inner, 8.5, "regular", MUTED))
    page.add(_cell(f"{terms.game} · squad sheet {side.value} · the tokens and {terms.module} cards of this side "
                   f"carry the letter {side.value}", MARGIN, height - MARGIN, inner, 7, "regular", MUTED))
    return page


def build_squad_sheets(ctx: KitContext) -> Component:
    """One page per side, A then B (both when both sides play the same squad)."""
    terms = ctx.theme.terms
    width, height = PAPER_SIZES[ctx.paper]
    component = Component("squads", f"{terms.game}: squad sheets")
    sides: dict[Player, Squad | None] = ctx.squads_by_side()
    for side in PLAYERS:
        page = squad_page(ctx, side, sides[side], width, height)
        component.pages.append(page)
        component.pieces.append((f"squad-{side.value.lower()}", page))
    component.warnings = ctx.fits.drain()
    return component
