"""The board game drawn for the browser: the board as inline SVG from the board graph (`data-node` per node,
tokens with their names), each side's Hangar and Repair Bay with Wait timers, and the offered actions as
elements with `data-action` (exact battle odds beside each attack). Pure: a state in, an HTML string out;
every name from a data file is escaped here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from toolkit.figure.engine import CHANCE, Action, GameState
from toolkit.figure.engine.actions import ATTACK, KIND_NAMES, MOVE
from toolkit.figure.engine.render_text import describe_action, describe_outcome, tag
from toolkit.figure.engine.tables import BAY, HANGAR, REMOVED, GameTables
from toolkit.figure.web.narrate import BattleOdds, battle_odds, unit_label
from toolkit.kit.palette import TEAM
from toolkit.players import PLAYERS
from toolkit.web.html import attrs, h

MARGIN = 16.0  # mm of board around the outermost nodes (room for a token's name under it)
NAME_CHARS = 12  # a status badge shows this many characters
TOKEN = 0.88  # a token's radius, as a share of half the board's token diameter (the rest is the gap between tokens)
LINE_CHARS = 10  # a token shows its unit's name in two lines of this many characters (the whole name: its tooltip)
NAME_LINE = 4.3  # mm between the lines of a point's name (its font is 3.8 px = mm in the board's viewBox)
NAME_ROOM = 6.0  # mm more under the last row for the second line of an entry's or goal's name
BADGE = 4.0  # mm more above the first row for a status badge over a token


@dataclass
class LogEntry:
    """One action or spin in the move log, and what it changed."""

    who: str  # "A", "B" or "spin"
    text: str
    results: list[str] = field(default_factory=list)


def _name_lines(name: str, x: float) -> str:
    """A unit's name in two short lines under its tag (split at its first space: 'Frost-Class' / 'Unit FR-2')."""
    words = name.split(" ", 1)
    lines = [words[0], words[1]] if len(words) == 2 else [name[:LINE_CHARS], name[LINE_CHARS:]]
    lines = [line if len(line) <= LINE_CHARS else line[:LINE_CHARS - 1] + "…" for line in lines if line]
    return "".join(f'<tspan x="{x:g}" dy="3.3">{h(line)}</tspan>' for line in lines)


def _short(name: str) -> str:
    return name if len(name) <= NAME_CHARS else name[:NAME_CHARS - 1] + "…"


def board_svg(state: GameState, legal: Sequence[Action] = ()) -> str:
    """The board: routes, nodes (goal and entry marked with their side), unit tokens, and an invisible
    target over each destination of a MOVE, shown when its unit is selected."""
    game = state.game
    board = game.board
    xs = [node.x for node in board.nodes.values()]
    ys = [node.y for node in board.nodes.values()]
    radius = board.token_diameter_mm / 2
    left, top = min(xs) - MARGIN, min(ys) - MARGIN - BADGE
    width, height = max(xs) - min(xs) + 2 * MARGIN, max(ys) - min(ys) + 2 * MARGIN + BADGE + NAME_ROOM
    parts = [f'<svg class="board" viewBox="{left:g} {top:g} {width:g} {height:g}" role="img" '
             f'aria-label="{h(board.name)}" xmlns="http://www.w3.org/2000/svg">']
    for a, b in board.routes:
        if a in board.nodes and b in board.nodes:
            na, nb = board.nodes[a], board.nodes[b]
            parts.append(f'<line class="route" x1="{na.x:g}" y1="{na.y:g}" x2="{nb.x:g}" y2="{nb.y:g}"/>')
    for name, node in board.nodes.items():
        role = node.role if node.role != "point" else ""
        side = node.side.value if node.side is not None else ""
        parts.append(f'<g{attrs(class_=f"node {role}".strip(), data_node=name, data_side=side or None)}>'
                     f'<circle cx="{node.x:g}" cy="{node.y:g}" r="{radius * 0.62:g}"/>')
        if role:
            label = ("G" if role == "goal" else "E") + side
            parts.append(f'<text class="node-label" x="{node.x:g}" y="{node.y + radius * 0.2:g}">{label}</text>')
        parts.append(_point_name(game, name, node.x, node.y + radius * TOKEN))
        parts.append("</g>")
    for slot in range(len(game.slots)):
        node_index = state.pos[slot]
        if node_index >= 0:
            node = board.nodes[game.node_names[node_index]]
            parts.append(_token(state, slot, node.x, node.y, radius))
    for index, action in enumerate(legal):
        if action.kind == MOVE:
            node = board.nodes[game.node_names[action.target]]
            parts.append(f'<circle{attrs(class_="target", data_action=index, data_unit=action.unit)} '
                         f'cx="{node.x:g}" cy="{node.y:g}" r="{radius * 0.7:g}">'
                         f'<title>{h(describe_action(state, action))}</title></circle>')
    parts.append("</svg>")
    return "".join(parts)


