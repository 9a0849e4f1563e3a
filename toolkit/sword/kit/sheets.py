"""sword-duel play sheets, one page each on A4 or US Letter: a player mat per player (resource tracks,
card spaces, honor reminder, turn summary) and a secret attribute sheet per player that folds into a
tent, so the values face their owner and the other half faces the opponent."""

from __future__ import annotations

from dataclasses import dataclass

from toolkit.kit.cards import POKER
from toolkit.kit.component import Component
from toolkit.kit.palette import INK
from toolkit.render import impose
from toolkit.render.fonts import text_width
from toolkit.render.impose import PAPER_SIZES
from toolkit.render.scene import (
    PT_TO_MM,
    Anchor,
    Circle,
    FontName,
    Group,
    Line,
    Page,
    Polygon,
    Rect,
    Shape,
    Style,
    Text,
    filled,
)
from toolkit.sword import constants
from toolkit.sword.context import SwordContext
from toolkit.sword.kit.common import (
    LOOKS,
    MUTED_INK,
    RULE_INK,
    SHEET_MARGIN,
    SUMI,
    TINT,
    VERMILION,
    Cuts,
    PlayerLook,
    honor_text,
    icon,
    letter_badge,
    move_change,
    numbered_list,
    pattern,
    raised_cap,
    role_start,
    section_title,
    signed,
    text_top,
)
from toolkit.sword.model import Resource
from toolkit.sword.rules.positions import Move

PRINTABLE = impose.SHEET_MARGIN + 0.5  # the outermost strokes stay clear of the printer's dead zone
BOX = 17.0  # track box: a 14 mm track marker sits inside
BOX_GAP = 1.6
LABEL_W = 50.0  # the track name column
SLOT_W, SLOT_H = POKER[0] + 1.0, POKER[1] + 1.0  # card spaces: a card plus 0.5 mm all round
BOTTOM_MIN = 40.0  # the turn summary under the card spaces
RAISED_FILL = "#ddd5c6"
DEFEAT_FILL = "#f3d9d4"


@dataclass(frozen=True)
class Track:
    name: str
    values: tuple[int, ...]  # left to right
    rule: str  # how it changes
    raised: tuple[int, ...] = ()  # values only reachable with a raised cap
    raised_by: tuple[str, ...] = ()  # the techniques that raise it
    danger: tuple[int, ...] = ()  # e.g. 0 Health


def tracks(ctx: SwordContext) -> list[Track]:
    """The three tracks, from the constants and from the kit's techniques (raised caps)."""
    result = []
    tracks: tuple[tuple[Resource, str], ...] = (
        ("momentum", f"Advance {signed(move_change(Move.ADVANCE, 'momentum'))} · Retreat "
                     f"{signed(move_change(Move.RETREAT, 'momentum'))}"),
        ("balance", f"Stay Put {signed(move_change(Move.STAY, 'balance'))} · Advance "
                    f"{signed(move_change(Move.ADVANCE, 'balance'))}"),
    )
    for resource, rule in tracks:
        cap, names = raised_cap(ctx, resource)
        result.append(Track(resource.capitalize(), tuple(range(cap + 1)), f"{rule} · cap {constants.RESOURCE_CAP}",
                            tuple(range(constants.RESOURCE_CAP + 1, cap + 1)), tuple(dict.fromkeys(names))))
    result.append(Track("Health", tuple(range(constants.START_HEALTH, -1, -1)),
                        "Lose 1 per point of damage · 0: defeated", danger=(0,)))
    return result


def _start_tags(track: Track) -> dict[int, str]:
    """Which box each role starts on: {'value': 'C start' / 'D start' / 'start'}."""
    tags: dict[int, list[str]] = {}
    for role, start in role_start().items():
        value = getattr(start, track.name.lower())
        tags.setdefault(value, []).append(role)
    return {value: ("start" if len(roles) == len(role_start()) else f"{roles[0].capitalize()} start")
            for value, roles in tags.items()}


