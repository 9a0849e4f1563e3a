"""A turn as the search sees it: from a chosen action to every position the next turn can start from, each
with its exact probability.

The search (search.py) decides one action per turn; the rest of the turn (which battle to start after a
move, a re-spin, an upgrade, a Purple placement) is decided by the greedy bot, which already weighs each
of those by the engine's exact chances. Spins are enumerated with `chance_outcomes()`; a battle's spins are
merged into the few groups that leave different boards (knowledge.battle_groups), so a battle costs a
handful of branches instead of segments x segments. A Poison spin's outcomes look alike to every
evaluation (none reads lasting damage losses), so one stands for all, as in greedy.py.
"""

from __future__ import annotations

import random

from toolkit.figure.bots.greedy import best_action
from toolkit.figure.bots.knowledge import Knowledge, apply_battle_spins
from toolkit.figure.engine.actions import ATTACK, Action
from toolkit.figure.engine.state import CHANCE, SPIN_POISON, START, GameState

MIN_PROBABILITY = 1e-4  # branches less likely than this are dropped (the rest is renormalised)

Line = tuple[Action, ...]  # the decisions taken in a turn, in order
Outcomes = list[tuple[float, GameState, Line]]


def after_action(state: GameState, action: Action, know: Knowledge, rng: random.Random | None = None) -> Outcomes:
    """The positions at the start of the next turn (or at the end of the game) after `action`, with their
    probabilities, the rest of this turn played by the greedy bot (`rng` breaks its ties, as in a game: the
    first of equals would play the two sides differently). The probabilities add up to 1."""
    owner = state.player
    found: Outcomes = []
    _play(state, action, owner, know, 1.0, (), found, rng)
    total = sum(p for p, _, _ in found)
    if total <= 0:
        return found
    return [(p / total, s, line) for p, s, line in found] if abs(total - 1.0) > 1e-9 else found


def replay(state: GameState, line: Line) -> GameState | None:
    """`line` played from `state` if every decision is legal in turn and no spin comes between (a won turn's
    line is tried again in a sibling position before anything is searched: a refutation); else None."""
    child = state.clone()
    for action in line:
        if child.current_player == CHANCE or child.is_terminal() or action not in child.decisions():
            return None
        child.apply(action)
    return child


def turn_start(state: GameState, owner: int) -> bool:
    """The game is over or the opponent's turn has begun (with a decision due, not a spin)."""
    return state.is_terminal() or (state.phase == START and state.player != owner
                                   and state.current_player != CHANCE)


def _play(state: GameState, action: Action, owner: int, know: Knowledge, p: float, line: Line,
          found: Outcomes, rng: random.Random | None) -> None:
    line = (*line, action)
    if action[0] == ATTACK:
        groups = know.battle_groups(state, action[1], action[2])
        if groups is not None:
            started = state.clone()
            started.apply(action)
            for group in groups:
                if p * group.probability < MIN_PROBABILITY:
                    continue
                child = started.clone()
                apply_battle_spins(child, action[1], group)
                _settle(child, owner, know, p * group.probability, line, found, rng)
            return
    child = state.clone()
    child.apply(action)
    _settle(child, owner, know, p, line, found, rng)


def _settle(state: GameState, owner: int, know: Knowledge, p: float, line: Line, found: Outcomes,
            rng: random.Random | None) -> None:
    """Spins enumerated, decisions greedy, until `turn_start`."""
    while True:
        if turn_start(state, owner):
            found.append((p, state, line))
            return
        if state.current_player == CHANCE:
            outcomes = state.chance_outcomes()
            if (state.spin is not None and state.spin[0] == SPIN_POISON) or len(outcomes) == 1:
                state.apply(outcomes[0][0])
                continue
            for outcome, probability in outcomes:
                q = p * float(probability)
                if q < MIN_PROBABILITY:
                    continue
                child = state.clone()
                child.apply(outcome)
                _settle(child, owner, know, q, line, found, rng)
            return
        legal = state.decisions()
        action = legal[0] if len(legal) == 1 else best_action(state, know, rng=rng)[0]
        if action[0] == ATTACK:
            _play(state, action, owner, know, p, line, found, rng)
            return
        state.apply(action)
        line = (*line, action)
