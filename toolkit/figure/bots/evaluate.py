"""How good a position is for one side, in points (a unit is worth about 10 to 20; a won game 1000).

Read at the start of a turn, the score counts:
- material: each unit's value (from its exact battle odds against the enemy squad, and its MP) on the
  field, less in the Hangar, less again in the Repair Bay, nothing once removed; a status costs a share;
- progress: field units score for each step they stand closer to the enemy goal;
- the threat of the side about to move, from its legal moves: a goal it can reach wins, a surround it
  can complete costs the other side that unit, and its best attack costs the expected exchange.
- repetition: walking back into a position seen before costs the side that did it a little, so two
  cautious players do not shuffle into a drawn repetition while anything else is worth trying.
The same function judges both sides (score for A = -score for B), so two greedy players are mirror images.
"""

from __future__ import annotations

from toolkit.figure.bots.knowledge import WAIT_COST, Knowledge
from toolkit.figure.engine import effects
from toolkit.figure.engine.state import START, GameState
from toolkit.figure.engine.tables import BAY, HANGAR, Reach, bits

WIN = 1000.0
GOAL_THREAT = 800.0  # the side to move can step onto the enemy goal: as good as won
SURROUND_SHARE = 0.9  # a surround the side to move can complete: the other side loses this much of the unit
REPEAT_COST = 3.0  # per earlier visit of the same position, charged to the side that moved into it
# The material weights (Hangar, Bay and status shares, progress, the attack's share) live in knowledge.py,
# which tables every unit's term once per game.


def terminal_value(state: GameState, side: int) -> float:
    outcome = state.outcome()
    if outcome is None or outcome.winner is None:  # not over, or a draw
        return 0.0
    return WIN if outcome.winner.seat == side else -WIN


def evaluate(state: GameState, side: int, know: Knowledge) -> float:
    """The position's worth to `side` (positive: good for `side`)."""
    if state.is_terminal():
        return terminal_value(state, side)
    seen = state.history.get(state.history_key(), 1) - 1
    if state.phase != START:
        return _score(state, side, seen, know)
    # At the start of a turn the score reads only these (the turn's moves come from the same fields, and the
    # first turn's MP penalty): positions that differ elsewhere (spent modules, knockout counts) share a score.
    key = (side, seen, state.turn == 0, state.player, *state.pos, *state.status, *state.form, *state.wait)
    score = know.scores.get(key)
    if score is None:
        score = _score(state, side, seen, know)
        know.remember_score(key, score)
    return score


def _score(state: GameState, side: int, seen: int, know: Knowledge) -> float:
    material = _material(state, know)
    score = material[side] - material[1 - side]
    mover = state.player
    threat = _threat(state, mover, know)
    score = score + threat if mover == side else score - threat
    if seen:  # the side that just moved walked back into an old position: discourage shuffling
        score += REPEAT_COST * seen if mover == side else -REPEAT_COST * seen
    return score


def _material(state: GameState, know: Knowledge) -> tuple[float, float]:
    """Each side's units summed in slot order (the tables hold the terms, so the sums are the same floats)."""
    pos, form, status, wait = state.pos, state.form, state.status, state.wait
    field, hangar, bay = know.field_worth, know.hangar_worth, know.bay_worth
    totals = []
    for units in state.game.side_units:
        total = 0.0
        for slot in units:
            where = pos[slot]
            if where >= 0:
                total += field[slot][form[slot]][status[slot]][where]
            elif where == HANGAR:
                total += hangar[slot][form[slot]] - WAIT_COST * wait[slot]
            elif where == BAY:
                total += bay[slot][form[slot]]
        totals.append(total)
    return totals[0], totals[1]


def _threat(state: GameState, mover: int, know: Knowledge) -> float:
    """What the side to move can take with its coming move: the goal, a surround, or its best battle."""
    reaches = state.turn_moves().reaches
    anywhere = 0
    for reach in reaches:
        anywhere |= reach.nodes
    if not anywhere:
        return 0.0
    if anywhere >> state.game.goals[1 - mover] & 1:
        return GOAL_THREAT
    return max(_best_attack(state, reaches, mover, know), _best_surround(state, reaches, mover, know))


def _best_attack(state: GameState, reaches: list[Reach], mover: int, know: Knowledge) -> float:
    """The best expected exchange of a battle a unit can start after its move (0: none worth anything)."""
    enemies = state.masks[1 - mover]
    occ, form, status = state.occ, state.form, state.status
    game = state.game
    rules = game.status_rules
    gains = know.attack_gain
    best = 0.0
    for reach in reaches:
        near = game.halo(reach.nodes) & enemies  # the enemies next to a node this unit can reach
        unit = reach.slot
        if not near or not effects.can_initiate_attack(rules[status[unit]]):
            continue
        mine = form[unit]
        for node in bits(near):
            enemy = occ[node]
            gain = gains[(unit, mine, enemy, form[enemy])]
            if gain > best:
                best = gain
    return best


def _best_surround(state: GameState, reaches: list[Reach], mover: int, know: Knowledge) -> float:
    """The best enemy the mover can surround: one with a single open neighbour that a unit not next to it can
    reach (moving a neighbour would open another side)."""
    other = 1 - mover
    nbr = state.game.nbr_mask
    pos, form = state.pos, state.form
    mine, theirs = state.masks[mover], state.masks[other]
    best = 0.0
    for enemy in state.units_of(other):
        where = pos[enemy]
        if where < 0:
            continue
        around = nbr[where]
        open_nodes = around & ~mine
        if not open_nodes or open_nodes & (open_nodes - 1) or open_nodes & theirs:
            continue  # two or more open neighbours, or the one open neighbour holds a friend
        for reach in reaches:
            unit = reach.slot
            if reach.nodes & open_nodes and not (pos[unit] >= 0 and around >> pos[unit] & 1):
                best = max(best, know.value[enemy][form[enemy]] * SURROUND_SHARE)
                break
    return best
