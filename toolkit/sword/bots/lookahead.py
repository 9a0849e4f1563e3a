"""One turn of lookahead for the sword duel: candidate choices, the payoff matrix, the leaf evaluation.

A cell of the matrix is the engine's own `resolve_turn` of one choice of each player, valued by
`evaluate` at the start of the next turn (or the result, when the duel ends). Cells are remembered per
process by what resolution reads (the played techniques, builds, range, turn, resources, Health and the
choices; not the Insight target nor what either player knows), so a duel's repeated positions and a
simulation's repeated setups cost a dictionary look-up.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from toolkit.players import Player
from toolkit.sword import constants
from toolkit.sword.engine.duel import Choice, DuelState, legal_choices, resolve_turn
from toolkit.sword.rules.positions import can_attack, resolve_position
from toolkit.sword.rules.state import Action, InsightTarget, Knowledge, PlayerState, Reason

# The leaf evaluation: a won duel is 1, a lost one -1, a draw 0; otherwise Health dominates, then
# Momentum (attack bonuses, evades) and Balance (initiative, evades), never reaching a result's value.
HEALTH_WEIGHT = 0.6 / constants.START_HEALTH
MOMENTUM_WEIGHT = 0.04
BALANCE_WEIGHT = 0.04
LEAF_LIMIT = 0.95
CACHE_LIMIT = 1_000_000  # remembered transitions per process before the memory starts again
_BEFORE_COMBAT = (Reason.DISHONOR, Reason.DOUBLE_DISHONOR)


@dataclass(frozen=True, slots=True)
class Candidate:
    """A choice worth looking at, and how many legal choices it stands for (Insight targets that resolve
    alike are one candidate)."""

    choice: Choice
    weight: int


def evaluate(state: DuelState, player: Player) -> float:
    """The duel's worth to `player`, from -1 (lost) to 1 (won), 0 for a draw."""
    if state.result is not None:
        if state.result.winner is None:
            return 0.0
        return 1.0 if state.result.winner is player else -1.0
    me, foe = state.players[player.seat], state.players[player.other().seat]
    score = (HEALTH_WEIGHT * (me.health - foe.health) + MOMENTUM_WEIGHT * (me.momentum - foe.momentum)
             + BALANCE_WEIGHT * (me.balance - foe.balance))
    return max(-LEAF_LIMIT, min(LEAF_LIMIT, score))


def insight_target(knows: Knowledge) -> InsightTarget:
    """The Insight a looking-ahead player asks for: an attribute it does not know yet (Strength first: it
    says how hard the opponent hits), else the technique in play."""
    for target in (InsightTarget.STRENGTH, InsightTarget.DEFENSE, InsightTarget.SPEED):
        if getattr(knows, target.value) is None:
            return target
    return InsightTarget.TECHNIQUE


def candidates(state: DuelState, player: Player) -> list[Candidate]:
    """The player's legal choices with the four Insight targets folded into one (they resolve alike but
    for what is learned): the target `insight_target` picks, weighted 4."""
    target = insight_target(state.players[player.seat].knows)
    found: dict[Choice, int] = {}
    for choice in legal_choices(state, player):
        if choice.action is Action.INSIGHT:
            key = Choice(choice.move, choice.action, choice.technique, choice.evade, choice.evade_with,
                         choice.special_evade, target, choice.reset)
        else:
            key = choice
        found[key] = found.get(key, 0) + 1
    return [Candidate(choice, weight) for choice, weight in found.items()]


Transition = tuple[object, int, int, int, int, int, int, object]  # range, (M, B, damage) x 2, ended by


def _side(player: PlayerState, choice: Choice, attacking: bool, attacked: bool, evading: bool) -> tuple[object, ...]:
    """What of one side resolution can read: the action card only when someone attacks, the evade only
    when attacked (a Defend or an Insight with no attack coming changes nothing; nor does an evade);
    Strength only to attack, Defense only when attacked, Speed only when an evade is tried (initiative)."""
    key: tuple[object, ...] = (player.techniques[choice.technique].id, player.momentum, player.balance, choice.move,
                               choice.reset)
    if attacking or attacked:
        key += (choice.action,)
    if attacking:
        key += (player.attributes.strength,)
    if attacked:
        key += (player.attributes.defense, choice.evade, choice.evade_with, choice.special_evade)
    if evading:
        key += (player.attributes.speed,)
    return key


_TRANSITIONS: dict[tuple[object, ...], Transition] = {}


def transition(state: DuelState, choice_a: Choice, choice_b: Choice) -> Transition:
    """What the turn does apart from Health: the range, each side's Momentum, Balance and damage taken (at
    most the starting Health), and a result reached before combat (dishonor). Remembered by what it reads:
    the same exchange at another Health or turn (before or after the honor turn) is looked up."""
    after = resolve_position(state.range, choice_a.move, choice_b.move)
    in_range = can_attack(after)
    hits = (in_range and choice_a.action is Action.ATTACK, in_range and choice_b.action is Action.ATTACK)
    evading = (hits[1] and choice_a.evade) or (hits[0] and choice_b.evade)
    key = (state.range, state.honor and state.turn >= constants.HONOR_TURN,
           _side(state.players[0], choice_a, hits[0], hits[1], evading),
           _side(state.players[1], choice_b, hits[1], hits[0], evading))
    found = _TRANSITIONS.get(key)
    if found is None:
        if len(_TRANSITIONS) >= CACHE_LIMIT:
            _TRANSITIONS.clear()
        full = tuple(PlayerState(p.role, p.attributes, p.techniques, p.momentum, p.balance, constants.START_HEALTH)
                     for p in state.players)  # built directly: dataclasses.replace is slow
        start = DuelState(state.turn, state.range, (full[0], full[1]), None, state.honor)
        end = resolve_turn(start, choice_a, choice_b, checked=True).state
        a, b = end.players
        dishonor = end.result if end.result is not None and end.result.reason in _BEFORE_COMBAT else None
        found = (end.range, a.momentum, a.balance, constants.START_HEALTH - a.health,
                 b.momentum, b.balance, constants.START_HEALTH - b.health, dishonor)
        _TRANSITIONS[key] = found
    return found


def cell_value(state: DuelState, choice_a: Choice, choice_b: Choice) -> float:
    """Player A's value after both choices resolve."""
    _, ma, ba, hurt_a, mb, bb, hurt_b, ended = transition(state, choice_a, choice_b)
    if ended is not None:
        return _result_value(ended.winner)  # type: ignore[attr-defined]
    ha, hb = max(0, state.players[0].health - hurt_a), max(0, state.players[1].health - hurt_b)
    if ha == 0 or hb == 0:
        return 0.0 if ha == hb else (1.0 if hb == 0 else -1.0)
    if state.turn >= constants.TURN_LIMIT:
        return 0.0  # a draw by time
    score = HEALTH_WEIGHT * (ha - hb) + MOMENTUM_WEIGHT * (ma - mb) + BALANCE_WEIGHT * (ba - bb)
    return max(-LEAF_LIMIT, min(LEAF_LIMIT, score))


def _result_value(winner: Player | None) -> float:
    return 0.0 if winner is None else (1.0 if winner is Player.A else -1.0)


def payoff(state: DuelState, player: Player, rows: Sequence[Choice], cols: Sequence[Choice]) -> list[list[float]]:
    """rows x cols values for `player` (rows are its choices, columns the opponent's)."""
    if player is Player.A:
        return [[cell_value(state, r, c) for c in cols] for r in rows]
    return [[-cell_value(state, c, r) for c in cols] for r in rows]