def track_row(track: Track, x: float, y: float, side: PlayerLook, cuts: Cuts) -> list[Shape]:
    """Name and rule on the left, then one box per value; 25 mm tall."""
    items: list[Shape] = [cuts.text(x, y + 6.0, track.name, LABEL_W - 2, "bold", 12, 8, f"track '{track.name}'", SUMI)]
    rule = cuts.block(track.rule, LABEL_W - 3, 9.0, "condensed", 6.8, 5, f"track '{track.name}'")
    items += text_top(rule, x, y + 8.0, "condensed", MUTED_INK)
    tags = _start_tags(track)
    bx = x + LABEL_W
    for value in track.values:
        raised, danger = value in track.raised, value in track.danger
        fill = RAISED_FILL if raised else DEFEAT_FILL if danger else "#ffffff"
        items.append(Rect(bx, y, BOX, BOX, filled(fill, SUMI, 0.4), radius=1.2))
        if raised:
            items.append(Group(tuple(_hatch(bx, y)), clip=Rect(bx, y, BOX, BOX)))
        items.append(Text(bx + BOX / 2, y + BOX / 2 + 4.0, str(value), 15, "bold",
                          "#9d9385" if not danger else VERMILION, "middle"))
        if danger:
            items.append(Text(bx + BOX / 2, y + BOX - 1.8, "defeated", 5, "condensed-bold", VERMILION, "middle"))
        if value in tags:
            items += _tag(bx + BOX / 2, y + BOX + 0.8, tags[value], side)
        bx += BOX + BOX_GAP
    if track.raised:
        first = x + LABEL_W + track.values.index(track.raised[0]) * (BOX + BOX_GAP)
        last = bx - BOX_GAP
        who = ", ".join(track.raised_by)
        items.append(Line(first, y - 1.6, last, y - 1.6, Style(stroke=VERMILION, width=0.35)))
        items += [Line(first, y - 1.6, first, y - 0.4, Style(stroke=VERMILION, width=0.35)),
                  Line(last, y - 1.6, last, y - 0.4, Style(stroke=VERMILION, width=0.35))]
        label = cuts.line(f"only with a raised cap ({who})", last - first + 24, "condensed-bold", 6, 4.5,
                          f"track '{track.name}'")
        items.append(Text((first + last) / 2, y - 2.6, label.lines[0], label.size, "condensed-bold", VERMILION,
                          "middle"))
    return items


TURN_BOX = 14.0  # a 13 mm evade token sits inside


def turn_track(x: float, y: float, width: float, cuts: Cuts) -> list[Shape]:
    """One box per turn up to the turn limit: a marker shows the turn, an evade token marks a turn with an
    evaded attack, and the turns of the honor rule (Retreat loses) are shaded and marked."""
    label_w = 27.0
    turns = range(1, constants.TURN_LIMIT + 1)
    gap = 1.2
    box_w = (width - label_w - gap * (len(turns) - 1)) / len(turns)
    items: list[Shape] = [cuts.text(x, y + 5.0, "Turn track", label_w - 2, "bold", 12, 8, "turn track", SUMI)]
    note = cuts.block("an evade token marks its turn", label_w - 2, 8.0, "condensed", 6.5, 6.5, "turn track")
    items += text_top(note, x, y + 6.6, "condensed", MUTED_INK)
    bx = x + label_w
    for turn in turns:
        honor = turn >= constants.HONOR_TURN
        items.append(Rect(bx, y, box_w, TURN_BOX, filled(DEFEAT_FILL if honor else "#ffffff", SUMI, 0.35),
                          radius=1.2))
        items.append(Circle(bx + box_w / 2, y + TURN_BOX / 2, 6.5, Style(stroke=RULE_INK, width=0.25,
                                                                        dash=(0.8, 0.6))))
        items.append(Text(bx + 1.2, y + 3.6, str(turn), 9, "bold", VERMILION if honor else "#9d9385"))
        if honor:
            items.append(Text(bx + box_w - 1.0, y + TURN_BOX - 1.2, "no Retreat", 6.5, "condensed-bold",
                              VERMILION, "end"))
        bx += box_w + gap
    return items


