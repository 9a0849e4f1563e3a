"""sword-duel reference sheets: the draft procedure (with the kit's draft deck) and the quick reference,
whose three range tables are computed by `resolve_position` for every (range, move, move)."""

from __future__ import annotations

from dataclasses import dataclass

from toolkit.kit.component import Component
from toolkit.kit.palette import INK
from toolkit.render.fonts import text_width
from toolkit.render.impose import PAPER_SIZES
from toolkit.render.scene import Circle, FontName, Line, Page, Rect, Shape, Style, Text, filled
from toolkit.sword import constants
from toolkit.sword.context import SwordContext
from toolkit.sword.kit.common import (
    MOVE_NAME,
    MOVE_ORDER,
    MUTED_INK,
    RANGE_FILL,
    RANGE_NAME,
    RANGE_ORDER,
    RANGE_SHORT,
    ROLE_FILL,
    ROLE_NAME,
    RULE_INK,
    SUMI,
    TINT,
    VERMILION,
    Cuts,
    move_change,
    numbered_list,
    raised_cap,
    role_start,
    section_title,
    sheet_title,
    signed,
    text_top,
)
from toolkit.sword.rules.positions import Move, Range, resolve_position

MARGIN = 12.0

# --- the draft -----------------------------------------------------------------------------------------

ACTOR_NAME = {"random": "Shuffle", **ROLE_NAME}
ACTOR_FILL = {"random": "#7a736a", **ROLE_FILL}


@dataclass(frozen=True)
class DraftStep:
    actor: str  # random / challenger / defender
    keep: int
    discard: int  # -1: the rest of the deck
    discard_random: bool
    pass_to: str = ""  # who gets the deck next

    def text(self, deck: int) -> str:
        parts = []
        if self.actor == "random":
            return (f"Shuffle the {deck} technique cards face down and remove {self.discard} at random, unseen. "
                    "Removed cards stay out of the duel.")
        parts.append(f"Choose {self.keep} card and keep it." if self.keep == 1 else
                     f"Choose {self.keep} cards and keep them.")
        if self.discard < 0:
            parts.append("Discard the remaining cards.")
        elif self.discard:
            how = " at random" if self.discard_random else ""
            parts.append(f"Discard {self.discard} card{'s' if self.discard != 1 else ''}{how}.")
        if self.pass_to:
            parts.append(f"Pass the deck to the {ROLE_NAME[self.pass_to]}.")
        return " ".join(parts)


# Spec 002, Setup: remove 1 at random; Challenger picks 1; Defender picks 1 and discards 2 at random;
# Challenger picks 1 and discards 1; Defender picks 1 and discards the rest.
DRAFT_STEPS: tuple[DraftStep, ...] = (
    DraftStep("random", 0, 1, True),
    DraftStep("challenger", 1, 0, False, "defender"),
    DraftStep("defender", 1, 2, True, "challenger"),
    DraftStep("challenger", 1, 1, False, "defender"),
    DraftStep("defender", 1, -1, False),
)


def draft_counts(deck: int) -> list[tuple[int, int, int]]:
    """(kept, discarded, left in the deck) after each step, starting from `deck` cards."""
    result = []
    left = deck
    for step in DRAFT_STEPS:
        kept = min(step.keep, left)
        left -= kept
        gone = left if step.discard < 0 else min(step.discard, left)
        left -= gone
        result.append((kept, gone, left))
    return result


def _mini_cards(x: float, y: float, kept: int, gone: int, left: int, color: str) -> list[Shape]:
    """The deck after a step, as little cards: kept (actor colour), discarded (crossed), still in the deck."""
    items: list[Shape] = []
    w, h, gap = 3.4, 5.0, 1.0
    for kind, count in (("kept", kept), ("gone", gone), ("left", left)):
        for _ in range(count):
            if kind == "kept":
                items.append(Rect(x, y, w, h, filled(color, None), radius=0.5))
            elif kind == "gone":
                items.append(Rect(x, y, w, h, Style(fill="#ffffff", stroke=MUTED_INK, width=0.25, dash=(0.5, 0.4)),
                                  radius=0.5))
                items.append(Line(x + 0.6, y + 0.8, x + w - 0.6, y + h - 0.8, Style(stroke=MUTED_INK, width=0.3)))
                items.append(Line(x + w - 0.6, y + 0.8, x + 0.6, y + h - 0.8, Style(stroke=MUTED_INK, width=0.3)))
            else:
                items.append(Rect(x, y, w, h, filled("#e9e3d6", SUMI, 0.25), radius=0.5))
            x += w + gap
        if count:
            x += 1.5
    return items


