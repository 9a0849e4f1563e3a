"""Module cards: one poker card per module, imposed with crop marks and the theme back.

Each front shows the module's name, the theme's word for a module, a drawn icon and a short tag derived
from the modelled effect (so a card can be read at a glance), the full effect text fitted in its box, and
a "use once" checkbox.
"""

from __future__ import annotations

from toolkit.figure.kit.context import KitContext
from toolkit.figure.model import Module, Squad
from toolkit.figure.theme import Terms
from toolkit.kit.art import framed
from toolkit.kit.cards import FRAME, POKER, SAFE, card_back, card_face, card_piece, heading, impose_deck
from toolkit.kit.component import Component
from toolkit.kit.fits import data_spot
from toolkit.kit.palette import ACCENT, INK, MUTED, RULE, TEAM
from toolkit.pictures import Art
from toolkit.players import Player
from toolkit.render.scene import PT_TO_MM, Circle, Line, Rect, Shape, Style, Text, filled
from toolkit.render.textfit import fit_line, fit_text, text_lines

CARD_W, CARD_H = POKER
INNER = FRAME  # the frame card_face draws
HEADER_H = 15.5
ICON_Y = 28.0
ICON_R = 7.5
TAG_Y = 40.0
TAG_H = 6.0
TEXT_TOP = 49.0
TEXT_BOTTOM = 75.5
CHECK = 4.2

# A glyph per effect kind (all present in the shipped DejaVu fonts).
ICONS: dict[str, str] = {
    "respin": "↻", "damage_bonus": "⚡", "star_bonus": "★", "swap_units": "⇄", "move_through": "↷",
    "clear_status": "✚", "clear_wait": "◷", "extra_mp": "➜",
}


def effect_tag(module: Module, terms: Terms) -> str:
    """A short machine-derived summary of what the effect does; amounts come from the data."""
    effect = module.effect
    amount = getattr(effect, "amount", None)
    tags = {
        "respin": f"Re-spin {terms.data_disk} this turn",
        "damage_bonus": f"+{amount} damage this turn",
        "star_bonus": f"+{amount} ★ this turn",
        "swap_units": f"Swap two {terms.units.lower()}",
        "move_through": f"Move through {terms.units.lower()}",
        "clear_status": f"Clear {terms.status}",
        "clear_wait": f"Cancel {terms.wait}",
        "extra_mp": f"+{amount} {terms.mp} this turn",
    }
    return tags.get(effect.kind, effect.kind.replace("_", " ").capitalize())


Owner = tuple[Player, Squad]  # the side whose deck a card belongs to, and that side's squad


def squad_label(squad: Squad) -> str:
    return squad.name or squad.id


