"""The greedy player: this turn's actions judged one ply deep, battles by their exact odds.

For an action the player looks at the position at the start of the opponent's turn (`evaluate`),
averaging over the spins in between with the engine's own probabilities. A battle's spin results are
merged into the few groups that leave different boards (a knockout, each Purple effect, nothing), so a
battle costs a handful of looks. The player therefore takes a battle only when its expected exchange
beats declining it, steps onto the enemy goal when it can, completes surrounds (the material counts at
once) and avoids being surrounded or attacked at bad odds (the opponent's best reply is part of
`evaluate`), blocks a goal the opponent could reach next, and deploys when a unit on the field is worth
more than one in the Hangar.

To stay fast, quiet moves (far from any enemy, not at a goal) are first ranked by a cheap estimate
and only the best `QUIET_LOOKS` of them are looked at in full; every move near an enemy or a goal is
always looked at, and so is every move when an enemy is near our goal. Modules are tried only where
they can matter and played only when they gain more than `MODULE_COST` (a module is spent for the
whole duel; a re-spin module is committed before the move, so it is weighed with the battles that
move could start, each group's re-spin judged from the group's representative spins). The rng only
breaks ties between equally good actions, so the player is deterministic given its rng.
"""

from __future__ import annotations

import random

from toolkit.figure.bots.evaluate import GOAL_THREAT, evaluate, terminal_value
from toolkit.figure.bots.knowledge import HANGAR_SHARE, PROGRESS, Knowledge, Looks, apply_battle_spins, knowledge
from toolkit.figure.engine import effects
from toolkit.figure.engine.actions import ATTACK, MODULE, MOVE, SUBROUTINE, Action
from toolkit.figure.engine.state import (
    BATTLE,
    MOVE_PHASE,
    SPIN_POISON,
    START,
    SUB,
    GameState,
)
from toolkit.figure.engine.tables import HANGAR

MODULE_COST = 1.5  # a module must gain at least this much (points) to be spent
EMERGENCY = -GOAL_THREAT / 2  # below this the turn is desperate: every module is worth trying
QUIET_LOOKS = 6  # quiet moves looked at in full, best estimate first
TURN_PHASES = (START, SUB, MOVE_PHASE)
TIE = 1e-6  # values this close are equal (sums in another order differ in the last bits)
BOOST = "boost"  # marks a module's remembered value (the rest are keyed by the action alone)


class GreedyBot:
    """One ply, exact expectations over spins, a hand-weighted evaluation."""

    name = "greedy"

    def __init__(self, quiet_looks: int | None = QUIET_LOOKS) -> None:
        self.quiet_looks = quiet_looks  # None: look at every move in full

    def choose(self, state: GameState, rng: random.Random) -> Action:
        legal = state.decisions()
        if len(legal) == 1:
            return legal[0]
        return best_action(state, knowledge(state.game), self.quiet_looks, rng)[0]


def best_action(state: GameState, know: Knowledge, quiet_looks: int | None = QUIET_LOOKS,
                rng: random.Random | None = None) -> tuple[Action, float]:
    """The greedy choice and its value to the player deciding. Equal best actions are drawn with `rng`
    (without one, the first in `legal_actions()` order): the legal order is not the same for both sides
    of the board, so always taking the first would play side A and side B differently."""
    me = state.current_player
    legal = state.decisions()
    looks = know.looks_at(state)
    if state.phase in TURN_PHASES:
        looked = _turn_values(state, legal, me, know, quiet_looks, looks, rng)
    else:
        looked = [(action, _known_value(state, action, me, know, looks)) for action in legal]
    best_value = max(value for _, value in looked)
    tied = [action for action, value in looked if value >= best_value - TIE]
    chosen = tied[rng.randrange(len(tied))] if rng is not None and len(tied) > 1 else tied[0]
    return chosen, best_value


def ranked_actions(state: GameState, know: Knowledge, quiet_looks: int | None = QUIET_LOOKS,
                   rng: random.Random | None = None) -> list[tuple[Action, float]]:
    """Every action the greedy player looks at in full, with its value, best first (for the search's priors).
    `rng` orders quiet moves of equal estimate before the best QUIET_LOOKS are kept, as in `best_action`."""
    me = state.current_player
    legal = state.decisions()
    looks = know.looks_at(state)
    if state.phase in TURN_PHASES:
        looked = _turn_values(state, legal, me, know, quiet_looks, looks, rng)
    else:
        looked = [(action, _known_value(state, action, me, know, looks)) for action in legal]
    return sorted(looked, key=lambda pair: -pair[1])