def build_draft_sheet(ctx: SwordContext) -> Component:
    width, height = PAPER_SIZES[ctx.paper]
    m = MARGIN
    inner = width - 2 * m
    cuts = Cuts(ctx.locate)
    page = Page(width, height, label="Technique draft")
    techniques = ctx.db.draft_techniques()
    deck = len(techniques)
    page.add(*sheet_title(m, m, inner, "Technique draft", "After the roles are chosen at random, before the first "
                          "turn. Each player ends with 2 technique cards.", cuts, "draft sheet", ctx.name))
    y = m + 22.0
    page.add(*section_title(m, y, inner, "Steps", cuts))
    y += 9.0
    deck_w = 62.0
    text_x = m + 36.0
    text_w = inner - 36.0 - deck_w - 4.0
    for number, (step, (kept, gone, left)) in enumerate(zip(DRAFT_STEPS, draft_counts(deck), strict=True), start=1):
        row_h = 15.0
        color = ACTOR_FILL[step.actor]
        if number % 2 == 0:
            page.add(Rect(m, y - 1.5, inner, row_h, filled("#f8f5ee", None), radius=1.0))
        page.add(Circle(m + 4.5, y + 5.0, 4.0, filled(VERMILION)))
        page.add(Text(m + 4.5, y + 6.9, str(number), 10, "bold", "#ffffff", "middle"))
        pill_w = 22.0
        page.add(Rect(m + 11.0, y + 1.8, pill_w, 6.4, filled(color), radius=3.2))
        page.add(cuts.text(m + 11.0 + pill_w / 2, y + 6.2, ACTOR_NAME[step.actor], pill_w - 3, "condensed-bold", 8, 5.5,
                           "draft sheet", "#ffffff", "middle"))
        body = cuts.block(step.text(deck), text_w, row_h - 3.0, "regular", 9, 6.5, "draft sheet")
        spare = row_h - 3.0 - len(body.lines) * body.line_height()
        page.add(*text_top(body, text_x, y + spare / 2, "regular", INK))
        dx = m + inner - deck_w
        page.add(*_mini_cards(dx, y + 0.6, kept, gone, left, color))
        page.add(Text(dx, y + 10.6, f"{left} card{'s' if left != 1 else ''} left in the deck", 6.5, "condensed",
                      MUTED_INK))
        y += row_h
    y += 2.0
    legend: list[Shape] = [Rect(m, y, 3.4, 5.0, filled(ROLE_FILL["challenger"], None), radius=0.5),
              Text(m + 5.0, y + 3.8, "kept", 7, "regular", MUTED_INK),
              Rect(m + 16.0, y, 3.4, 5.0, Style(fill="#ffffff", stroke=MUTED_INK, width=0.25, dash=(0.5, 0.4)),
                   radius=0.5),
              Text(m + 21.0, y + 3.8, "removed or discarded", 7, "regular", MUTED_INK),
              Rect(m + 50.0, y, 3.4, 5.0, filled("#e9e3d6", SUMI, 0.25), radius=0.5),
              Text(m + 55.0, y + 3.8, "still in the deck", 7, "regular", MUTED_INK)]
    page.add(*legend)
    y += 11.0

    # The deck, with boxes to tick who took what.
    title = f"The draft deck: {ctx.db.draft.name}" if ctx.db.draft else "The draft deck"
    page.add(*section_title(m, y, inner, f"{title} ({deck} cards)", cuts))
    y += 8.0
    cols = (inner * 0.36, inner * 0.28, inner * 0.12, inner * 0.12, inner * 0.12)
    heads = ("Technique", "Type", "Challenger", "Defender", "Out")
    others = [t.name for tid, t in sorted(ctx.db.techniques.items()) if t not in techniques]
    room = height - m - 10.0 - (8.0 if others else 0.0) - 20.0 - y - 7.0
    row_h = max(6.0, min(11.0, room / max(1, deck)))
    page.add(Rect(m, y, inner, 7.0, filled(SUMI, None), radius=1.0))
    x = m
    for head, cw in zip(heads, cols, strict=True):
        left = head in ("Technique", "Type")
        page.add(Text(x + (2.5 if x == m else 1.0) if left else x + cw / 2, y + 4.8, head, 8, "bold", "#ffffff",
                      "start" if left else "middle"))
        x += cw
    y += 7.0
    for index, technique in enumerate(techniques):
        if index % 2:
            page.add(Rect(m, y, inner, row_h, filled("#f8f5ee", None)))
        name = cuts.line(technique.name, cols[0] - 4, "bold", 9, 6, f"technique '{technique.id}' name")
        base = y + row_h / 2 + (0.0 if technique.translation and row_h >= 9 else 1.2)
        page.add(Text(m + 2.5, base, name.lines[0], name.size, "bold", SUMI))
        if technique.translation and row_h >= 9:  # under the name
            tr = cuts.line(technique.translation, cols[0] - 4, "regular", 7, 5, f"technique '{technique.id}'")
            page.add(Text(m + 2.5, base + 3.4, tr.lines[0], tr.size, "regular", MUTED_INK))
        elif technique.translation:  # beside it
            beside = m + 2.5 + text_width(name.lines[0], "bold", name.size) + 2.0
            tr = cuts.line(technique.translation, m + cols[0] - 2.0 - beside, "regular", 7, 5,
                           f"technique '{technique.id}'")
            page.add(Text(beside, base, tr.lines[0], tr.size, "regular", MUTED_INK))
        kind = cuts.line(technique.type, cols[1] - 4, "regular", 8, 5.5, f"technique '{technique.id}' type")
        page.add(Text(m + cols[0] + 1.0, y + row_h / 2 + 1.2, kind.lines[0], kind.size, "regular", INK))
        x = m + cols[0] + cols[1]
        for cw in cols[2:]:
            box = min(5.0, row_h - 2.0)
            page.add(Rect(x + cw / 2 - box / 2, y + row_h / 2 - box / 2, box, box, filled("#ffffff", SUMI, 0.35),
                          radius=0.6))
            x += cw
        y += row_h
    page.add(Line(m, y, m + inner, y, Style(stroke=RULE_INK, width=0.3)))
    if others:
        note = f"Not in this deck: {', '.join(others)}."
        fitted = cuts.block(note, inner, 8.0, "regular", 7.5, 5.5, "draft sheet")
        page.add(*text_top(fitted, m, y + 2.5, "regular", MUTED_INK))
        y += 2.5 + len(fitted.lines) * fitted.line_height()
    after = ("After the draft: keep your 2 techniques secret, face down in the two technique spaces of your mat. Each "
             "turn you play one of them face down; between turns you may switch which one you play.")
    fitted = cuts.block(after, inner - 8.0, 14.0, "regular", 8.5, 6, "draft sheet")
    box_h = len(fitted.lines) * fitted.line_height() + 4.0
    box_y = y + 6.0
    page.add(Rect(m, box_y, inner, box_h, filled(TINT, RULE_INK, 0.3), radius=1.5))
    page.add(*text_top(fitted, m + 4.0, box_y + 2.0, "regular", INK))
    page.add(Text(width / 2, height - m + 3.0, f"{ctx.name} · technique draft", 6.5, "regular", MUTED_INK,
                  "middle"))
    component = Component("sword-draft", f"{ctx.name}: technique draft", pages=[page],
                          warnings=cuts.problems)
    component.pieces = [("draft", page)]
    return component


