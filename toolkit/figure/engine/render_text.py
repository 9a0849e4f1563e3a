"""The game as text for a terminal: the board grid, the zones and statuses, and each action in words.

Every name that came from a data file passes through `safe`, so no control character reaches a
terminal. Units are shown by a short tag: A1..A6 (side A, squad order) and B1..B6.
"""

from __future__ import annotations

import unicodedata

from toolkit.figure.constants import SQUAD_UNITS
from toolkit.figure.engine.actions import (
    ATTACK,
    CHOOSE,
    MODULE,
    MOVE,
    PASS,
    RESPIN,
    SUBROUTINE,
    UPGRADE,
    WAKE,
    Action,
)
from toolkit.figure.engine.state import (
    BATTLE,
    CHOICE_PHASE,
    RESPIN_PHASE,
    UPGRADE_PHASE,
    GameState,
)
from toolkit.figure.engine.tables import BAY, HANGAR, REMOVED, GameTables
from toolkit.players import PLAYERS

CELL = 6  # characters per board column
REASONS = {"goal_capture": "goal capture", "lockout": "System Lockout", "turn_limit": "the turn limit",
           "repetition": "threefold repetition"}


def safe(text: str, limit: int = 80) -> str:
    """Printable characters only (others become '?'), at most `limit` of them."""
    cleaned = "".join(c if unicodedata.category(c)[0] != "C" else "?" for c in text)
    return cleaned if len(cleaned) <= limit else cleaned[:limit - 1] + "…"


def tag(slot: int) -> str:
    return f"{PLAYERS[slot // SQUAD_UNITS].value}{slot % SQUAD_UNITS + 1}"


def unit_name(state: GameState, slot: int) -> str:
    form = state.form_of(slot)
    return f"{tag(slot)} {safe(form.unit.id, 40)}"


def node_name(game: GameTables, node: int) -> str:
    return game.node_names[node]


def coordinate(game: GameTables, node: int) -> str:
    """Where a node sits on the drawn board: a column letter (a = left, seen from side A) and a row number
    (1 = side A's back row); it orders long option lists from A's back row up, left to right."""
    where = _grid_positions(game)
    rows = max(r for r, _ in where.values()) + 1
    r, c = where[node]
    return f"{_column(c)}{rows - r}"


def _column(c: int) -> str:
    return chr(ord("a") + c) if c < 26 else f"c{c}"


def node_label(game: GameTables, node: int) -> str:
    """A node by the name the printed board prints beside it and game records use: 'Goal Point B (r0c3)',
    'Entry Point A (r4c0)'; a plain point by its name alone ('i2c0'). (Node names are validated to letters,
    digits, '-' and '_', so they are safe to print.)"""
    name = game.node_names[node]
    meta = game.board.nodes[name]
    terms = game.theme.terms
    word = {"goal": terms.goal, "entry": terms.entry}.get(meta.role or "")
    spot = name
    return f"{safe(word, 30)} {meta.side} ({spot})" if word and meta.side else spot


def _grid_positions(game: GameTables) -> dict[int, tuple[int, int]]:
    xs = sorted({node.x for node in game.board.nodes.values()})
    ys = sorted({node.y for node in game.board.nodes.values()})
    return {i: (ys.index(game.board.nodes[name].y), xs.index(game.board.nodes[name].x))
            for i, name in enumerate(game.node_names)}


def render_grid(state: GameState) -> list[str]:
    """Nodes at their drawn places: a unit's tag where one stands, else the node's name, which is what the
    printed board prints beside the point and what the options and records say; then which are the goals
    and entries."""
    game = state.game
    where = _grid_positions(game)
    rows = max(r for r, _ in where.values()) + 1
    cols = max(c for _, c in where.values()) + 1
    cell = max(CELL, max(len(name) for name in game.node_names) + 2)
    canvas = [[" "] * (cols * cell) for _ in range(rows * 2 - 1)]
    for node, (r, c) in where.items():
        occupant = state.occ[node]
        text = tag(occupant) if occupant >= 0 else game.node_names[node]
        start = c * cell + (cell - len(text)) // 2 - 1
        for k, ch in enumerate(text):
            canvas[r * 2][start + k] = ch
    _draw_routes(canvas, game, where, cell)
    lines = [("  " + "".join(row)).rstrip() for row in canvas]
    return [*lines, _legend(game)]


def _legend(game: GameTables) -> str:
    """'Goal Point B: r0c3 · Entry Point B: r0c0 r0c6 · ...': the marked points, as the printed board marks them."""
    terms = game.theme.terms
    marked: dict[str, list[str]] = {}
    for name in game.node_names:
        meta = game.board.nodes[name]
        word = {"goal": terms.goal, "entry": terms.entry}.get(meta.role or "")
        if word and meta.side:
            marked.setdefault(f"{safe(word, 30)} {meta.side}", []).append(name)
    return "  " + " · ".join(f"{label}: {' '.join(names)}" for label, names in sorted(marked.items()))


