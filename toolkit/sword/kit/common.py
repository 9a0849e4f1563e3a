"""Shared pieces of the sword-duel (spec 002) printable kit: the spec's numbers, the two player sides,
colours, patterns, drawn icons and text fitting that records what had to be cut.

The numbers below are the only place the kit states the rules' quantities; every printed sentence is
built from them. Range tables are never typed: they come from `toolkit.sword.rules.positions`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from toolkit.kit import cards
from toolkit.kit.fits import Spot, TextFits, data_spot
from toolkit.kit.palette import INK, TEAM
from toolkit.players import Player
from toolkit.render.fonts import printable, text_width
from toolkit.render.scene import (
    PT_TO_MM,
    Circle,
    FontName,
    Group,
    Line,
    Polygon,
    Rect,
    Shape,
    Style,
    Text,
    filled,
)
from toolkit.render.textfit import ELLIPSIS, LEADING, Fitted, fit_line, fit_text, wrap
from toolkit.sword import constants
from toolkit.sword.context import SwordContext
from toolkit.sword.model import Resource, Technique
from toolkit.sword.rules import effects
from toolkit.sword.rules.positions import Move, Range

# --- Spec 002 numbers, read from the rules engine so the sheets cannot disagree with it -----------------


@dataclass(frozen=True)
class Start:
    momentum: int
    balance: int
    health: int


def role_start() -> dict[str, Start]:
    """Each role's starting Momentum, Balance and Health, by role id."""
    return {role: Start(*resources, constants.START_HEALTH) for role, resources in constants.START_RESOURCES.items()}


def move_change(move: Move, resource: Resource) -> int:
    """What a movement card does to one of its player's resources (0: nothing)."""
    return constants.MOVE_RESOURCES[move.value].get(resource, 0)


EVADE_TOKENS = 6

# --- words ---------------------------------------------------------------------------------------------

RANGE_NAME = {Range.APART: "Apart", Range.SWORD: "Sword Range", Range.CLOSE: "Close Combat"}
RANGE_SHORT = {Range.APART: "Apart", Range.SWORD: "Sword", Range.CLOSE: "Close"}
MOVE_NAME = {Move.ADVANCE: "Advance", Move.STAY: "Stay", Move.RETREAT: "Retreat"}
MOVE_ORDER = (Move.ADVANCE, Move.STAY, Move.RETREAT)
RANGE_ORDER = (Range.APART, Range.SWORD, Range.CLOSE)
ROLE_NAME = {"challenger": "Challenger", "defender": "Defender"}


def signed(value: int) -> str:
    """+1 / −1 with a true minus sign."""
    return f"+{value}" if value >= 0 else f"−{-value}"


def honor_text() -> str:
    return (f"Playing Retreat on turn {constants.HONOR_TURN} or later loses the duel at once by dishonor. "
            "If both players retreat, the duel is a draw.")


def raised_cap(ctx: SwordContext, resource: Resource) -> tuple[int, list[str]]:
    """The highest cap any technique of the kit gives `resource` (the rules' `effects.cap`), and the names
    of the techniques that raise it."""
    best, names = constants.RESOURCE_CAP, []
    for technique in ctx.db.draft_techniques():
        cap = effects.cap(technique, resource)
        if cap > constants.RESOURCE_CAP:
            best = max(best, cap)
            names.append(technique.name)
    return best, names


def initiative_values(ctx: SwordContext) -> tuple[int, ...]:
    """Every Initiative the kit's techniques let a player reach (the rules' `effects.initiative_bounds`),
    from the lowest to the highest over the drafted techniques."""
    bounds = [effects.initiative_bounds(technique) for technique in ctx.db.draft_techniques()]
    lowest = min((low for low, _ in bounds), default=constants.ATTRIBUTE_MIN)
    highest = max((high for _, high in bounds), default=constants.ATTRIBUTE_MAX + constants.RESOURCE_CAP)
    return tuple(range(lowest, highest + 1))


# --- colours -------------------------------------------------------------------------------------------

FACE = "#fbf8f1"  # card and mat paper
SUMI = "#2e2b28"  # technique headers, headings
VERMILION = "#a23a2a"  # the game's accent
MUTED_INK = "#6b655d"
RULE_INK = "#c9c1b3"
TINT = "#efe9dd"
RANGE_FILL = {Range.APART: "#f6f3ec", Range.SWORD: "#e3d8c3", Range.CLOSE: "#c2ae8b"}
ROLE_FILL = {"challenger": VERMILION, "defender": "#2f5d62"}


@dataclass(frozen=True)
class PlayerLook:
    """One player's colour, letter and pattern: a greyscale print still tells the sets apart."""

    player: Player
    fill: str
    ink: str
    pattern_ink: str  # pattern drawn over `fill`
    tint: str  # light background for mats
    pattern: str  # "stripes" or "dots"

    @property
    def key(self) -> str:
        """The letter printed on the player's pieces and used in their file names."""
        return self.player.value

    @property
    def name(self) -> str:
        return f"Player {self.key}"