# --- the quick reference -------------------------------------------------------------------------------

def range_table(start: Range) -> dict[tuple[Move, Move], Range]:
    """(your move, the opponent's move) -> the range after movement, for every pair: the rules engine's answer."""
    return {(mine, theirs): resolve_position(start, mine, theirs) for mine in MOVE_ORDER for theirs in MOVE_ORDER}


TABLE_HEAD_W = 17.0
CELL_H = 10.0
HEADER_H = 7.0  # the column heads, with "you" and "them" stacked in the corner
SMALLEST = 6.5  # pt: nothing on the quick reference is smaller (issue 14: readable aids)


def draw_range_table(start: Range, x: float, y: float, width: float,
                     cell_h: float = CELL_H) -> tuple[list[Shape], dict[tuple[Move, Move], Text]]:
    """One 3 x 3 table: rows are your movement, columns the opponent's. Returns the shapes and, for each
    (row, column), the text item of its cell."""
    cell_w = (width - TABLE_HEAD_W) / 3
    items: list[Shape] = [Rect(x, y, width, 7.0, filled(SUMI, None), radius=1.0)]
    items.append(Text(x + width / 2, y + 4.9, f"From {RANGE_NAME[start]}", 9, "bold", "#ffffff", "middle"))
    y += 7.0
    items.append(Rect(x, y, width, HEADER_H, filled(TINT, None)))
    items.append(Text(x + 1.0, y + 2.9, "you ↓", SMALLEST, "condensed", MUTED_INK))
    items.append(Text(x + TABLE_HEAD_W - 0.8, y + 6.1, "them →", SMALLEST, "condensed", MUTED_INK, "end"))
    for col, theirs in enumerate(MOVE_ORDER):
        cx = x + TABLE_HEAD_W + (col + 0.5) * cell_w
        items.append(Text(cx, y + 4.6, MOVE_NAME[theirs], 7.5, "condensed-bold", SUMI, "middle"))
    y += HEADER_H
    cells: dict[tuple[Move, Move], Text] = {}
    table = range_table(start)
    for row, mine in enumerate(MOVE_ORDER):
        ry = y + row * cell_h
        items.append(Rect(x, ry, TABLE_HEAD_W, cell_h, filled(TINT, None)))
        items.append(Text(x + 1.5, ry + cell_h / 2 + 1.3, MOVE_NAME[mine], 7.5, "condensed-bold", SUMI))
        for col, theirs in enumerate(MOVE_ORDER):
            result = table[(mine, theirs)]
            cx = x + TABLE_HEAD_W + col * cell_w
            items.append(Rect(cx, ry, cell_w, cell_h, filled(RANGE_FILL[result], "#ffffff", 0.5)))
            changed = result is not start
            text = Text(cx + cell_w / 2, ry + cell_h / 2 + 1.5, RANGE_SHORT[result], 9,
                        "bold" if changed else "regular", SUMI if changed else "#4a453f", "middle")
            cells[(mine, theirs)] = text
            items.append(text)
            if changed:
                closer = RANGE_ORDER.index(result) > RANGE_ORDER.index(start)
                items.append(Text(cx + cell_w - 1.2, ry + 2.9, "▲" if closer else "▼", SMALLEST, "regular", VERMILION,
                                  "end"))
    items.append(Rect(x, y - HEADER_H, width, HEADER_H + 3 * cell_h, Style(stroke=SUMI, width=0.35)))
    return items, cells