def module_front(module: Module, terms: Terms, picture: Art | None = None,
                 owner: Owner | None = None) -> tuple[list[Shape], list[tuple[str, str]]]:
    """Card art in card-local coordinates, and the (field, text) pairs that had to be cut short. A card of
    a side's deck (`owner`) carries that side's letter in its team colour and its squad's name, so the
    two decks cannot be mixed up; a module no squad lists is printed without."""
    w, h = CARD_W, CARD_H
    cut: list[tuple[str, str]] = []
    items: list[Shape] = card_face(w, h)
    inner_w = w - 2 * INNER
    text_w = w - 2 * SAFE - 2.0

    # Header panel: the module word, then the name.
    items.append(Rect(INNER, INNER, inner_w, HEADER_H, filled(ACCENT), radius=2.0))
    items.append(Rect(INNER, INNER + HEADER_H - 2.0, inner_w, 2.0, filled(ACCENT)))  # square lower corners
    kind = fit_line(terms.module.upper(), text_w, "condensed", 6.5, 5)
    items.append(Text(w / 2, INNER + 5.2, kind.lines[0], kind.size, "condensed", "#d6dde4", "middle"))
    if owner is not None:
        side = owner[0]
        items += [Circle(INNER + 4.4, INNER + 4.4, 3.0, filled(TEAM[side].fill, "#ffffff", 0.35)),
                  Text(INNER + 4.4, INNER + 5.9, side.value, 9, "bold", TEAM[side].ink, "middle")]
    title, overflow = heading(w / 2, INNER + 12.0, module.name, text_w, size=12, min_size=7,
                              color="#ffffff", anchor="middle")
    items.append(title)
    if overflow:
        cut.append(("name", module.name))

    # The module's picture in a frame, or the icon medallion of its effect.
    if picture is not None:
        top = INNER + HEADER_H + 1.5
        items += framed(picture, SAFE + 1.0, top, w - 2 * SAFE - 2.0, TAG_Y - 1.5 - top, ACCENT)
    else:
        glyph = ICONS.get(module.effect.kind, module.name[:1].upper())
        items += [Circle(w / 2, ICON_Y, ICON_R + 1.2, Style(stroke=ACCENT, width=0.3)),
                  Circle(w / 2, ICON_Y, ICON_R, filled(ACCENT)),
                  Text(w / 2, ICON_Y + 3.4, glyph, 23, "bold", "#ffffff", "middle")]

    # Effect tag in a pill.
    tag_text = effect_tag(module, terms)
    tag = fit_line(tag_text, text_w - 4.0, "bold", 8, 5.5)
    if tag.overflow:
        cut.append(("effect", tag_text))
    items.append(Rect(SAFE + 1.0, TAG_Y, w - 2 * SAFE - 2.0, TAG_H, filled("#e7ebef", ACCENT, 0.25),
                      radius=TAG_H / 2))
    items.append(Text(w / 2, TAG_Y + TAG_H / 2 + tag.size * PT_TO_MM * 0.36, tag.lines[0], tag.size, "bold",
                      ACCENT, "middle"))

    # Effect text.
    body = fit_text(module.text, text_w, TEXT_BOTTOM - TEXT_TOP, "regular", 9, 5.5)
    if body.overflow:
        cut.append(("text", module.text))
    # Centre the block vertically in its box (a little above centre reads better).
    spare = TEXT_BOTTOM - TEXT_TOP - len(body.lines) * body.line_height()
    items += text_lines(body, SAFE + 1.0, TEXT_TOP + max(0.0, spare * 0.4), "regular", INK)

    # Use-once checkbox, and the game's name.
    base = h - SAFE - 1.2
    items.append(Line(SAFE + 1, TEXT_BOTTOM + 1.5, w - SAFE - 1, TEXT_BOTTOM + 1.5, Style(stroke=RULE, width=0.2)))
    items.append(Rect(SAFE + 1.0, base - CHECK, CHECK, CHECK, Style(fill="#ffffff", stroke=INK, width=0.35),
                      radius=0.4))
    items.append(Text(SAFE + 2.5 + CHECK, base - 0.9, "Used", 7.5, "bold", INK))
    once = fit_line("use once", 18, "regular", 6, 5)
    items.append(Text(SAFE + 2.5 + CHECK + 9.0, base - 0.9, once.lines[0], once.size, "regular", MUTED))
    whose = terms.game if owner is None else f"{owner[0].value} · {squad_label(owner[1])}"
    game = fit_line(whose, w / 2 - SAFE - 4, "condensed", 6, 4.5)
    items.append(Text(w - SAFE - 1.0, base - 0.9, game.lines[0], game.size, "condensed",
                      MUTED if owner is None else INK, "end"))
    return items, cut


def module_owners(ctx: KitContext, module_id: str) -> list[Owner | None]:
    """The sides whose squad lists the module (each gets its own card), or [None] when none does."""
    sides = ctx.squads_by_side()
    owners: list[Owner | None] = [(side, squad) for side, squad in sides.items()
                                  if squad is not None and module_id in squad.modules]
    return owners or [None]


def build_modules(ctx: KitContext) -> Component:
    terms = ctx.theme.terms
    component = Component("modules", f"{terms.game}: {terms.modules}")
    modules = [entry.value for _, entry in sorted(ctx.db.modules.items())]
    fronts: list[list[Shape]] = []
    for module in modules:
        for index, owner in enumerate(module_owners(ctx, module.id)):
            art, cut = module_front(module, terms, ctx.db.art.get(("module", module.id)), owner)
            fronts += [art] * module.copies
            for field_name, text in cut if index == 0 else ():  # the same words on each side's card
                ctx.fits.cut(data_spot(module.id, field_name), text)
            # as tokens are named (token-a-<unit>); two cards that would share a name are refused by kit_files
            slug = f"module-{module.id}" if owner is None else f"module-{owner[0].value.lower()}-{module.id}"
            label = module.name if owner is None else f"{module.name} ({owner[0].value})"
            component.pieces.append((slug, card_piece(art, CARD_W, CARD_H, label)))
    back = card_back(CARD_W, CARD_H, terms.game, terms.module, ink_saver=ctx.options.ink == "saver",
                     look=ctx.db.back)
    if fronts:
        component.pages = impose_deck(fronts, [back], CARD_W, CARD_H, ctx.paper, terms.modules, ctx.options)
    component.pieces.append(("back-module", card_piece(back, CARD_W, CARD_H, f"{terms.module} back")))
    component.warnings = ctx.fits.drain()
    return component

