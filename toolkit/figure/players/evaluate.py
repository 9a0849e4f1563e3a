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

from toolkit.figure.engine import effects
from toolkit.figure.engine.actions import MOVE
from toolkit.figure.engine.state import GameState
from toolkit.figure.engine.tables import BAY, HANGAR
from toolkit.figure.players.knowledge import EFFECT_WORTH, Knowledge
from toolkit.figure.rules.roster import SQUAD_UNITS

WIN = 1000.0
GOAL_THREAT = 800.0  # the side to move can step onto the enemy goal: as good as won
HANGAR_SHARE = 0.8
WAIT_COST = 0.5  # per turn of Wait
BAY_SHARE = 0.4
STATUS_SHARE = 0.8  # a unit with a status is worth this share (frozen and asleep ones less)
STUCK_SHARE = 0.6
PROGRESS = 0.3  # per step closer to the enemy goal
SURROUND_SHARE = 0.9  # a surround the side to move can complete: the other side loses this much of the unit
ATTACK_SHARE = 0.8  # the side to move's best attack: this share of its expected exchange
REPEAT_COST = 3.0  # per earlier visit of the same position, charged to the side that moved into it


def terminal_value(state: GameState, side: int) -> float:
    outcome = state.outcome()
    if outcome is None or outcome.winner is None:  # not over, or a draw
        return 0.0
    return WIN if outcome.winner.seat == side else -WIN


def evaluate(state: GameState, side: int, know: Knowledge) -> float:
    """The position's worth to `side` (positive: good for `side`)."""
    if state.is_terminal():
        return terminal_value(state, side)
    material = _material(state, know)
    score = material[side] - material[1 - side]
    mover = state.player
    threat = _threat(state, mover, know)
    score = score + threat if mover == side else score - threat
    seen = state.history.get(state.position_key(), 1) - 1
    if seen:  # the side that just moved walked back into an old position: discourage shuffling
        score += REPEAT_COST * seen if mover == side else -REPEAT_COST * seen
    return score


def _material(state: GameState, know: Knowledge) -> tuple[float, float]:
    pos, form, status, wait = state.pos, state.form, state.status, state.wait
    rules = state.game.status_rules
    totals = [0.0, 0.0]
    for slot in range(len(pos)):
        where = pos[slot]
        value = know.value[slot][form[slot]]
        side = slot // SQUAD_UNITS
        if where >= 0:
            if status[slot]:
                rule = rules[status[slot]]
                value *= STUCK_SHARE if not effects.can_be_selected_to_move(rule) else STATUS_SHARE
            totals[side] += value + PROGRESS * know.closeness[side][where]
        elif where == HANGAR:
            totals[side] += value * HANGAR_SHARE - WAIT_COST * wait[slot]
        elif where == BAY:
            totals[side] += value * BAY_SHARE
    return totals[0], totals[1]


def _threat(state: GameState, mover: int, know: Knowledge) -> float:  # noqa: C901  - the evaluation's hot loop over bit masks, kept in one piece
    """What the side to move can take with its coming move: the goal, a surround, or its best battle."""
    game = state.game
    other = 1 - mover
    target_goal = game.goals[other]
    moves = [a for a in state.decisions() if a[0] == MOVE]
    if not moves:
        return 0.0
    pos, form = state.pos, state.form
    masks = state.masks
    nbr = game.nbr_mask
    occ = state.occ
    best = 0.0
    reach_by_unit: dict[int, int] = {}
    for action in moves:
        node = action[2]
        if node == target_goal:
            return GOAL_THREAT
        unit = action[1]
        reach_by_unit[unit] = reach_by_unit.get(unit, 0) | (1 << node)
    enemies = masks[other]
    for unit, reach in reach_by_unit.items():
        near_enemies = 0
        rest = reach
        while rest:  # the enemies next to any node this unit can reach
            low = rest & -rest
            rest ^= low
            near_enemies |= nbr[low.bit_length() - 1]
        near_enemies &= enemies
        if not near_enemies or not effects.can_initiate_attack(state.status_rule(unit)):
            continue
        mine = know.value[unit][form[unit]]
        while near_enemies:
            low = near_enemies & -near_enemies
            near_enemies ^= low
            enemy = occ[low.bit_length() - 1]
            odds = know.odds[(unit, form[unit], enemy, form[enemy])]
            theirs = know.value[enemy][form[enemy]]
            gain = (odds.ko * theirs * (1 - BAY_SHARE) + EFFECT_WORTH * odds.effect * theirs * 0.2
                    - odds.ko_back * mine * (1 - BAY_SHARE)) * ATTACK_SHARE
            if gain > best:
                best = gain
    # surrounds the mover can complete: an enemy with one free neighbour that a non-neighbour can reach
    for enemy in range(other * SQUAD_UNITS, other * SQUAD_UNITS + SQUAD_UNITS):
        where = pos[enemy]
        if where < 0:
            continue
        open_nodes = nbr[where] & ~masks[mover]
        if not open_nodes or open_nodes & (open_nodes - 1) or open_nodes & masks[other]:
            continue  # two or more open neighbours, or the one open neighbour holds a friend
        for unit, reach in reach_by_unit.items():
            if not reach & open_nodes or (pos[unit] >= 0 and nbr[where] >> pos[unit] & 1):
                continue  # cannot get there, or moving it would open another neighbour
            best = max(best, know.value[enemy][form[enemy]] * SURROUND_SHARE)
            break
    return best
