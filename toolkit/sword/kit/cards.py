"""sword-duel cards (poker size, 3 mm bleed, crop marks, mirrored duplex backs): the two players' action
cards, one technique card per technique of the draft, and the two role cards."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from toolkit.kit.art import fitted, framed
from toolkit.kit.cards import FRAME, POKER, SAFE, card_back, card_face, impose_deck
from toolkit.kit.component import Component
from toolkit.kit.fits import Spot
from toolkit.kit.palette import INK
from toolkit.render.fonts import text_width
from toolkit.render.impose import BLEED
from toolkit.render.scene import PT_TO_MM, Circle, Line, Rect, Shape, Style, Text, filled, reusable
from toolkit.sword import constants
from toolkit.sword.context import SwordContext
from toolkit.sword.kit.common import (
    FACE,
    LOOKS,
    MUTED_INK,
    ROLE_FILL,
    ROLE_NAME,
    RULE_INK,
    SUMI,
    TINT,
    VERMILION,
    Cuts,
    PlayerLook,
    card_piece,
    fit_labelled,
    honor_text,
    icon,
    labelled_items,
    letter_badge,
    move_change,
    pattern,
    role_start,
    signed,
    split_label,
    technique_where,
    text_top,
)
from toolkit.sword.model import Technique
from toolkit.sword.rules.positions import Move

if TYPE_CHECKING:
    from toolkit.pictures import Art, BackLook

CARD_W, CARD_H = POKER
INNER = FRAME  # where card_face draws its frame
TEXT_X = SAFE + 1.0
TEXT_W = CARD_W - 2 * TEXT_X
FOOT_Y = CARD_H - SAFE - 1.0  # footer baseline
ART_MAX_H = 24.0  # a technique's picture: as tall as the rules text leaves room for, within these bounds
ART_MIN_H = 12.0


# --- backs ---------------------------------------------------------------------------------------------

def sword_back(kind: str, fill: str, ink: str, side: PlayerLook | None = None, mark: str = "swords",
               ink_saver: bool = False, game: str = constants.GAME_NAME, look: BackLook | None = None) -> list[Shape]:
    """A back that reads the same after any flip: colour to the bleed, the side's pattern (action cards),
    a frame, and a central medallion with crossed swords (or the side's letter) and the card kind. With
    `ink_saver`: white paper, the design in outline in the card's colour, no pattern.

    A project's `look` (`back:` in duelkit.yaml): its words replace the game's name; its colour fills the
    shared backs (an action back keeps its player's colour, the only way to tell the two decks apart); its
    picture is fitted whole on the card's colour (as on the figure games' backs), an action back keeping its
    player's letter medallion. Ink saver keeps to the outline design."""
    w, h = CARD_W, CARD_H
    if look is not None:
        game = look.text or game
        if look.color and side is None:
            fill, ink = look.color, _ink_on(look.color)
        if look.image is not None and not ink_saver:
            if side is None:
                return card_back(w, h, game, kind, fill, look=look)
            return _picture_action_back(look.image, kind, side)
    if ink_saver:
        fill, ink = "#ffffff", fill if fill.lower() not in ("#ffffff", "#fbf8f1") else SUMI
    items: list[Shape] = [Rect(-BLEED, -BLEED, w + 2 * BLEED, h + 2 * BLEED, filled(fill))]
    if side is not None and not ink_saver:
        items.append(pattern(side, -BLEED, -BLEED, w + 2 * BLEED, h + 2 * BLEED, step=3.2))
    items.append(Rect(SAFE, SAFE, w - 2 * SAFE, h - 2 * SAFE, Style(stroke=ink, width=0.45), radius=2.5))
    items.append(Rect(SAFE + 1.2, SAFE + 1.2, w - 2 * SAFE - 2.4, h - 2 * SAFE - 2.4, Style(stroke=ink, width=0.15),
                      radius=1.8))
    cx, cy, r = w / 2, h / 2, w * 0.3
    items += [Circle(cx, cy, r, filled(fill, ink, 0.6)), Circle(cx, cy, r * 0.84, Style(stroke=ink, width=0.25))]
    if mark == "letter" and side is not None:
        items.append(Text(cx, cy + 2.5, side.key, 34, "bold", ink, "middle"))
        items.append(Text(cx, cy + r * 0.62, kind.upper(), 6, "condensed-bold", ink, "middle"))
    else:  # the swords fill the medallion; the kind sits under it
        items += icon("swords", cx, cy - 1.5, r * 0.5, ink)
        items.append(Text(cx, cy + r + 6.0, kind.upper(), 8, "condensed-bold", ink, "middle"))
    items.append(Text(cx, h - SAFE - 4.0, game.upper(), 5.5, "condensed", ink, "middle"))
    if side is not None:
        items.append(Text(cx, SAFE + 6.2, side.name.upper(), 6, "condensed-bold", ink, "middle"))
    return items


def _ink_on(fill: str) -> str:
    """White or sumi ink, whichever reads on the designer's back colour."""
    red, green, blue = (int(fill[i:i + 2], 16) for i in (1, 3, 5))
    return "#ffffff" if 0.299 * red + 0.587 * green + 0.114 * blue < 150 else SUMI


def _picture_action_back(picture: Art, kind: str, side: PlayerLook) -> list[Shape]:
    """The project's picture fitted whole on the player's colour, with the player's letter in a medallion."""
    w, h = CARD_W, CARD_H
    cx, cy, r = w / 2, h / 2, w * 0.22
    items = fitted(picture, 0, 0, w, h, side.fill, bleed=BLEED)
    items += [Circle(cx, cy, r, filled(side.fill, side.ink, 0.6)),
              Text(cx, cy + 2.5, side.key, 26, "bold", side.ink, "middle"),
              Text(cx, cy + r * 0.66, kind.upper(), 5, "condensed-bold", side.ink, "middle")]
    return items


# --- action cards --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ActionCard:
    """One printed action card (its words); the action itself is the rules' `state.Action`."""

    key: str
    name: str
    category: str  # Combat / Movement / Insight
    chips: tuple[str, ...]
    body: str
    combine: str
    warning: str = ""


def actions() -> tuple[ActionCard, ...]:
    """The five action cards; every number comes from the constants block."""
    return (
        ActionCard("attack", "Attack", "Combat", ("Strength", "+ bonuses"),
               "Strike, at Sword Range or Close Combat (the range after movement). "
               f"Attack Total = Strength + technique bonuses + position bonuses (Advance "
               f"{signed(constants.ADVANCE_ATTACK_BONUS)}, "
               f"Close Combat {signed(constants.CLOSE_ATTACK_BONUS)}). Damage = Attack Total − the opponent's "
               f"Defense Total, "
               "at least 0.",
               "Alone, or with Advance or Retreat."),
        ActionCard("defend", "Defend", "Combat", ("Defense", "+ bonuses"),
               "Guard, at Sword Range or Close Combat (the range after movement). "
               "Defense Total = Defense + technique bonuses + position bonuses "
               f"(Retreat {signed(constants.RETREAT_DEFENSE_BONUS)}). It is taken off the attacker's Attack Total.",
               "Alone, or with Advance or Retreat."),
        ActionCard("advance", "Advance", "Movement",
               (f"{signed(move_change(Move.ADVANCE, 'momentum'))} Momentum",
                f"{signed(move_change(Move.ADVANCE, 'balance'))} Balance",
                f"{signed(constants.ADVANCE_ATTACK_BONUS)} Attack"),
               "Step in: the range closes unless the opponent retreats (see the range table). "
               f"{signed(constants.ADVANCE_ATTACK_BONUS)} to your Attack Total this turn.",
               f"Alone, or with a Combat card or Insight. No movement card: Stay Put, "
               f"{signed(move_change(Move.STAY, 'balance'))} Balance."),
        ActionCard("retreat", "Retreat", "Movement",
               (f"{signed(move_change(Move.RETREAT, 'momentum'))} Momentum",
                f"{signed(constants.RETREAT_DEFENSE_BONUS)} Defense"),
               "Step back: the range opens unless the opponent advances (see the range table). "
               f"{signed(constants.RETREAT_DEFENSE_BONUS)} to your Defense Total this turn.",
               f"Alone, or with a Combat card or Insight. No movement card: Stay Put, "
               f"{signed(move_change(Move.STAY, 'balance'))} Balance.",
               warning=f"Loses the duel from turn {constants.HONOR_TURN} (dishonor). Both retreat: draw."),
        ActionCard("insight", "Insight", "Insight", ("Reveal 1", "Cannot defend"),
               "Learn one hidden element: the opponent's Speed, Strength or Defense (known for the rest of the "
               "duel), or their current technique if they Attack or Defend. You cannot defend this turn: an attack "
               "in range deals its full Attack Total (no Defense).",
               "Alone, or with Advance or Retreat. Works at any range."),
    )


def _chips(labels: tuple[str, ...], y: float, fill: str, stroke: str, ink: str, cuts: Cuts,
           where: Spot | str) -> list[Shape]:
    """A centred row of pills; the font shrinks until the row fits the card."""
    size = 7.0
    pad, gap, height = 1.8, 1.5, 5.2
    while size > 4.5:
        widths = [text_width(label, "condensed-bold", size) + 2 * pad for label in labels]
        if sum(widths) + gap * (len(labels) - 1) <= TEXT_W:
            break
        size -= 0.25
    else:
        cuts.cut(where, " · ".join(labels))
    widths = [text_width(label, "condensed-bold", size) + 2 * pad for label in labels]
    x = CARD_W / 2 - (sum(widths) + gap * (len(labels) - 1)) / 2
    items: list[Shape] = []
    for label, width in zip(labels, widths, strict=True):
        items.append(Rect(x, y, width, height, filled(fill, stroke, 0.25), radius=height / 2))
        items.append(Text(x + width / 2, y + height / 2 + size * PT_TO_MM * 0.36, label, size, "condensed-bold", ink,
                          "middle"))
        x += width + gap
    return items


def action_front(side: PlayerLook, action: ActionCard, cuts: Cuts) -> list[Shape]:
    w, h = CARD_W, CARD_H
    where = f"action card '{action.name}' ({side.name})"
    items: list[Shape] = card_face(w, h, fill=FACE, frame=side.fill)
    band_h = 15.0
    items.append(Rect(INNER, INNER, w - 2 * INNER, band_h, filled(side.fill), radius=2.0))
    items.append(Rect(INNER, INNER + band_h - 2.0, w - 2 * INNER, 2.0, filled(side.fill)))
    items.append(pattern(side, INNER, INNER + band_h, w - 2 * INNER, 3.2))
    items.append(Line(INNER, INNER + band_h + 3.2, w - INNER, INNER + band_h + 3.2, Style(stroke=side.fill, width=0.3)))
    for bx in (INNER + 6.0, w - INNER - 6.0):
        items += letter_badge(side, bx, INNER + band_h / 2, 4.3, 11)
        items.append(Circle(bx, INNER + band_h / 2, 4.3, Style(stroke=side.ink, width=0.35)))
    items.append(Text(w / 2, INNER + 5.0, action.category.upper(), 5.5, "condensed-bold", side.ink, "middle"))
    items.append(cuts.text(w / 2, INNER + 11.8, action.name, w - 2 * (INNER + 11.5), "bold", 13, 8, where,
                           side.ink, "middle"))

    # Medallion with the action's icon.
    cy = 31.0
    items += [Circle(w / 2, cy, 8.6, Style(stroke=side.fill, width=0.3)), Circle(w / 2, cy, 7.6, filled(side.fill))]
    items += icon(action.key, w / 2, cy, 5.2, side.ink, side.fill)
    items += _chips(action.chips, 41.5, TINT, RULE_INK, INK, cuts, where)

    # Body, and the honor warning for Retreat.
    top, bottom = 49.5, 75.0
    if action.warning:
        box_h = 9.0
        box_y = bottom - box_h
        items.append(Rect(TEXT_X - 0.5, box_y, TEXT_W + 1.0, box_h, filled("#f7e3df", VERMILION, 0.35), radius=1.2))
        warn = cuts.block(action.warning, TEXT_W - 2.0, box_h - 1.6, "bold", 7, 5, where)
        spare = box_h - len(warn.lines) * warn.line_height()
        items += text_top(warn, w / 2, box_y + spare / 2, "bold", VERMILION, "middle")
        bottom = box_y - 1.5
    body = cuts.block(action.body, TEXT_W, bottom - top, "regular", 7.5, 5, where)
    spare = bottom - top - len(body.lines) * body.line_height()
    items += text_top(body, TEXT_X, top + max(0.0, spare * 0.35), "regular", INK)

    # Footer: how the card combines, the player.
    items.append(Line(TEXT_X, 76.4, w - TEXT_X, 76.4, Style(stroke=RULE_INK, width=0.2)))
    combine = cuts.block(action.combine, TEXT_W, 5.0, "condensed", 5.8, 4.5, where)
    items += text_top(combine, w / 2, 77.0, "condensed", MUTED_INK, "middle")
    items.append(Text(TEXT_X, FOOT_Y, side.name, 5.5, "condensed-bold", INK))
    items.append(Text(w - TEXT_X, FOOT_Y, "ACTION", 5.5, "condensed", MUTED_INK, "end"))
    return items


def build_action_cards(ctx: SwordContext) -> Component:
    """Five action cards per player; each player's set on its own sheet, backed with that player's back."""
    component = Component("sword-actions", f"{ctx.name}: action cards")
    cuts = Cuts(ctx.locate)
    for side in LOOKS:
        fronts = []
        for action in actions():
            art = action_front(side, action, cuts)
            fronts.append(art)
            slug = f"action-{side.key.lower()}-{action.key}"
            component.pieces.append((slug, card_piece(art, CARD_W, CARD_H, f"{side.name} {action.name}")))
        back = sword_back("Action", side.fill, side.ink, side, mark="letter", ink_saver=_saver(ctx), game=ctx.name,
                          look=ctx.db.back)
        component.pages += impose_deck(fronts, [back], CARD_W, CARD_H, ctx.paper, f"Action cards {side.name}",
                                       ctx.options)
        component.deck += [(art, back) for art in fronts]
        component.pieces.append((f"back-action-{side.key.lower()}", card_piece(back, CARD_W, CARD_H,
                                                                               f"{side.name} action back")))
    component.warnings = cuts.problems
    return component


# --- technique cards -----------------------------------------------------------------------------------

def technique_front(technique: Technique, cuts: Cuts, game: str = constants.GAME_NAME,
                    picture: Art | None = None) -> list[Shape]:
    """The technique's card. Its picture (`art:`), if any, sits in a frame under the type tag, as tall as
    the rules text leaves room for (ART_MIN_H to ART_MAX_H): the text keeps its size where it can."""
    w, h = CARD_W, CARD_H
    items: list[Shape] = card_face(w, h, fill=FACE, frame=SUMI)
    band_h = 16.0
    items.append(Rect(INNER, INNER, w - 2 * INNER, band_h, filled(SUMI), radius=2.0))
    items.append(Rect(INNER, INNER + band_h - 2.0, w - 2 * INNER, 2.0, filled(SUMI)))
    items.append(Rect(INNER, INNER + band_h, w - 2 * INNER, 0.9, filled(VERMILION)))
    name_y = INNER + (8.6 if technique.translation else 10.4)
    items.append(cuts.text(w / 2, name_y, technique.name, w - 2 * INNER - 4, "bold", 12.5, 7,
                           technique_where(technique, "name"), "#ffffff", "middle"))
    if technique.translation:
        items.append(cuts.text(w / 2, INNER + 13.4, technique.translation, w - 2 * INNER - 4, "regular", 7, 5,
                               technique_where(technique, "translation"), "#e6dccb", "middle"))

    # Type, as a tag.
    type_fit = cuts.line(technique.type.upper(), TEXT_W - 6, "condensed-bold", 6.2, 4.5,
                         technique_where(technique, "type"))
    tag_w = text_width(type_fit.lines[0], "condensed-bold", type_fit.size) + 5.0
    tag_y = INNER + band_h + 2.6
    items.append(Rect(w / 2 - tag_w / 2, tag_y, tag_w, 4.6, filled(TINT, RULE_INK, 0.25), radius=2.3))
    items.append(Text(w / 2, tag_y + 2.3 + type_fit.size * PT_TO_MM * 0.36, type_fit.lines[0], type_fit.size,
                      "condensed-bold", VERMILION, "middle"))

    y = tag_y + 6.4
    phil_top = 73.0 if technique.philosophy else FOOT_Y - 4.0
    rules = [split_label(rule) for rule in technique.rules_text]
    if picture is not None:
        art_h = _art_height(rules, phil_top - 1.5 - y - (7.8 if technique.flavor else 0.0) - 2.0)
        items += framed(picture, TEXT_X, y - 1.4, TEXT_W, art_h, SUMI)
        y += art_h + 0.6

    # Flavour: the regular font in a muted colour (the shipped fonts have no italic).
    if technique.flavor:
        flavor = cuts.block(technique.flavor, TEXT_W - 2, 6.2, "regular", 6.6, 5, technique_where(technique, "flavor"))
        spare = 6.2 - len(flavor.lines) * flavor.line_height()
        items += text_top(flavor, w / 2, y + spare / 2, "regular", MUTED_INK, "middle")
        y += 7.8
    items.append(Line(w / 2 - 8, y, w / 2 + 8, y, Style(stroke=VERMILION, width=0.3)))
    y += 2.0

    # Rules text, label run into its line; all lines share one size.
    blocks, cut = fit_labelled(rules, TEXT_W, phil_top - 1.5 - y, 1.6, 8.0, 5.0)
    if cut:
        cuts.cut(technique_where(technique, "rules_text"), " / ".join(technique.rules_text))
    used = sum(b.height() for b in blocks) + 1.6 * max(0, len(blocks) - 1)
    y += max(0.0, (phil_top - 1.5 - y - used) * 0.3)
    for index, block in enumerate(blocks):
        is_evade = block.label.lower().startswith("evade")
        if is_evade:
            items.append(Rect(TEXT_X - 0.8, y - 0.5, TEXT_W + 1.6, block.height() + 1.0, filled(TINT), radius=1.0))
        items += labelled_items(block, TEXT_X, y, VERMILION)
        y += block.height() + 1.6
        if index < len(blocks) - 1 and not is_evade and not blocks[index + 1].label.lower().startswith("evade"):
            dotted = Style(stroke=RULE_INK, width=0.15, dash=(0.6, 0.6))
            items.append(Line(TEXT_X, y - 0.8, w - TEXT_X, y - 0.8, dotted))

    if technique.philosophy:
        items.append(Line(TEXT_X, phil_top, w - TEXT_X, phil_top, Style(stroke=RULE_INK, width=0.2)))
        phil = cuts.block(technique.philosophy, TEXT_W, 6.0, "condensed", 6.6, 4.5,
                          technique_where(technique, "philosophy"))
        spare = 6.0 - len(phil.lines) * phil.line_height()
        items += text_top(phil, w / 2, phil_top + 0.8 + spare / 2, "condensed", SUMI, "middle")
    items.append(Text(TEXT_X, FOOT_Y, "TECHNIQUE", 5.5, "condensed-bold", VERMILION))
    items.append(Text(w - TEXT_X, FOOT_Y, game, 5.5, "condensed", MUTED_INK, "end"))
    return items


def _art_height(rules: list[tuple[str, str]], room: float) -> float:
    """How tall a technique's picture may be: the room the rules text leaves at the size it would have
    without the picture (never below ART_MIN_H: then the text shrinks, and is cut only as it would be)."""
    blocks, _ = fit_labelled(rules, TEXT_W, room, 1.6, 8.0, 5.0)
    used = sum(block.height() for block in blocks) + 1.6 * max(0, len(blocks) - 1)
    return max(ART_MIN_H, min(ART_MAX_H, room - used - 1.0))


def build_technique_cards(ctx: SwordContext) -> Component:
    component = Component("sword-techniques", f"{ctx.name}: technique cards")
    cuts = Cuts(ctx.locate)
    fronts = []
    for technique in ctx.db.draft_techniques():
        art = technique_front(technique, cuts, ctx.name, ctx.db.art.get(technique.id))
        fronts.append(art)
        component.pieces.append((f"technique-{technique.id}", card_piece(art, CARD_W, CARD_H, technique.name)))
    back = sword_back("Technique", SUMI, "#e6dccb", ink_saver=_saver(ctx), game=ctx.name, look=ctx.db.back)
    if fronts:
        component.pages = impose_deck(fronts, [back], CARD_W, CARD_H, ctx.paper, "Technique cards", ctx.options)
    component.deck = [(art, back) for art in fronts]
    component.pieces.append(("back-technique", card_piece(back, CARD_W, CARD_H, "Technique back")))
    component.warnings = cuts.problems
    return component


# --- role cards ----------------------------------------------------------------------------------------

ROLE_TEXT = {
    "challenger": ("Aggressor", "momentum", "ready to strike", "attack"),
    "defender": ("Respondent", "balance", "composed and ready", "defend"),
}


def role_front(role: str, cuts: Cuts) -> list[Shape]:
    w, h = CARD_W, CARD_H
    color = ROLE_FILL[role]
    subtitle, advantage, motto, mark = ROLE_TEXT[role]
    start = role_start()[role]
    where = f"role card '{ROLE_NAME[role]}'"
    items: list[Shape] = card_face(w, h, fill=FACE, frame=color)
    band_h = 16.0
    items.append(Rect(INNER, INNER, w - 2 * INNER, band_h, filled(color), radius=2.0))
    items.append(Rect(INNER, INNER + band_h - 2.0, w - 2 * INNER, 2.0, filled(color)))
    items.append(Text(w / 2, INNER + 5.2, "ROLE", 5.5, "condensed-bold", "#f3e3dc", "middle"))
    items.append(cuts.text(w / 2, INNER + 12.4, ROLE_NAME[role], w - 2 * INNER - 4, "bold", 14, 8, where,
                           "#ffffff", "middle"))
    cy = 30.0
    items += [Circle(w / 2, cy, 8.2, Style(stroke=color, width=0.3)), Circle(w / 2, cy, 7.2, filled(color))]
    items += icon(mark, w / 2, cy, 4.8, "#ffffff", color)
    items.append(Text(w / 2, 43.5, subtitle, 8, "bold", color, "middle"))

    # Starting resources: three boxes, the role's advantage highlighted.
    values = (("Momentum", start.momentum), ("Balance", start.balance), ("Health", start.health))
    box_w, box_h, gap = 16.5, 13.0, 2.0
    x = w / 2 - (3 * box_w + 2 * gap) / 2
    top = 47.0
    items.append(Text(w / 2, top - 0.6, "STARTS WITH", 5, "condensed-bold", MUTED_INK, "middle"))
    for label, value in values:
        strong = label.lower() == advantage
        style = filled(color, None) if strong else filled("#ffffff", RULE_INK, 0.3)
        ink = "#ffffff" if strong else INK
        items.append(Rect(x, top + 1.0, box_w, box_h, style, radius=1.2))
        items.append(Text(x + box_w / 2, top + 8.6, str(value), 14, "bold", ink, "middle"))
        items.append(Text(x + box_w / 2, top + 12.6, label, 5, "condensed-bold", ink, "middle"))
        x += box_w + gap
    amount = start.momentum if advantage == "momentum" else start.balance
    items.append(cuts.text(w / 2, 65.6, f"Starting advantage: {amount} {advantage.capitalize()}, {motto}", TEXT_W,
                           "regular", 6.8, 5, where, INK, "middle"))

    # Honor condition.
    box_y, box_h2 = 69.5, 11.8
    items.append(Rect(TEXT_X - 0.5, box_y, TEXT_W + 1.0, box_h2, filled("#f7e3df", VERMILION, 0.3), radius=1.2))
    items.append(Text(TEXT_X + 1.0, box_y + 3.2, "HONOR", 5.8, "condensed-bold", VERMILION))
    honor = cuts.block(honor_text(), TEXT_W - 2.0, box_h2 - 4.4, "regular", 6.0, 4.5, where)
    items += text_top(honor, TEXT_X + 1.0, box_y + 3.9, "regular", INK)
    items.append(Text(TEXT_X, FOOT_Y, "Both duellists start Apart", 5.5, "condensed", MUTED_INK))
    items.append(Text(w - TEXT_X, FOOT_Y, "ROLE", 5.5, "condensed-bold", color, "end"))
    return items


def build_role_cards(ctx: SwordContext) -> Component:
    component = Component("sword-roles", f"{ctx.name}: role cards")
    cuts = Cuts(ctx.locate)
    fronts = []
    for role in role_start():
        art = role_front(role, cuts)
        fronts.append(art)
        component.pieces.append((f"role-{role}", card_piece(art, CARD_W, CARD_H, ROLE_NAME[role])))
    back = sword_back("Role", VERMILION, "#ffffff", ink_saver=_saver(ctx), game=ctx.name, look=ctx.db.back)
    component.pages = impose_deck(fronts, [back], CARD_W, CARD_H, ctx.paper, "Role cards", ctx.options)
    component.deck = [(art, back) for art in fronts]
    component.pieces.append(("back-role", card_piece(back, CARD_W, CARD_H, "Role back")))
    component.warnings = cuts.problems
    return component


def _saver(ctx: SwordContext) -> bool:
    return ctx.options.ink == "saver"


def build_cards(ctx: SwordContext) -> Component:
    """Every card of the duel (both action sets, the techniques, the roles) packed onto as few sheets as
    they fill: they share one size, and each keeps its own back (the same backs share one PDF form)."""
    parts = [build_action_cards(ctx), build_technique_cards(ctx), build_role_cards(ctx)]
    component = Component("sword-cards", f"{ctx.name}: cards")
    forms: dict[int, list[Shape]] = {}
    fronts, backs = [], []
    for part in parts:
        component.pieces += part.pieces
        component.warnings += part.warnings
        for front, back in part.deck:
            fronts.append(front)
            backs.append(forms.setdefault(id(back), [reusable(back)]))
            component.deck.append((front, back))
    component.pages = impose_deck(fronts, backs, CARD_W, CARD_H, ctx.paper, "Cards", ctx.options)
    return component