LOOKS: tuple[PlayerLook, PlayerLook] = (
    PlayerLook(Player.A, TEAM[Player.A].fill, TEAM[Player.A].ink, "#4d6bab", "#e4e9f3", "stripes"),
    PlayerLook(Player.B, TEAM[Player.B].fill, TEAM[Player.B].ink, "#c9971c", "#fbf0cf", "dots"),
)


# --- patterns and badges -------------------------------------------------------------------------------

def pattern(side: PlayerLook, x: float, y: float, w: float, h: float, color: str | None = None,
            step: float = 2.6) -> Group:
    """The side's pattern filling a rectangle: diagonal stripes for A, a dot grid for B."""
    ink = color or side.pattern_ink
    items: list[Shape] = []
    if side.pattern == "stripes":
        k = -h
        while k < w + h:
            items.append(Line(x + k, y + h, x + k + h, y, Style(stroke=ink, width=step * 0.32)))
            k += step
    else:
        row = 0
        yy = y + step / 2
        while yy < y + h + step:
            xx = x + (step / 2 if row % 2 else 0.0)
            while xx < x + w + step:
                items.append(Circle(xx, yy, step * 0.22, filled(ink)))
                xx += step
            yy += step * 0.87
            row += 1
    return Group(tuple(items), clip=Rect(x, y, w, h))


def ring_pattern(side: PlayerLook, r_outer: float, r_inner: float, color: str) -> list[Shape]:
    """The side's pattern around a ring (discs cannot be clipped): radial ticks for A, dots for B."""
    items: list[Shape] = []
    count = max(12, int(2 * math.pi * (r_outer + r_inner) / 2 / 1.9))
    mid = (r_outer + r_inner) / 2
    for i in range(count):
        a = 2 * math.pi * i / count
        s, c = math.sin(a), math.cos(a)
        if side.pattern == "stripes":
            items.append(Line(r_inner * s, -r_inner * c, r_outer * s, -r_outer * c,
                              Style(stroke=color, width=0.45)))
        else:
            items.append(Circle(mid * s, -mid * c, (r_outer - r_inner) * 0.24, filled(color)))
    return items


def letter_badge(side: PlayerLook, cx: float, cy: float, r: float, size: float | None = None) -> list[Shape]:
    size = size or r * 2.6
    return [Circle(cx, cy, r, filled(side.fill, side.ink, 0.35)),
            Text(cx, cy + size * PT_TO_MM * 0.36, side.key, size, "bold", side.ink, "middle")]


# --- drawn icons (about a centre, `s` is the half-size in mm) -----------------------------------------

def icon(kind: str, cx: float, cy: float, s: float, color: str, bg: str = "#ffffff") -> list[Shape]:
    """Attack (a sword), defend (a shield), advance / retreat (chevrons), insight (an eye), swords
    (two crossed swords), evade (a dodging arc)."""
    fill = filled(color)
    if kind == "attack":
        return _sword(cx, cy, s, 45.0, color)
    if kind == "swords":
        return _sword(cx, cy, s, 45.0, color, shift=0.3) + _sword(cx, cy, s, -45.0, color, shift=0.3)
    if kind == "defend":
        pts = [(-0.75, -0.85), (0.0, -1.0), (0.75, -0.85), (0.72, 0.05), (0.45, 0.6), (0.0, 1.0),
               (-0.45, 0.6), (-0.72, 0.05)]
        inner = [(x * 0.62, y * 0.62 + 0.02) for x, y in pts]
        return [Polygon(tuple((cx + x * s, cy + y * s) for x, y in pts), fill),
                Polygon(tuple((cx + x * s, cy + y * s) for x, y in inner), Style(stroke=bg, width=s * 0.07)),
                Line(cx, cy - 0.55 * s, cx, cy + 0.6 * s, Style(stroke=bg, width=s * 0.07))]
    if kind in ("advance", "retreat"):
        flip = 1.0 if kind == "advance" else -1.0  # advance points up (forward), retreat down
        items: list[Shape] = []
        for tip in (-0.86, -0.16):
            pts = [(-0.85, tip + 0.7), (0.0, tip), (0.85, tip + 0.7), (0.85, tip + 1.02), (0.0, tip + 0.32),
                   (-0.85, tip + 1.02)]
            items.append(Polygon(tuple((cx + x * s, cy + y * flip * s) for x, y in pts), fill))
        return items
    if kind == "insight":
        top = [(math.cos(t) * 1.0, -math.sin(t) * 0.62) for t in _span(0, math.pi, 14)]
        bottom = [(math.cos(t) * 1.0, math.sin(t) * 0.62) for t in _span(math.pi, 0, 14)]
        outline = tuple((cx + x * s, cy + y * s) for x, y in top + bottom[1:-1])
        return [Polygon(outline, fill), Circle(cx, cy, s * 0.44, filled(bg)), Circle(cx, cy, s * 0.22, fill)]
    if kind == "evade":
        arc = [(math.cos(t) * 0.8, math.sin(t) * 0.8) for t in _span(math.radians(200), math.radians(-20), 16)]
        points = tuple((cx + x * s, cy + y * s + 0.15 * s) for x, y in arc)
        end_x, end_y = points[-1]
        head = ((end_x + 0.32 * s, end_y - 0.05 * s), (end_x - 0.2 * s, end_y - 0.42 * s),
                (end_x - 0.08 * s, end_y + 0.3 * s))
        return [Polygon(points, Style(stroke=color, width=s * 0.22), closed=False), Polygon(head, fill)]
    return [Circle(cx, cy, s * 0.6, fill)]


