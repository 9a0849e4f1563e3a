"""The search player: Monte Carlo tree search over decisions and spins, with greedy rollouts.

The tree alternates decision nodes (whoever `current_player` names: the mover, or the side that decides a
re-spin, an upgrade or a Purple placement) and chance nodes. A chance node's outcome is sampled fresh
from `chance_outcomes()` with the player's own rng, never from the game's spin stream, so the search
cannot see the dice. A decision node considers the greedy player's best few actions (its priors; the
root considers more) and picks among them by UCB1. A new leaf is played on by both sides greedily, spins
sampled, until the start of the searching player's next turn; that position's evaluation, squashed
into -1..1, is backed up. The most visited root action is played.

The budget is a number of iterations (reproducible: the same rng gives the same choice on any machine)
or milliseconds (a wall-clock limit: faster machines search more). The default stays within a second
per decision on a modest machine (bench/simulate_speed.py measures it).
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass, field

from toolkit.figure.bots.evaluate import evaluate, terminal_value
from toolkit.figure.bots.greedy import best_action, ranked_actions
from toolkit.figure.bots.knowledge import Knowledge, knowledge
from toolkit.figure.engine.actions import Action
from toolkit.figure.engine.state import CHANCE, GameState

DEFAULT_ITERATIONS = 48
ROOT_CANDIDATES = 6
INNER_CANDIDATES = 3
EXPLORATION = 0.7
SCALE = 40.0  # evaluation points for which the backed-up value is tanh(1) ~ 0.76
ROLLOUT_LOOKS = 3  # quiet moves the rollout's greedy player looks at in full


@dataclass
class _Node:
    player: int  # who decides here, or CHANCE
    actions: list[Action] = field(default_factory=list)  # decision nodes: candidates, best prior first
    children: dict[Action | int, _Node] = field(default_factory=dict)  # action or outcome -> _Node
    visits: int = 0
    total: float = 0.0  # sum of backed-up values, from the searching player's side

    def mean(self) -> float:
        return self.total / self.visits if self.visits else 0.0


class SearchBot:
    """MCTS with chance nodes sampled from `chance_outcomes()` and greedy rollouts."""

    name = "search"

    def __init__(self, iterations: int | None = DEFAULT_ITERATIONS, milliseconds: int | None = None) -> None:
        self.iterations = None if milliseconds is not None else iterations
        self.milliseconds = milliseconds

    def choose(self, state: GameState, rng: random.Random) -> Action:
        legal = state.decisions()
        if len(legal) == 1:
            return legal[0]
        know = knowledge(state.game)
        me = state.current_player
        horizon = state.turn + 2  # the start of this player's next turn (or the turn after, mid-turn)
        root = _Node(me, [a for a, _ in ranked_actions(state, know)[:ROOT_CANDIDATES]])
        if len(root.actions) == 1:
            return root.actions[0]
        deadline = None if self.milliseconds is None else time.perf_counter() + self.milliseconds / 1000
        done = 0
        while True:
            if self.iterations is not None and done >= self.iterations:
                break
            if deadline is not None and done >= len(root.actions) and time.perf_counter() >= deadline:
                break
            _iterate(root, state.clone(), me, horizon, know, rng)
            done += 1
        best = max(root.actions, key=lambda a: (root.children[a].visits, root.children[a].mean())
                   if a in root.children else (-1, 0.0))
        return best


def _iterate(root: _Node, state: GameState, me: int, horizon: int, know: Knowledge, rng: random.Random) -> None:
    path = [root]
    node = root
    while True:
        if state.is_terminal() or state.turn >= horizon:
            value = _value(state, me, know)
            break
        step = _sample(state, rng) if node.player == CHANCE else _select(node, me)  # a spin, or a choice
        state.apply(step)
        child = node.children.get(step)
        if child is None:
            child = node.children[step] = _new_node(state, know)
            path.append(child)
            value = _rollout(state, me, horizon, know, rng)
            break
        path.append(child)
        node = child
    for visited in path:
        visited.visits += 1
        visited.total += value


def _new_node(state: GameState, know: Knowledge) -> _Node:
    if state.is_terminal():
        return _Node(CHANCE)
    player = state.current_player
    if player == CHANCE:
        return _Node(CHANCE)
    legal = state.decisions()
    if len(legal) <= INNER_CANDIDATES:
        return _Node(player, list(legal))
    return _Node(player, [a for a, _ in ranked_actions(state, know, ROLLOUT_LOOKS)[:INNER_CANDIDATES]])


def _select(node: _Node, me: int) -> Action:
    """An untried candidate first (best prior first), then UCB1 from the deciding player's side."""
    for action in node.actions:
        if action not in node.children:
            return action
    sign = 1.0 if node.player == me else -1.0
    log_n = math.log(node.visits + 1)
    best, best_score = node.actions[0], -math.inf
    for action in node.actions:
        child = node.children[action]
        score = sign * child.mean() + EXPLORATION * math.sqrt(log_n / child.visits)
        if score > best_score:
            best, best_score = action, score
    return best


def _sample(state: GameState, rng: random.Random) -> int:
    """One outcome of the spin due now, drawn with the player's rng by the exact probabilities."""
    outcomes = state.chance_outcomes()
    denominator = math.lcm(*(p.denominator for _, p in outcomes))
    pick = rng.randrange(denominator)
    for outcome, probability in outcomes:
        pick -= probability.numerator * (denominator // probability.denominator)
        if pick < 0:
            return outcome
    return outcomes[-1][0]


def _rollout(state: GameState, me: int, horizon: int, know: Knowledge, rng: random.Random) -> float:
    """Both sides play greedily, spins sampled, until the horizon; then the evaluation, squashed."""
    while not state.is_terminal() and state.turn < horizon:
        if state.current_player == CHANCE:
            state.apply(_sample(state, rng))
        else:
            legal = state.decisions()
            state.apply(legal[0] if len(legal) == 1 else best_action(state, know, ROLLOUT_LOOKS, rng)[0])
    return _value(state, me, know)


def _value(state: GameState, me: int, know: Knowledge) -> float:
    if state.is_terminal():
        return terminal_value(state, me) / abs(terminal_value(state, me) or 1.0)
    return math.tanh(evaluate(state, me, know) / SCALE)