def _turn_values(state: GameState, legal: list[Action], me: int, know: Knowledge, quiet_looks: int | None,
                 looks: Looks, rng: random.Random | None = None) -> list[tuple[Action, float]]:
    """The move (or wake-up, or pass) first; then the modules and subroutines that could beat it. The rng is
    drawn from as if nothing were known (`looks` only saves the work)."""
    looked: list[tuple[Action, float]] = []
    battling: set[int] = set()
    extra: list[Action] = []
    quiet: list[tuple[float, float, int, Action]] = []
    guard = _guard_nodes(state, me, know)
    for index, action in enumerate(legal):
        kind = action[0]
        if kind in (MODULE, SUBROUTINE):
            extra.append(action)
        elif kind == MOVE and quiet_looks is not None and _quiet(state, action, me) and not guard >> action[2] & 1:
            # equal estimates are ordered by the rng (legal order would favour one side of the board)
            quiet.append((-_estimate(state, action, me, know), rng.random() if rng else 0.0, index, action))
        else:
            looked.append((action, _known_value(state, action, me, know, looks, battling)))
    quiet.sort()
    for *_, action in quiet[:quiet_looks]:
        looked.append((action, _known_value(state, action, me, know, looks, battling)))
    plain, plain_best = max(looked, key=lambda pair: pair[1]) if looked else (None, -float("inf"))
    for action in extra:
        if _worth_trying(state, action, battling, plain_best, know):
            cost = MODULE_COST if action[0] == MODULE else 0.0
            looked.append((action, _known_boost(state, action, plain, me, know, looks) - cost))
    order = {action: index for index, action in enumerate(legal)}  # legal actions are distinct
    looked.sort(key=lambda pair: order[pair[0]])  # ties go to the first legal action
    return looked


def _known_value(state: GameState, action: Action, me: int, know: Knowledge, looks: Looks,
                 battling: set[int] | None = None) -> float:
    """`action_value`, worked out once per position (and whether the action starts a battle, for `battling`)."""
    known = looks.get(action)
    if known is None:
        battles: set[int] = set()
        known = looks[action] = (action_value(state, action, me, know, battles), bool(battles))
    if known[1] and battling is not None:
        battling.add(action[1])
    return known[0]


def _known_boost(state: GameState, action: Action, plain: Action | None, me: int, know: Knowledge,
                 looks: Looks) -> float:
    """`_boost_value`, worked out once per position and plain move."""
    key = (BOOST, action, plain)
    known = looks.get(key)
    if known is None:
        known = looks[key] = (_boost_value(state, action, plain, me, know), False)
    return known[0]


def _guard_nodes(state: GameState, me: int, know: Knowledge) -> int:
    """Nodes near our goal (as a mask) while an enemy is within two moves of it: moves there are never quiet."""
    game = state.game
    goal = game.goals[me]
    for slot in state.units_of(1 - me):
        where = state.pos[slot]
        if where >= 0 and know.dist[where][goal] <= 2 * game.mp[slot][state.form[slot]] + 1:
            return know.near_goal[me]
    return 0


def _quiet(state: GameState, action: Action, me: int) -> bool:
    """A move that neither ends next to an enemy, nor starts next to one, nor reaches the enemy goal, nor takes
    an enemy Entry Point while the enemy has no unit on the field (that can be a System Lockout)."""
    game = state.game
    unit, node = action[1], action[2]
    enemies = state.masks[1 - me]
    if node == game.goals[1 - me] or game.nbr_mask[node] & enemies:
        return False
    if not enemies and node in game.entries[1 - me]:
        return False
    where = state.pos[unit]
    return where < 0 or not game.nbr_mask[where] & enemies


def _estimate(state: GameState, action: Action, me: int, know: Knowledge) -> float:
    """A quick guess at a quiet move's worth: the steps it gains toward the goal, a deployment's gain."""
    unit, node = action[1], action[2]
    where = state.pos[unit]
    gain = PROGRESS * know.closeness[me][node]
    if where == HANGAR:
        return gain + know.value[unit][state.form[unit]] * (1 - HANGAR_SHARE)
    return gain - PROGRESS * know.closeness[me][where]


def _worth_trying(state: GameState, action: Action, battling: set[int], plain: float, know: Knowledge) -> bool:
    """Whether a module is looked at: a battle bonus for a unit that could battle, a run at the goal, a
    cure, an emergency. (Trying every module on every unit every turn would multiply the work by ten.)"""
    if action[0] == SUBROUTINE or plain < EMERGENCY:
        return True
    kind = state.game.module_kinds[state.player][action[1]]
    if kind in ("damage_bonus", "star_bonus"):
        return action[2] in battling
    if kind == "respin":  # committed before the move: worth a look when some move could start a battle
        return bool(battling)
    if kind in ("clear_status", "clear_wait"):
        return True
    if kind in ("move_through", "extra_mp"):
        side = state.player
        goal = state.game.goals[1 - side]
        units = [action[2]] if action[2] >= 0 else [s for s in state.units_of(side) if state.pos[s] >= 0]
        return any(state.pos[s] >= 0 and know.dist[state.pos[s]][goal] <= state.effective_mp(s) + 2 for s in units)
    return False  # swap_units: only in an emergency