def _hatch(x: float, y: float) -> list[Shape]:
    lines: list[Shape] = []
    k = -BOX
    while k < BOX:
        lines.append(Line(x + k, y + BOX, x + k + BOX, y, Style(stroke="#c4b9a6", width=0.35)))
        k += 2.4
    return lines


def _tag(cx: float, top: float, text: str, side: PlayerLook) -> list[Shape]:
    """A small pointer under a box: where a role's marker starts."""
    width = text_width(text, "condensed-bold", 5) + 3.0
    return [Polygon(((cx, top), (cx + 1.2, top + 1.2), (cx - 1.2, top + 1.2)), filled(side.fill)),
            Rect(cx - width / 2, top + 1.2, width, 3.6, filled(side.fill), radius=1.0),
            Text(cx, top + 4.0, text, 5, "condensed-bold", side.ink, "middle")]


def card_slot(x: float, y: float, title: str, note: str, played: bool, cuts: Cuts) -> list[Shape]:
    color = VERMILION if played else "#9d9385"
    style = Style(fill="#ffffff" if played else "#fdfbf7", stroke=color, width=0.5 if played else 0.35,
                  dash=() if played else (1.6, 1.2))
    items: list[Shape] = [Rect(x, y, SLOT_W, SLOT_H, style, radius=3.0)]
    cx, cy = x + SLOT_W / 2, y + SLOT_H / 2
    items += icon("swords", cx, cy - 8, 7.5, "#e4ddd0" if not played else "#efd3cd")
    items.append(cuts.text(cx, cy + 6.0, title, SLOT_W - 8, "bold", 10, 7, f"card space '{title}'", color, "middle"))
    fitted = cuts.block(note, SLOT_W - 12, 10, "condensed", 7, 5, f"card space '{title}'")
    items += text_top(fitted, cx, cy + 8.6, "condensed", MUTED_INK, "middle")
    return items


def mat_turn_summary() -> list[str]:
    return [
        "Choose: in secret, 0–2 action cards and 1 technique, face down.",
        "Reveal: all action cards at once.",
        f"Position: honor check first (Retreat from turn {constants.HONOR_TURN}), then the range table; move the "
        f"position "
        "token.",
        f"Resources: Advance {signed(move_change(Move.ADVANCE, 'momentum'))} Momentum "
        f"{signed(move_change(Move.ADVANCE, 'balance'))} Balance, "
        f"Retreat {signed(move_change(Move.RETREAT, 'momentum'))} Momentum, Stay Put "
        f"{signed(move_change(Move.STAY, 'balance'))} Balance.",
        "Combat: Insight first; if in range and someone attacks, reveal techniques and total Attack and Defense.",
        "Damage: evades by Initiative (Speed + Balance), highest first; then damage to both at once.",
    ]


PLAYS = ("Nothing (Stay Put)", "One Movement card", "Insight", "One Combat card (if in range)",
         "Movement + Combat", "Movement + Insight")