def _span(start: float, stop: float, count: int) -> list[float]:
    return [start + (stop - start) * i / (count - 1) for i in range(count)]


def _sword(cx: float, cy: float, s: float, angle: float, color: str, shift: float = 0.0) -> list[Shape]:
    """A sword centred on (cx, cy), tip up, turned `angle` degrees clockwise; `shift` (in half-sizes)
    moves it towards the grip so that crossed swords cross on their blades."""
    blade = [(-0.11, -0.8), (0.0, -1.0), (0.11, -0.8), (0.11, 0.36), (-0.11, 0.36)]
    guard = [(-0.34, 0.36), (0.34, 0.36), (0.34, 0.5), (-0.34, 0.5)]
    grip = [(-0.09, 0.5), (0.09, 0.5), (0.09, 1.0), (-0.09, 1.0)]
    a = math.radians(angle)

    def turn(points: list[tuple[float, float]]) -> tuple[tuple[float, float], ...]:
        return tuple((cx + (x * math.cos(a) - (y + shift) * math.sin(a)) * s,
                       cy + (x * math.sin(a) + (y + shift) * math.cos(a)) * s) for x, y in points)

    return [Polygon(turn(part), filled(color)) for part in (blade, guard, grip)]


# --- text fitting that remembers what was cut ----------------------------------------------------------


class Cuts(TextFits):
    """The shared text-fit collector (R001), with the fitting calls the sword sheets use."""

    def line(self, text: str, width: float, font: FontName, size: float, min_size: float, where: Spot | str) -> Fitted:
        fitted = fit_line(text, width, font, size, min_size)
        if fitted.overflow:
            self.cut(where, text)
        return fitted

    def block(self, text: str, width: float, height: float, font: FontName, size: float, min_size: float,
              where: Spot | str) -> Fitted:
        fitted = fit_text(text, width, height, font, size, min_size)
        if fitted.overflow:
            self.cut(where, text)
        return fitted

    def text(self, x: float, y: float, text: str, width: float, font: FontName, size: float, min_size: float,
             where: Spot | str, color: str = INK, anchor: str = "start") -> Text:
        """One line with its baseline at y, shrunk (then cut) to `width`."""
        fitted = self.line(text, width, font, size, min_size, where)
        return Text(x, y, fitted.lines[0], fitted.size, font, color, anchor)  # type: ignore[arg-type]


def split_label(rule: str) -> tuple[str, str]:
    """'Evade: spend 3 Balance' -> ('Evade:', 'spend 3 Balance'); no label when there is no short prefix."""
    head, sep, rest = rule.partition(":")
    if sep and 0 < len(head) <= 20 and rest.strip():
        return head + sep, rest.strip()
    return "", rule


@dataclass(frozen=True)
class Labelled:
    """A rule line laid out as a bold label run-in with its wrapped body."""

    label: str
    lines: tuple[str, ...]
    size: float
    label_w: float  # the label and its following space

    def height(self) -> float:
        return len(self.lines) * self.size * PT_TO_MM * LEADING


def wrap_labelled(label: str, body: str, width: float, size: float, font: FontName = "regular",
                  label_font: FontName = "bold") -> Labelled:
    label, body = printable(label, label_font), printable(body, font)
    label_w = text_width(label + " ", label_font, size) if label else 0.0
    return Labelled(label, tuple(wrap(body, width, font, size, first_width=width - label_w)), size, label_w)