def _boost_value(state: GameState, action: Action, plain: Action | None, me: int, know: Knowledge) -> float:
    """A module or subroutine, then the best move of the units it concerns, or the move we would have made."""
    owner = state.player
    child = state.clone()
    child.apply(action)
    if child.is_terminal() or child.current_player != owner or child.phase not in TURN_PHASES:
        return settle(child, me, owner, know)
    units = {action[2], action[3]} - {-1}
    if not units:  # extra MP: every unit
        units = set(state.units_of(owner))
    battle_only = action[0] == MODULE and state.game.module_kinds[owner][action[1]] in ("damage_bonus", "star_bonus",
                                                                                         "respin")
    enemies = child.masks[1 - owner]
    follow = [a for a in child.decisions()
              if a[0] not in (MODULE, SUBROUTINE) and (a == plain or (a[1] in units and (
                  not battle_only or (a[0] == MOVE and child.game.nbr_mask[a[2]] & enemies))))]
    if not follow:
        follow = [a for a in child.decisions() if a[0] not in (MODULE, SUBROUTINE)]
    return max(_after(child, a, me, owner, know) for a in follow)


def action_value(state: GameState, action: Action, me: int, know: Knowledge, battling: set[int] | None = None) -> float:
    """The value to `me` of playing `action` now, looked at when the turn has passed."""
    owner = state.player
    if action[0] == ATTACK:
        return _attack_value(state, action, me, owner, know, None)
    child = state.clone()
    child.apply(action)
    if battling is not None and child.phase == BATTLE:
        battling.add(action[1])
    return settle(child, me, owner, know)


def settle(state: GameState, me: int, owner: int, know: Knowledge) -> float:
    """Play out the rest of `owner`'s turn (spins weighed, decisions greedy) and evaluate for `me`."""
    if state.is_terminal():
        return terminal_value(state, me)
    player = state.current_player
    if player < 0:
        return _expected(state, me, owner, know)
    phase = state.phase
    if state.player != owner and phase == START:
        return evaluate(state, me, know)
    legal = state.decisions()
    if phase == BATTLE:
        declined = _after(state, legal[-1], me, owner, know)  # PASS sorts last
        values = [declined] + [_attack_value(state, a, me, owner, know, declined) for a in legal[:-1]]
    else:
        values = [_after(state, a, me, owner, know) for a in legal
                  if phase not in TURN_PHASES or a[0] not in (MODULE, SUBROUTINE)]
    return max(values) if player == me else min(values)


def _after(state: GameState, action: Action, me: int, owner: int, know: Knowledge) -> float:
    child = state.clone()
    child.apply(action)
    return settle(child, me, owner, know)


def _attack_value(state: GameState, action: Action, me: int, owner: int, know: Knowledge,
                  declined: float | None) -> float:
    """The battle's exact expectation; `declined` (the value of not fighting) stands in for the results
    that change nothing, unless an attacked status would be cured (then the board differs)."""
    attacker, defender = action[1], action[2]
    groups = know.battle_groups(state, attacker, defender)
    if groups is None:
        return _after(state, action, me, owner, know)
    if effects.cured_when_attacked(state.status_rule(defender)) or state.tfx[6] >= 0:
        declined = None  # the board differs, or a committed re-spin may turn a result that changed nothing
    started = state.clone()
    started.apply(action)  # the battle's first spin is due: every group spins from here
    total = 0.0
    for group in groups:
        if group.nothing and declined is not None:
            total += group.probability * declined
            continue
        child = started.clone()
        apply_battle_spins(child, attacker, group)
        total += group.probability * settle(child, me, owner, know)
    return total


def _expected(state: GameState, me: int, owner: int, know: Knowledge) -> float:
    """A chance node: the average over its outcomes (a Poison spin's outcomes look alike to `evaluate`,
    which does not read lasting damage losses, so one is enough)."""
    spin = state.spin
    outcomes = state.chance_outcomes()
    if spin is not None and spin[0] == SPIN_POISON:
        child = state.clone()
        child.apply(outcomes[0][0])
        return settle(child, me, owner, know)
    total = 0.0
    for outcome, probability in outcomes:
        child = state.clone()
        child.apply(outcome)
        total += float(probability) * settle(child, me, owner, know)
    return total