def reference_turn() -> list[str]:
    return [
        "Select: in secret, 0–2 action cards and 1 technique card, face down.",
        "Reveal: all action cards at once.",
        f"Honor: whoever played Retreat on turn {constants.HONOR_TURN} or later loses at once; both: a draw.",
        "Position: read the range tables; move the position token.",
        f"Resources: Advance {signed(move_change(Move.ADVANCE, 'momentum'))} Momentum "
        f"{signed(move_change(Move.ADVANCE, 'balance'))} Balance; Retreat "
        f"{signed(move_change(Move.RETREAT, 'momentum'))} Momentum; Stay Put "
        f"{signed(move_change(Move.STAY, 'balance'))} Balance. Never below 0, cap "
        f"{constants.RESOURCE_CAP}.",
        "Insight: each Insight player learns one hidden element.",
        "Techniques: if in range and someone attacks, players who Attack or Defend reveal their techniques, "
        "which activate on their conditions.",
        "Totals: add bonuses, calculate Attack and Defense Totals, place initiative tokens.",
        "Evades: highest Initiative declares first; a paid evade takes no damage.",
        "Damage: to both at once; 0 Health is defeat, both at 0 is a draw.",
    ]


def reference_totals() -> list[str]:
    return [
        f"Attack Total: Strength + technique bonuses + position bonuses (Advance "
        f"{signed(constants.ADVANCE_ATTACK_BONUS)}, "
        f"Close Combat {signed(constants.CLOSE_ATTACK_BONUS)}).",
        f"Defense Total: Defense + technique bonuses + position bonuses (Retreat "
        f"{signed(constants.RETREAT_DEFENSE_BONUS)}).",
        "Damage: Attack Total − Defense Total, minimum 0, for each attack not evaded.",
        "Insight: you cannot defend; an attack deals its full Attack Total (a technique may still evade).",
        "Initiative: Speed + current Balance. Tie: higher Speed first; still tied: evades resolve together.",
    ]