def fit_labelled(rules: Sequence[tuple[str, str]], width: float, height: float, gap: float, size: float,
                 min_size: float, font: FontName = "regular") -> tuple[list[Labelled], bool]:
    """Every rule at one common size (the largest that fits); cut the last lines when even the floor
    size cannot hold them. Returns (blocks, overflowed)."""
    current = size
    while True:
        blocks = [wrap_labelled(label, body, width, current, font) for label, body in rules]
        total = sum(b.height() for b in blocks) + gap * max(0, len(blocks) - 1)
        if total <= height + 1e-6:
            return blocks, False
        if current - 0.25 < min_size - 1e-6:
            break
        current -= 0.25
    line_h = current * PT_TO_MM * LEADING
    kept: list[Labelled] = []
    used = 0.0
    for block in blocks:
        room = int((height - used + 1e-6) // line_h)
        if room <= 0:
            break
        lines = list(block.lines[:room])
        if room < len(block.lines):
            last = lines[-1]
            while last and text_width(last + ELLIPSIS, font, current) > width - (block.label_w if room == 1 else 0):
                last = last[:-1]
            lines[-1] = last.rstrip() + ELLIPSIS
        kept.append(Labelled(block.label, tuple(lines), current, block.label_w))
        used += len(lines) * line_h + gap
    return kept, True


def labelled_items(block: Labelled, x: float, y: float, label_color: str, color: str = INK,
                   font: FontName = "regular") -> list[Text]:
    """Text items for a labelled block whose top edge is at y."""
    line_h = block.size * PT_TO_MM * LEADING
    ascent = block.size * PT_TO_MM * 0.8
    items: list[Text] = []
    if block.label:
        items.append(Text(x, y + ascent, block.label, block.size, "bold", label_color))
    for i, line in enumerate(block.lines):
        if line:
            items.append(Text(x + (block.label_w if i == 0 else 0.0), y + ascent + i * line_h, line, block.size,
                              font, color))
    return items


def text_top(fitted: Fitted, x: float, y: float, font: FontName = "regular", color: str = INK,
             anchor: str = "start") -> list[Text]:
    """Like textfit.text_lines, for any anchor."""
    line_h = fitted.line_height()
    ascent = fitted.size * PT_TO_MM * 0.8
    return [Text(x, y + ascent + i * line_h, line, fitted.size, font, color, anchor)  # type: ignore[arg-type]
            for i, line in enumerate(fitted.lines)]


# --- pieces --------------------------------------------------------------------------------------------

card_piece = cards.card_piece  # one unimposed card with its bleed (shared with the other kits)


def technique_where(technique: Technique, field_name: str) -> Spot:
    return data_spot(technique.id, field_name, "technique")


# --- sheet furniture -----------------------------------------------------------------------------------

SHEET_MARGIN = 10.0


def sheet_title(x: float, y: float, width: float, title: str, subtitle: str, cuts: Cuts,
                where: Spot | str, game: str = constants.GAME_NAME) -> list[Shape]:
    """Title (baseline at y + 7), a vermilion rule, and a muted subtitle under it: 15 mm tall."""
    items: list[Shape] = [cuts.text(x, y + 7.0, title, width * 0.62, "bold", 17, 10, where, SUMI)]
    items.append(Text(x + width, y + 7.0, game, 8, "condensed", MUTED_INK, "end"))
    items.append(Rect(x, y + 9.5, width, 0.8, filled(VERMILION)))
    if subtitle:
        items.append(cuts.text(x, y + 14.4, subtitle, width, "regular", 8, 6, where, MUTED_INK))
    return items


def section_title(x: float, y: float, width: float, text: str, cuts: Cuts, size: float = 10.5) -> list[Shape]:
    """A heading whose baseline is at y + 4, with a thin rule under it (6 mm tall)."""
    return [cuts.text(x, y + 4.0, text, width, "bold", size, 7, f"heading '{text}'", SUMI),
            Line(x, y + 5.6, x + width, y + 5.6, Style(stroke=RULE_INK, width=0.3))]


def numbered_list(texts: Sequence[str], x: float, y: float, width: float, height: float, cuts: Cuts, where: Spot | str,
                  size: float = 8.5, min_size: float = 5.5, gap: float = 1.2, numbers: bool = True,
                  label_color: str = VERMILION) -> tuple[list[Shape], float]:
    """A list with hanging numbers (or bullets), every item at one common size; returns (items, height used).
    Each text may start with a 'Label:' that is set in bold."""
    gutter = max(4.0, text_width(f"{len(texts)}." if numbers else "•", "bold", size) + 1.8)
    rules = [split_label(text) if ":" in text[:22] else ("", text) for text in texts]
    blocks, cut = fit_labelled(rules, width - gutter, height, gap, size, min_size)
    if cut:
        cuts.cut(where, " / ".join(texts))
    items: list[Shape] = []
    yy = y
    for index, block in enumerate(blocks, start=1):
        mark = f"{index}." if numbers else "•"
        items.append(Text(x, yy + block.size * PT_TO_MM * 0.8, mark, block.size, "bold", label_color))
        items += labelled_items(block, x + gutter, yy, SUMI)
        yy += block.height() + gap
    return items, yy - y - (gap if blocks else 0.0)
