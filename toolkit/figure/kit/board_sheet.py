"""The board sheet: the engagement grid at its real size, with each player's Hangar and Repair Bay zone.

The drawing is built in its own millimetre coordinates (origin top-left): B's zone strip at the top
(turned 180 degrees so it reads from B's side of the table), the board graph in the middle at the
coordinates of the board file, and A's zone strip at the bottom. Node circles are a little larger than a
token so tokens sit inside them. The drawing is tiled onto as many sheets as the paper needs, with the
seams kept off the goal circles and each sheet's assembly note in the empty space beside the board; or,
with `--board-paper a3|tabloid`, printed whole on one landscape sheet.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from toolkit.figure import constants
from toolkit.figure.kit.context import KitContext
from toolkit.figure.rules.board import Board
from toolkit.kit.component import Component
from toolkit.kit.palette import INK, MUTED, TEAM, Swatch
from toolkit.players import Player
from toolkit.problems import Problem
from toolkit.render.fonts import text_width
from toolkit.render.impose import LARGE_PAPER_SIZES, PAPER_SIZES, TILE_MARGIN, Box, tile
from toolkit.render.scene import (
    PT_TO_MM,
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
from toolkit.render.textfit import Fitted, fit_line, fit_text, text_lines

NODE_MARGIN = 0.5  # node circles are this much wider than a token on every side
RING = 1.5  # width of the team-coloured ring around goals and entries
ZONE_PAD = 1.0  # inside a zone strip, around its circles
ZONE_GAP = 3.0  # between neighbouring zone circles
GROUP_GAP = 7.0  # between the Hangar circles and the Repair Bay label
BADGE_W = 22.0  # the player badge at the left end of a zone strip
MIN_GAP, MAX_GAP = 2.0, 8.0  # between the board and a zone strip
SIDE_ROOM = 34.0  # at least this much free width beside the board, for the title

ROUTE = Style(stroke="#2b2b2b", width=1.0)
NODE = Style(fill="#ffffff", stroke="#2b2b2b", width=0.6)
SLOT = Style(fill="#ffffff", stroke="#555555", width=0.5)
PLUS = "#c0392b"


def tint(color: str, amount: float) -> str:
    """`color` mixed with white: amount 0 is white, 1 the colour itself."""
    r, g, b = (int(color[i:i + 2], 16) for i in (1, 3, 5))
    return "#" + "".join(f"{round(255 - (255 - c) * amount):02x}" for c in (r, g, b))


def shade(color: str, amount: float) -> str:
    """`color` mixed with black: amount 1 is the colour itself, 0 black (keeps light colours visible in grey)."""
    r, g, b = (int(color[i:i + 2], 16) for i in (1, 3, 5))
    return "#" + "".join(f"{round(c * amount):02x}" for c in (r, g, b))


@dataclass
class BoardDrawing:
    """The whole board sheet in its own coordinates, before tiling."""

    items: list[Shape]
    width: float
    height: float
    origin: tuple[float, float]  # where board coordinate (0, 0) lies in the drawing
    warnings: list[Problem] = field(default_factory=list)
    keep_whole: list[Box] = field(default_factory=list)  # goal circles: no seam runs through them
    note_spots: list[Box] = field(default_factory=list)  # empty space beside the board, for assembly notes


def node_radius(board: Board) -> float:
    return board.token_diameter_mm / 2 + NODE_MARGIN


THEME_HINT = "use a shorter term in the theme"


def _fit_label(ctx: KitContext, text: str, width: float, size: float, min_size: float, font: FontName,
               what: str) -> Fitted:
    fitted = fit_line(text, width, font, size, min_size)
    if fitted.overflow:
        ctx.fits.note(f"board {what} '{text}' does not fit and was cut short", THEME_HINT)
    return fitted


# --- the board graph ---------------------------------------------------------------------------------

def _badge(cx: float, cy: float, letter: str, team: Swatch, radius: float) -> list[Shape]:
    """A small disc in the team colour with the side letter: readable in colour and in grey."""
    size = radius * 2 / PT_TO_MM * 0.62
    return [Circle(cx, cy, radius, filled(team.fill, INK, 0.25)),
            Text(cx, cy + size * PT_TO_MM * 0.36, letter, size, "bold", team.ink, "middle")]


def _chevron(cx: float, cy: float, width: float, height: float, thickness: float) -> tuple[tuple[float, float], ...]:
    """An upward chevron whose tip is at (cx, cy - height / 2)."""
    top = cy - height / 2
    half = width / 2
    return ((cx, top), (cx + half, top + height - thickness), (cx + half, top + height),
            (cx, top + thickness), (cx - half, top + height), (cx - half, top + height - thickness))


def _goal_label(ctx: KitContext, side: Player, r: float) -> list[Shape]:
    """Drawn about (0, 0), reading from A's side; B's copy is turned 180 degrees."""
    team = TEAM[side]
    word = fit_text(ctx.theme.terms.goal, r * 1.45, r * 0.62, "bold", 6.5, 4.5)
    if word.overflow:
        ctx.fits.note(f"board label '{ctx.theme.terms.goal}' does not fit its goal circle", THEME_HINT)
    block = len(word.lines) * word.line_height()
    items: list[Shape] = [*text_lines(word, 0, -r * 0.2 - block, "bold", INK, "middle")]
    items += _badge(0, r * 0.38, side.value, team, r * 0.36)
    return items


def _entry_label(ctx: KitContext, side: Player, r: float) -> list[Shape]:
    team = TEAM[side]
    items: list[Shape] = []
    for offset in (0.0, 2.6):  # a double chevron pointing into the board
        items.append(Polygon(_chevron(0, -r * 0.62 + offset, 8.0, 3.6, 1.3), filled(team.fill, INK, 0.2)))
    word = fit_text(ctx.theme.terms.entry, r * 1.5, r * 0.5, "bold", 6.0, 4.5)
    if word.overflow:
        ctx.fits.note(f"board label '{ctx.theme.terms.entry}' does not fit its entry circle", THEME_HINT)
    block = len(word.lines) * word.line_height()
    items += text_lines(word, 0, r * 0.12 - block / 2, "bold", INK, "middle")
    items += _badge(0, r * 0.6, side.value, team, r * 0.24)
    return items


NODE_NAME_SIZE = 5.5  # pt


def _node_name(name: str, cx: float, top: float) -> list[Shape]:
    """The point's name as `duelkit play` and game records write it (r4c3, i0c1), small, just under its
    circle on a white pill so a route under it does not hide it."""
    width = text_width(name, "condensed", NODE_NAME_SIZE) + 1.6
    height = NODE_NAME_SIZE * PT_TO_MM + 0.6
    return [Rect(cx - width / 2, top + 0.5, width, height, filled("#ffffff"), radius=height / 2),
            Text(cx, top + 0.5 + height * 0.78, name, NODE_NAME_SIZE, "condensed", MUTED, "middle")]


def _board_items(ctx: KitContext, ox: float, oy: float) -> list[Shape]:
    board = ctx.db.board
    r = node_radius(board)
    items: list[Shape] = []
    for a, b in board.routes:
        if a in board.nodes and b in board.nodes:
            na, nb = board.nodes[a], board.nodes[b]
            items.append(Line(ox + na.x, oy + na.y, ox + nb.x, oy + nb.y, ROUTE))
    labels: list[Shape] = []
    for name in sorted(board.nodes):
        node = board.nodes[name]
        cx, cy = ox + node.x, oy + node.y
        labels += _node_name(name, cx, cy + r + RING)
        side = node.side
        if node.role == "goal" and side:
            team = TEAM[side]
            items.append(Circle(cx, cy, r + RING, filled(team.fill, INK, 0.3)))
            items.append(Circle(cx, cy, r, Style(fill=tint(team.fill, 0.14), stroke=INK, width=0.3)))
            art = _goal_label(ctx, side, r)
        elif node.role == "entry" and side:
            team = TEAM[side]
            items.append(Circle(cx, cy, r + RING, Style(fill="#ffffff", stroke=shade(team.fill, 0.7), width=0.9)))
            items.append(Circle(cx, cy, r, NODE))
            art = _entry_label(ctx, side, r)
        else:
            items.append(Circle(cx, cy, r, NODE))
            continue
        labels.append(Group(tuple(art), dx=cx, dy=cy, rotate=180.0 if side is Player.B else 0.0))
    return items + labels


# --- the player zones --------------------------------------------------------------------------------

@dataclass(frozen=True)
class ZoneLayout:
    label_w: float
    diameter: float

    @property
    def height(self) -> float:
        return self.diameter + 2 * ZONE_PAD

    @property
    def hangar_x(self) -> float:
        return ZONE_PAD + BADGE_W + 3 + self.label_w + 2

    @property
    def bay_label_x(self) -> float:
        return self.hangar_x + constants.HANGAR_SLOTS * (self.diameter + ZONE_GAP) - ZONE_GAP + GROUP_GAP

    @property
    def bay_x(self) -> float:
        return self.bay_label_x + self.label_w + 2

    @property
    def width(self) -> float:
        return self.bay_x + constants.REPAIR_BAY_CAPACITY * (self.diameter + ZONE_GAP) - ZONE_GAP + ZONE_PAD


def _zone_layout(ctx: KitContext) -> ZoneLayout:
    terms = ctx.theme.terms
    widest = max(text_width(word, "bold", 9) for word in (terms.hangar, terms.repair_bay))
    return ZoneLayout(label_w=min(24.0, max(14.0, widest + 1)), diameter=2 * node_radius(ctx.db.board))


def _group_label(ctx: KitContext, text: str, x: float, width: float, height: float) -> list[Text]:
    fitted = fit_text(text, width, height, "bold", 9, 6)
    if fitted.overflow:
        ctx.fits.note(f"zone label '{text}' does not fit and was cut short", THEME_HINT)
    block = len(fitted.lines) * fitted.line_height()
    return text_lines(fitted, x + width, ZONE_PAD + (height - block) / 2, "bold", INK, "end")


def _plus(cx: float, cy: float, arm: float, half: float) -> Polygon:
    """A '+' cross: arms reach `arm` from the centre and are 2 x `half` thick."""
    a, h = arm, half
    points = ((-h, -a), (h, -a), (h, -h), (a, -h), (a, h), (h, h), (h, a), (-h, a), (-h, h), (-a, h), (-a, -h),
              (-h, -h))
    return Polygon(tuple((cx + x, cy + y) for x, y in points), filled(PLUS))


def _zone(ctx: KitContext, side: Player, layout: ZoneLayout) -> list[Shape]:
    """One player's strip in its own coordinates, reading from that player's side of the table."""
    terms = ctx.theme.terms
    team = TEAM[side]
    d, height = layout.diameter, layout.height
    items: list[Shape] = [Rect(0, 0, layout.width, height, Style(fill=tint(team.fill, 0.10),
                                                                 stroke=shade(team.fill, 0.7), width=0.6), radius=3.0)]
    # player badge: the player word and the side letter, in the team colour
    items.append(Rect(ZONE_PAD, ZONE_PAD, BADGE_W, d, filled(team.fill, INK, 0.3), radius=2.0))
    word = _fit_label(ctx, terms.player, BADGE_W - 3, 7.5, 5, "bold", "player label")
    items.append(Text(ZONE_PAD + BADGE_W / 2, ZONE_PAD + 6.2, word.lines[0], word.size, "bold", team.ink, "middle"))
    items.append(Text(ZONE_PAD + BADGE_W / 2, ZONE_PAD + d - 4.0, side.value, 30, "bold", team.ink, "middle"))
    # Hangar: six token circles
    items += _group_label(ctx, terms.hangar, ZONE_PAD + BADGE_W + 3, layout.label_w, d)
    cy = ZONE_PAD + d / 2
    for i in range(constants.HANGAR_SLOTS):
        items.append(Circle(layout.hangar_x + d / 2 + i * (d + ZONE_GAP), cy, d / 2, SLOT))
    # Repair Bay: two token circles marked '+'
    items += _group_label(ctx, terms.repair_bay, layout.bay_label_x, layout.label_w, d)
    for i in range(constants.REPAIR_BAY_CAPACITY):
        cx = layout.bay_x + d / 2 + i * (d + ZONE_GAP)
        items.append(Circle(cx, cy, d / 2, SLOT))
        items.append(_plus(cx, cy, d * 0.22, d * 0.07))
    return items


# --- the whole sheet ---------------------------------------------------------------------------------

def sheet_size(ctx: KitContext) -> tuple[float, float]:
    """The board's paper: the kit's paper upright, or the --board-paper sheet lying landscape."""
    if ctx.options.board_paper:
        width, height = LARGE_PAPER_SIZES[ctx.options.board_paper]
        return height, width
    return PAPER_SIZES[ctx.paper]


def _gap(total_without_gaps: float, sheet: tuple[float, float]) -> float:
    """Space between board and zones: generous when it still fits one sheet's height, else the minimum
    that keeps the drawing within one row of tiles when possible."""
    area_h = sheet[1] - 2 * TILE_MARGIN
    spare = (area_h - total_without_gaps) / 2 - 0.05
    if spare >= MAX_GAP or spare < MIN_GAP:  # roomy, or it needs a second row of tiles anyway
        return MAX_GAP
    return spare


def board_drawing(ctx: KitContext) -> BoardDrawing:
    board = ctx.db.board
    r_out = node_radius(board) + RING
    xs = [node.x for node in board.nodes.values()] or [0.0]
    ys = [node.y for node in board.nodes.values()] or [0.0]
    board_w = max(xs) - min(xs) + 2 * r_out
    board_h = max(ys) - min(ys) + 2 * r_out
    layout = _zone_layout(ctx)
    width = max(layout.width, board_w + 2 * SIDE_ROOM)
    gap = _gap(board_h + 2 * layout.height, sheet_size(ctx))
    height = board_h + 2 * (layout.height + gap)
    board_left = (width - board_w) / 2
    board_top = layout.height + gap
    ox, oy = board_left + r_out - min(xs), board_top + r_out - min(ys)

    items: list[Shape] = _board_items(ctx, ox, oy)
    zone_x = (width - layout.width) / 2
    items.append(Group(tuple(_zone(ctx, Player.A, layout)), dx=zone_x, dy=height - layout.height))
    items.append(Group(tuple(_zone(ctx, Player.B, layout)), dx=zone_x + layout.width, dy=layout.height,
                       rotate=180.0))
    # title, small, in the bottom-left corner beside the board
    room = board_left - 3
    title = _fit_label(ctx, ctx.theme.terms.game, room, 9, 5.5, "bold", "title")
    subtitle = fit_line(board.name, room, "regular", 6, 4.5)
    base = height - layout.height - gap - 1.5
    items.append(Text(0.5, base - 3.6, title.lines[0], title.size, "bold", INK))
    items.append(Text(0.5, base, subtitle.lines[0], subtitle.size, "regular", MUTED))
    goals = [node for node in board.nodes.values() if node.role == "goal"]
    keep = [Box(ox + n.x - r_out, oy + n.y - r_out, 2 * r_out, 2 * r_out) for n in goals]
    side_top, side_h = board_top, board_h
    notes = [Box(0.5, side_top, board_left - 3.5, side_h - 12.0),  # above the title
             Box(board_left + board_w + 3.0, side_top, width - board_left - board_w - 3.5, side_h)]
    return BoardDrawing(items, width, height, (ox, oy), ctx.fits.drain(), keep, notes)


def build_board(ctx: KitContext) -> Component:
    drawing = board_drawing(ctx)
    pages = tile(drawing.items, drawing.width, drawing.height, sheet_size(ctx), "Board", drawing.keep_whole,
                 drawing.note_spots)
    piece = Page(drawing.width, drawing.height, list(drawing.items), label="Board")
    return Component("board", "Board", pages=pages, pieces=[("board", piece)], warnings=drawing.warnings)