def player_mat(ctx: SwordContext, side: PlayerLook, cuts: Cuts) -> Page:
    width, height = PAPER_SIZES[ctx.paper]
    # Three card spaces side by side need nearly the whole width: the mat's side margin follows them.
    gap = min(8.0, (width - 2 * PRINTABLE - 3 * SLOT_W) / 2)
    m = (width - 3 * SLOT_W - 2 * gap) / 2
    top = SHEET_MARGIN
    inner = width - 2 * m
    page = Page(width, height, label=f"Player mat {side.key}")

    # Header band in the player's colour, the pattern under it.
    band_h = 13.0
    page.add(Rect(m, top, inner, band_h, filled(side.fill), radius=2.5))
    page.add(pattern(side, m, top + band_h + 0.8, inner, 2.6))
    page.add(*letter_badge(side, m + 9.0, top + band_h / 2, 5.2, 15))
    page.add(Circle(m + 9.0, top + band_h / 2, 5.2, Style(stroke=side.ink, width=0.4)))
    page.add(Text(m + 18.0, top + 10.2, f"{side.name} · duel mat", 15, "bold", side.ink))
    page.add(Text(width - m - 4.0, top + 9.6, ctx.name, 8, "condensed", side.ink, "end"))

    # Vertical budget: what is left after the fixed parts is shared by the track spacing and the turn box.
    bottom = height - top - 5.0
    fixed = band_h + 10.0 + 3 * BOX + 1.0 + TURN_BOX + 4.0 + 8.0 + SLOT_H + 5.0
    track_gap = max(7.0, min(11.0, (bottom - top - fixed - BOTTOM_MIN) / 4))

    # Tracks.
    y = top + band_h + 10.0
    for track in tracks(ctx):
        page.add(*track_row(track, m + 3.0, y, side, cuts))
        y += BOX + track_gap
    page.add(*turn_track(m + 3.0, y, inner - 3.0, cuts))
    y += TURN_BOX + 4.0 + track_gap * 0.5

    # Card spaces: the two technique cards, and what is played this turn.
    page.add(*section_title(m, y, inner, "Cards", cuts))
    y += 8.0
    slots = (("Technique", "your first technique card (hidden from the opponent)", False),
             ("Technique", "your second technique card (hidden from the opponent)", False),
             ("Played this turn", "1 technique face down, with your 0–2 action cards", True))
    for index, (title, note, played) in enumerate(slots):
        page.add(*card_slot(m + index * (SLOT_W + gap), y, title, note, played, cuts))
    y += SLOT_H + 5.0

    # Three columns: the turn, what may be played, the honor reminder.
    col_gap = 5.0
    turn_w = inner * 0.5
    plays_w = inner * 0.22
    honor_w = inner - turn_w - plays_w - 2 * col_gap
    page.add(*section_title(m, y, turn_w, "Turn", cuts))
    items, _ = numbered_list(mat_turn_summary(), m, y + 8.0, turn_w, bottom - y - 8.0, cuts, "mat turn summary",
                             size=8.0, min_size=5.5, gap=0.8)
    page.add(*items)
    px = m + turn_w + col_gap
    page.add(*section_title(px, y, plays_w, "You may play", cuts, size=9.5))
    items, _ = numbered_list(PLAYS, px, y + 8.0, plays_w, bottom - y - 8.0, cuts, "mat plays", size=7.8,
                             min_size=5.5, gap=0.5, numbers=False)
    page.add(*items)
    hx = px + plays_w + col_gap
    honor = cuts.block(honor_text(), honor_w - 6.0, bottom - y - 10.0, "regular", 8, 5.5, "mat honor reminder")
    honor_h = 9.0 + len(honor.lines) * honor.line_height()
    page.add(Rect(hx, y, honor_w, honor_h, filled("#f7e3df", VERMILION, 0.4), radius=1.5))
    page.add(Text(hx + 3.0, y + 5.0, "HONOR", 8, "bold", VERMILION))
    page.add(*text_top(honor, hx + 3.0, y + 6.8, "regular", INK))
    page.add(Text(width / 2, height - top + 1.0, f"{ctx.name} · {side.name} mat · place a track marker on "
                                                 f"each "
                  "track's start box", 6.5, "regular", MUTED_INK, "middle"))
    return page


def _one_page_per_side(ctx: SwordContext, name: str, title: str, piece: str, draw) -> Component:
    """A component with one page for each player, drawn by `draw(ctx, side, cuts)`."""
    component = Component(name, f"{ctx.name}: {title}")
    cuts = Cuts(ctx.locate)
    for side in LOOKS:
        page = draw(ctx, side, cuts)
        component.pages.append(page)
        component.pieces.append((f"{piece}-{side.key.lower()}", page))
    component.warnings = cuts.problems
    return component


def build_player_mats(ctx: SwordContext) -> Component:
    return _one_page_per_side(ctx, "sword-mats", "player mats", "mat", player_mat)


# --- secret attribute sheets ---------------------------------------------------------------------------

ATTRIBUTES = (
    ("Speed", "Initiative = Speed + current Balance: who evades first."),
    ("Strength", "The base of your Attack Total."),
    ("Defense", "The base of your Defense Total."),
)