def _point_name(game: GameTables, name: str, x: float, below: float) -> str:
    """The point's name under its circle (and under a token on it), as `play` and game records name it: a goal or
    an entry by its theme's word and side on a first line ('Entry Point A'), every point by its node name."""
    meta = game.board.nodes[name]
    word = {"goal": game.theme.terms.goal, "entry": game.theme.terms.entry}.get(meta.role or "")
    lines = [f"{word} {meta.side}", name] if word and meta.side else [name]
    spans = "".join(f'<tspan x="{x:g}" dy="{NAME_LINE if i else NAME_LINE - 0.6:g}">{h(line)}</tspan>'
                    for i, line in enumerate(lines))
    return f'<text{attrs(class_="point-name", data_point_name=name)} x="{x:g}" y="{below:g}">{spans}</text>'


def _token(state: GameState, slot: int, x: float, y: float, radius: float) -> str:
    side = PLAYERS[slot // len(state.units_of(0))]
    swatch = TEAM[side]
    unit = state.form_of(slot).unit
    badges = []
    rule = state.status_rule(slot) if state.status[slot] else None
    if rule is not None:
        badges.append(state.game.theme.statuses.get(rule.id, rule.id))
    # a status above the token: under it is the point's name
    badge = f'<text class="badge" x="{x:g}" y="{y - radius * TOKEN - 1.2:g}">{h(_short(badges[0]))}</text>' \
        if badges else ""
    return (f'<g{attrs(class_="token", data_unit=slot, data_tag=tag(slot), data_side=side.value)}>'
            f'<title>{h(unit_label(state, slot))} ({state.form_of(slot).mp} {h(state.game.theme.terms.mp)})</title>'
            f'<circle cx="{x:g}" cy="{y:g}" r="{radius * TOKEN:g}" fill="{swatch.fill}"/>'
            f'<text class="tag" x="{x:g}" y="{y - 1.2:g}" fill="{swatch.ink}">{tag(slot)}</text>'
            f'<text class="name" x="{x:g}" y="{y - 0.7:g}" fill="{swatch.ink}">{_name_lines(unit.name, x)}</text>'
            f"{badge}</g>")


def zones_html(state: GameState) -> str:
    """Each side's squad: its Hangar and Repair Bay with their units (Wait timers), and its modules."""
    game = state.game
    terms = game.theme.terms
    parts = []
    for side in (0, 1):
        player = PLAYERS[side]
        hangar = [s for s in state.units_of(side) if state.pos[s] == HANGAR]
        gone = [s for s in state.units_of(side) if state.pos[s] == REMOVED]
        parts.append(f'<section class="side side-{player.value}"{attrs(data_side=player.value)}>'
                     f'<h3><span class="chip">{player.value}</span> {h(game.squad_ids[side])}</h3>')
        parts.append(f'<h4>{h(terms.hangar)}</h4><ul class="zone"{attrs(data_zone=f"hangar-{player.value}")}>')
        parts += [_zone_unit(state, s) for s in hangar] or ['<li class="empty">empty</li>']
        parts.append(f'</ul><h4>{h(terms.repair_bay)}</h4>'
                     f'<ul class="zone"{attrs(data_zone=f"bay-{player.value}")}>')
        parts += [_zone_unit(state, s) for s in state.bay[side]] or ['<li class="empty">empty</li>']
        parts.append("</ul>")
        if gone:
            parts.append("<h4>removed from the duel</h4><ul class=\"zone\">")
            parts += [_zone_unit(state, s) for s in gone]
            parts.append("</ul>")
        modules = game.modules[side]
        if modules:
            parts.append(f"<h4>{h(terms.modules)}</h4><ul class=\"modules\">")
            for index, module in enumerate(modules):
                used = state.used[side] >> index & 1
                parts.append(f'<li{attrs(class_="used" if used else None)}>{h(module.name)}'
                             f'{" (used)" if used else ""}</li>')
            parts.append("</ul>")
        parts.append("</section>")
    return "".join(parts)


def _zone_unit(state: GameState, slot: int) -> str:
    terms = state.game.theme.terms
    wait = state.wait[slot]
    timer = f' <span class="wait"{attrs(data_wait=wait)}>{h(terms.wait)} {wait}</span>' if wait else ""
    where = "bay" if state.pos[slot] == BAY else "hangar"
    return (f'<li{attrs(data_unit=slot, data_tag=tag(slot), data_where=where)}>'
            f'<span class="chip chip-{tag(slot)[0]}">{tag(slot)}</span> {h(state.form_of(slot).unit.name)} '
            f'<span class="mp">{state.form_of(slot).mp} {h(terms.mp)}</span>{timer}</li>')


def actions_html(state: GameState, legal: Sequence[Action], mine: bool) -> str:
    """The offered actions, each an element with `data-action` (its index in `legal_actions()`); attacks carry
    their exact odds. Not `mine`: listed for reading, disabled."""
    if not legal:
        return ""
    items = []
    for index, action in enumerate(legal):
        odds = _odds_html(battle_odds(state, action)) if action.kind == ATTACK else ""
        fields = attrs(type="button", data_action=index, data_kind=KIND_NAMES[action.kind],
                       data_unit=action.unit if action.unit >= 0 else None, disabled=not mine)
        button = f"<button{fields}>{h(describe_action(state, action))}</button>"
        items.append(f"<li>{button}{odds}</li>")
    return f'<ol class="actions" data-actions>{"".join(items)}</ol>'


def _odds_html(odds: BattleOdds) -> str:
    rows = "".join(f"<li>{h(label)}: <b>{float(p) * 100:.1f}%</b> <small>({p.numerator}/{p.denominator})</small>"
                   "</li>" for label, p in odds.outcomes)
    note = f'<li class="note">{h(odds.note)}</li>' if odds.note else ""
    return f'<ul class="odds" data-odds>{rows}{note}</ul>'


def log_html(entries: Sequence[LogEntry], limit: int | None = None) -> str:
    """The move log: one `li` per action or spin (newest last), what it changed inside it."""
    shown = entries if limit is None else entries[:limit]
    items = "".join(entry_html(entry, number) for number, entry in enumerate(shown, start=1))
    return f'<ol class="history" data-history>{items}</ol>'


def entry_html(entry: LogEntry, number: int) -> str:
    """One `li` of the log: who, what, and what it changed."""
    results = "".join(f'<span class="result">{h(line)}</span>' for line in entry.results)
    return (f'<li{attrs(data_step=number, class_="spin" if entry.who == "spin" else f"by-{entry.who}")}>'
            f'<span class="who">{h(entry.who)}</span> {h(entry.text)}{results}</li>')


def status_line(state: GameState, players: Sequence[str]) -> str:
    """Whose turn it is (and who plays that seat), or how the game ended."""
    if state.is_terminal():
        return describe_outcome(state)
    seat = state.current_player
    if seat == CHANCE:
        return f"turn {state.turn + 1}: a spin is due"
    return f"turn {state.turn + 1}: {PLAYERS[seat].value} ({players[seat]}) to act"