def _draw_routes(canvas: list[list[str]], game: GameTables, where: dict[int, tuple[int, int]],
                 cell: int) -> None:
    """Each route between two placed nodes: dashes along a row, bars down a column, a slash on a diagonal."""
    for a, near in enumerate(game.adj):
        for b in near:
            if b <= a:
                continue
            (ra, ca), (rb, cb) = where[a], where[b]
            if ra == rb:  # along a row: dashes between the two cells
                lo, hi = sorted((ca, cb))
                for x in range(lo * cell + cell // 2 + 1, hi * cell + cell // 2 - 2):
                    if canvas[ra * 2][x] == " ":
                        canvas[ra * 2][x] = "-"
            elif ca == cb:  # down a column: bars on the rows between
                lo, hi = sorted((ra, rb))
                for y in range(lo * 2 + 1, hi * 2):
                    canvas[y][ca * cell + cell // 2 - 1] = "|"
            else:  # a diagonal: one slash half way
                y = ra + rb  # the text row between them (rows are doubled)
                x = (ca + cb) * cell // 2 + cell // 2 - 1
                down_right = (rb - ra) * (cb - ca) > 0
                canvas[y][x] = "\\" if down_right else "/"


def render_board(state: GameState) -> str:
    """The grid, then each side's units with their zone, status, Wait and form."""
    game = state.game
    lines = render_grid(state)
    lines.append("")
    theme = game.theme
    for side in (0, 1):
        squad = safe(game.squad_ids[side], 40)
        hangar = [tag(s) for s in state.units_of(side) if state.pos[s] == HANGAR]
        bay = [tag(s) for s in state.bay[side]]
        lines.append(f"{PLAYERS[side].value} ({squad}): {theme.terms.hangar}: {' '.join(hangar) or '-'}; "
                     f"{theme.terms.repair_bay}: {' '.join(bay) or '-'}")
        for s in state.units_of(side):
            lines.append("  " + unit_line(state, s))
    return "\n".join(lines)


def unit_line(state: GameState, slot: int) -> str:
    game = state.game
    theme = game.theme
    pos = state.pos[slot]
    form = state.form_of(slot)
    place = {HANGAR: theme.terms.hangar, BAY: theme.terms.repair_bay, REMOVED: "removed from the duel"}.get(
        pos, node_label(game, pos) if pos >= 0 else "?")
    extras = []
    if state.status[slot]:
        rule = state.status_rule(slot)
        if rule is not None:
            extras.append(safe(theme.statuses.get(rule.id, rule.id), 30))
    if state.wait[slot]:
        extras.append(f"{theme.terms.wait} {state.wait[slot]}")
    if state.form[slot]:
        extras.append(f"upgraded (stage {form.stage})")
    note = f" [{', '.join(extras)}]" if extras else ""
    return f"{tag(slot)} {safe(form.unit.id, 40)} {form.mp} {theme.terms.mp}: {place}{note}"


def describe_action(state: GameState, action: Action) -> str:
    """One legal action in words, for the numbered list a player chooses from."""
    game = state.game
    kind = action.kind
    if kind == MOVE:
        verb = "deploy" if state.pos[action.unit] == HANGAR else "move"
        return f"{verb} {unit_name(state, action.unit)} to {node_label(game, action.target)}"
    if kind == ATTACK:
        return f"{unit_name(state, action.unit)} attacks {unit_name(state, action.target)}"
    if kind == PASS:
        return {BATTLE: "no battle: end the turn", RESPIN_PHASE: "keep the spin", UPGRADE_PHASE: "do not upgrade",
                CHOICE_PHASE: "move no unit"}.get(state.phase, "end the turn")
    if kind == MODULE:
        side = state.current_player
        module = game.modules[side][action.unit]
        targets = [unit_name(state, s) for s in (action.target, action.extra) if s >= 0]
        on = f" on {' and '.join(targets)}" if targets else ""
        return f"{game.theme.terms.module} {safe(module.name, 40)}{on}"
    if kind == WAKE:
        return f"spend the move to wake {unit_name(state, action.unit)} (spin)"
    if kind == RESPIN:
        module = game.modules[action.target // SQUAD_UNITS][action.unit]
        return f"{safe(module.name, 40)}: re-spin {unit_name(state, action.target)}"
    if kind == UPGRADE:
        nxt = game.slots[action.unit].forms[state.form[action.unit] + 1]
        return f"upgrade {unit_name(state, action.unit)} to {safe(nxt.unit.id, 40)}"
    if kind == SUBROUTINE:
        sub = state.form_of(action.unit).unit.subroutine
        name = safe(sub.name, 40) if sub else "subroutine"
        target = f" on {unit_name(state, action.target)}" if action.target >= 0 else ""
        return f"{unit_name(state, action.unit)}: {name}{target}"
    if kind == CHOOSE:
        return f"place {unit_name(state, action.unit)} on {node_label(game, action.target)}"
    return repr(action)


def describe_outcome(state: GameState) -> str:
    result = state.outcome()
    if result is None:
        return "the game is not over"
    turns = state.turns_played()
    reason = REASONS.get(result.reason, result.reason)
    if result.winner is None:
        return f"draw by {reason} after {turns} turns"
    if result.reason in ("turn_limit", "lockout"):
        return f"{result.winner.value} wins by {reason} after {turns} turns"
    return f"{result.winner.value} wins by {reason} on turn {turns}"