def _owner_half(ctx: SwordContext, side: PlayerLook, width: float, top: float, bottom: float,
                cuts: Cuts) -> list[Shape]:
    """The half that faces its owner: value boxes, the rule, example builds."""
    m = SHEET_MARGIN
    inner = width - 2 * m
    items: list[Shape] = []
    y = top
    items += letter_badge(side, m + 5.0, y + 4.0, 4.6, 13)
    items.append(cuts.text(m + 12.5, y + 6.0, "Your secret attributes", inner * 0.6, "bold", 15, 9, "attribute sheet",
                           SUMI))
    items.append(Text(width - m, y + 6.0, side.name, 9, "bold", SUMI, "end"))
    y += 11.5
    rule = (f"Share {constants.BUILD_TOTAL} points: Speed + Strength + Defense = {constants.BUILD_TOTAL}, each from "
            f"{constants.ATTRIBUTE_MIN} to {constants.ATTRIBUTE_MAX}. Circle one value in each box, in secret, "
            f"before the draft.")
    fitted = cuts.block(rule, inner, 8.0, "regular", 8.5, 6, "attribute rule")
    items += text_top(fitted, m, y, "regular", INK)
    y += len(fitted.lines) * fitted.line_height() + 3.0

    # Three boxes with the values to circle.
    gap = 5.0
    box_w = (inner - 2 * gap) / 3
    box_h = 36.0
    values = range(constants.ATTRIBUTE_MIN, constants.ATTRIBUTE_MAX + 1)
    for index, (name, use) in enumerate(ATTRIBUTES):
        bx = m + index * (box_w + gap)
        items.append(Rect(bx, y, box_w, box_h, filled("#ffffff", SUMI, 0.45), radius=2.0))
        items.append(Rect(bx, y, box_w, 8.0, filled(side.tint, None), radius=2.0))
        items.append(Rect(bx, y + 6.0, box_w, 2.0, filled(side.tint, None)))
        items.append(cuts.text(bx + box_w / 2, y + 5.8, name, box_w - 4, "bold", 11, 7, "attribute box", SUMI,
                               "middle"))
        step = (box_w - 8.0) / len(values)
        for k, value in enumerate(values):
            cx = bx + 4.0 + step * (k + 0.5)
            items.append(Circle(cx, y + 18.0, min(5.0, step / 2 - 0.5), Style(stroke=RULE_INK, width=0.35)))
            items.append(Text(cx, y + 20.2, str(value), 12, "bold", SUMI, "middle"))
        note = cuts.block(use, box_w - 5.0, 8.0, "condensed", 7.5, 5, "attribute box")
        items += text_top(note, bx + box_w / 2, y + 26.0, "condensed", MUTED_INK, "middle")
    y += box_h + 3.0
    items.append(cuts.text(m, y + 4.0, f"Check: Speed + Strength + Defense = {constants.BUILD_TOTAL}", inner, "bold",
                           8.5, 6, "attribute sheet", VERMILION))
    y += 8.0

    # Example builds (from the kit's data).
    builds = list(ctx.db.builds.values())
    if builds:
        items += section_title(m, y, inner, "Example builds", cuts, size=9.5)
        y += 7.5
        row_h = min(5.6, (bottom - y) / (len(builds) + 1))
        cols = (inner * 0.46, inner * 0.18, inner * 0.18, inner * 0.18)
        header = ("Build", "Speed", "Strength", "Defense")
        rows = [header] + [(b.name, str(b.speed), str(b.strength), str(b.defense)) for b in builds]
        size = max(5.5, min(8.0, row_h / PT_TO_MM / 1.45))
        for r, row in enumerate(rows):
            ry = y + r * row_h
            if r == 0:
                items.append(Rect(m, ry, inner, row_h, filled(TINT, None)))
            elif r % 2 == 0:
                items.append(Rect(m, ry, inner, row_h, filled("#f8f5ee", None)))
            x = m
            for c, (cell, cw) in enumerate(zip(row, cols, strict=True)):
                font: FontName = "bold" if r == 0 or c == 0 else "regular"
                fitted_cell = cuts.line(cell, cw - 3.0, font, size, 5, "example builds")
                anchor: Anchor = "start" if c == 0 else "middle"
                tx = x + 2.0 if c == 0 else x + cw / 2
                items.append(Text(tx, ry + row_h / 2 + fitted_cell.size * PT_TO_MM * 0.36, fitted_cell.lines[0],
                                  fitted_cell.size, font, SUMI, anchor))
                x += cw
        items.append(Line(m, y + len(rows) * row_h, m + inner, y + len(rows) * row_h, Style(stroke=RULE_INK,
                                                                                             width=0.3)))
    return items