def reference_ranges() -> list[str]:
    return [
        "Apart: no attacks; movement and Insight only.",
        "Sword Range: Attack and Defend.",
        f"Close Combat: attacks get {signed(constants.CLOSE_ATTACK_BONUS)}; close-range technique effects apply.",
    ]


PLAYS = ("Nothing: Stay Put.", "Advance or Retreat.", "Insight.", "Attack or Defend, if in range after movement.",
         "Advance or Retreat + Attack or Defend.", "Advance or Retreat + Insight.")


def _resources_table(ctx: SwordContext, x: float, y: float, width: float, cuts: Cuts) -> tuple[list[Shape], float]:
    balance_cap, raisers = raised_cap(ctx, "balance")
    momentum_cap, m_raisers = raised_cap(ctx, "momentum")

    def cap_text(raised: int, names: list[str]) -> str:
        cap = constants.RESOURCE_CAP
        return f"{cap} ({', '.join(dict.fromkeys(names))}: {raised})" if names else str(cap)

    start = role_start()
    heads = ("", ROLE_NAME["challenger"], ROLE_NAME["defender"], "Gain", "Lose", "Cap")
    rows = (
        ("Momentum", str(start["challenger"].momentum), str(start["defender"].momentum),
         f"Advance {signed(move_change(Move.ADVANCE, 'momentum'))}",
         f"Retreat {signed(move_change(Move.RETREAT, 'momentum'))}", cap_text(momentum_cap, m_raisers)),
        ("Balance", str(start["challenger"].balance), str(start["defender"].balance),
         f"Stay Put {signed(move_change(Move.STAY, 'balance'))}",
         f"Advance {signed(move_change(Move.ADVANCE, 'balance'))}", cap_text(balance_cap, raisers)),
        ("Health", str(start["challenger"].health), str(start["defender"].health), "—",
         "1 per damage", f"{constants.START_HEALTH} · 0: defeated"),
    )
    cols = [width * f for f in (0.16, 0.14, 0.14, 0.16, 0.16, 0.24)]
    row_h = 6.8
    items: list[Shape] = [Rect(x, y, width, row_h, filled(SUMI, None), radius=1.0)]
    cx = x
    for head, cw in zip(heads, cols, strict=True):
        if head:
            items.append(Text(cx + cw / 2, y + 4.6, head, 7.5, "bold", "#ffffff", "middle"))
        cx += cw
    items.append(Text(x + 2.0, y + 4.6, "starts with →", 6.5, "condensed", "#d8d0c2"))
    for r, row in enumerate(rows, start=1):
        ry = y + r * row_h
        if r % 2 == 0:
            items.append(Rect(x, ry, width, row_h, filled("#f8f5ee", None)))
        cx = x
        for c, (cell, cw) in enumerate(zip(row, cols, strict=True)):
            font: FontName = "bold" if c == 0 else "regular"
            fitted = cuts.line(cell, cw - 3.0, font, 8, 5.5, "resources table")
            tx = cx + 2.0 if c == 0 else cx + cw / 2
            items.append(Text(tx, ry + 4.6, fitted.lines[0], fitted.size, font, SUMI, "start" if c == 0 else "middle"))
            cx += cw
    bottom = y + 4 * row_h
    items.append(Line(x, bottom, x + width, bottom, Style(stroke=RULE_INK, width=0.3)))
    return items, bottom - y