def _cover_half(side: PlayerLook, width: float, half: float, cuts: Cuts) -> list[Shape]:
    """The half that faces the opponent (drawn upright here; the caller turns it upside down)."""
    m = SHEET_MARGIN
    inner = width - 2 * m
    items: list[Shape] = []
    band_top, band_h = m + 8.0, 40.0
    items.append(Rect(m, band_top, inner, band_h, filled(side.fill), radius=3.0))
    items.append(pattern(side, m, band_top + band_h - 7.0, inner, 7.0))
    items += letter_badge(side, m + 20.0, band_top + 16.5, 11.0, 30)
    items.append(Circle(m + 20.0, band_top + 16.5, 11.0, Style(stroke=side.ink, width=0.5)))
    items.append(Text(m + 38.0, band_top + 16.0, side.name, 24, "bold", side.ink))
    items.append(Text(m + 38.0, band_top + 25.0, "Secret attributes · keep this side towards your opponent", 9,
                      "regular", side.ink))
    y = band_top + band_h + 8.0
    items.append(cuts.text(m, y + 4.5, "Revealed by Insight", inner, "bold", 12, 8, "attribute cover", SUMI))
    note = cuts.block("When an opponent's Insight reveals one of these values, write it here: it stays known for the "
                      "rest of the duel.", inner, 9.0, "regular", 8.5, 6, "attribute cover")
    items += text_top(note, m, y + 7.0, "regular", MUTED_INK)
    y += 8.5 + len(note.lines) * note.line_height()
    gap = 5.0
    box_w = (inner - 2 * gap) / 3
    box_h = max(18.0, min(40.0, half - y - 12.0))
    for index, (name, _) in enumerate(ATTRIBUTES):
        bx = m + index * (box_w + gap)
        items.append(Rect(bx, y, box_w, box_h, filled("#ffffff", SUMI, 0.45), radius=2.0))
        items.append(Text(bx + 3.0, y + 5.5, name, 10, "bold", SUMI))
        items.append(Rect(bx + box_w - 19.0, y + 3.0, 16.0, box_h - 6.0, Style(stroke=RULE_INK, width=0.35,
                                                                               dash=(1.0, 0.8)), radius=1.0))
    return items


def attribute_sheet(ctx: SwordContext, side: PlayerLook, cuts: Cuts) -> Page:
    width, height = PAPER_SIZES[ctx.paper]
    half = height / 2
    page = Page(width, height, label=f"Secret attributes {side.key}")
    # Top half: the cover, upside down, so it reads upright on the far side of the standing tent.
    page.add(Group(tuple(_cover_half(side, width, half, cuts)), dx=width, dy=half, rotate=180))
    # The fold.
    fold = Style(stroke=SUMI, width=0.35, dash=(3.0, 1.8))
    page.add(Line(PRINTABLE, half, width - PRINTABLE, half, fold))
    label = "fold here, printed side out, and stand it like a tent: this half faces you, the other your opponent"
    page.add(Text(width / 2, half - 1.6, label, 6.5, "regular", MUTED_INK, "middle"))
    page.add(*_owner_half(ctx, side, width, half + 8.0, height - SHEET_MARGIN - 2.0, cuts))
    return page


def build_attribute_sheets(ctx: SwordContext) -> Component:
    return _one_page_per_side(ctx, "sword-attributes", "secret attribute sheets", "attributes", attribute_sheet)