def quick_reference_page(ctx: SwordContext, cuts: Cuts) -> tuple[Page, dict[Range, dict[tuple[Move, Move], Text]]]:
    width, height = PAPER_SIZES[ctx.paper]
    m = MARGIN
    inner = width - 2 * m
    page = Page(width, height, label="Quick reference")
    page.add(*sheet_title(m, m, inner, "Quick reference", "Both duellists start Apart. A duel lasts 3–5 turns; "
                          "most end with one clean hit.", cuts, "quick reference", ctx.name))
    y = m + 21.0
    page.add(*section_title(m, y, inner, "Position: the range after both players reveal their movement", cuts))
    y += 8.0
    note = ("Rows: your movement card; columns: your opponent's. No movement card counts as Stay. "
            "▲ closer, ▼ farther; bold: the range changes.")
    fitted = cuts.block(note, inner, 7.0, "regular", 7.5, SMALLEST, "quick reference")
    page.add(*text_top(fitted, m, y, "regular", MUTED_INK))
    y += len(fitted.lines) * fitted.line_height() + 2.0
    gap = 6.0
    table_w = (inner - 2 * gap) / 3
    all_cells: dict[Range, dict[tuple[Move, Move], Text]] = {}
    cell_h = CELL_H + max(0.0, min(3.0, (height - 280.0) / 5))  # taller paper: roomier tables
    for index, start in enumerate(RANGE_ORDER):
        items, cells = draw_range_table(start, m + index * (table_w + gap), y, table_w, cell_h)
        page.add(*items)
        all_cells[start] = cells
    y += 7.0 + HEADER_H + 3 * cell_h + 5.0

    honor = (f"Honor is checked before position: playing Retreat on turn {constants.HONOR_TURN} or later loses at "
             f"once by "
             "dishonor; if both players retreat, the duel is a draw.")
    fitted = cuts.block(honor, inner - 6.0, 9.0, "regular", 8, 6, "quick reference honor")
    box_h = len(fitted.lines) * fitted.line_height() + 3.0
    page.add(Rect(m, y, inner, box_h, filled("#f7e3df", VERMILION, 0.35), radius=1.2))
    page.add(*text_top(fitted, m + 3.0, y + 1.5, "regular", INK))
    y += box_h + 5.0

    # Resources table sits at the bottom; the two columns share what is left.
    table_h = 4 * 6.8
    bottom = height - m - 6.0 - table_h - 12.0
    col_gap = 7.0
    left_w = inner * 0.52
    right_x = m + left_w + col_gap
    right_w = inner - left_w - col_gap
    page.add(*section_title(m, y, left_w, "Turn sequence", cuts))
    items, left_used = numbered_list(reference_turn(), m, y + 8.0, left_w, bottom - y - 8.0, cuts,
                                     "quick reference turn", size=9.0 if height < 290 else 9.5, min_size=5.5,
                                     gap=1.3 if height < 290 else 1.8)
    page.add(*items)
    ry = y
    sections = (("Totals, damage, initiative", reference_totals(), 1.3, 60.0),
                ("Ranges", reference_ranges(), 0.8, 33.0), ("You may play", list(PLAYS), 0.5, 0.0))
    for title, texts, gap, reserve in sections:  # reserve: room kept for the sections below
        page.add(*section_title(right_x, ry, right_w, title, cuts))
        room = bottom - ry - 8.0 - reserve
        items, used = numbered_list(texts, right_x, ry + 8.0, right_w, room, cuts, f"quick reference {title}",
                                    size=8.6 if height < 290 else 9.0, min_size=5.5, gap=gap, numbers=False)
        page.add(*items)
        ry += 8.0 + used + 5.0

    ty = min(height - m - 6.0 - table_h - 8.0, max(y + 8.0 + left_used, ry - 5.0) + 8.0)
    page.add(*section_title(m, ty, inner, "Resources", cuts))
    items, _ = _resources_table(ctx, m, ty + 8.0, inner, cuts)
    page.add(*items)
    page.add(Text(width / 2, height - m + 3.0, f"{ctx.name} · quick reference", 6.5, "regular", MUTED_INK,
                  "middle"))
    return page, all_cells


def build_quick_reference(ctx: SwordContext) -> Component:
    cuts = Cuts(ctx.locate)
    page, _ = quick_reference_page(ctx, cuts)
    component = Component("sword-reference", f"{ctx.name}: quick reference", pages=[page],
                          warnings=cuts.problems)
    component.pieces = [("quick-reference", page)]
    return component

