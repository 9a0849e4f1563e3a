"""The search bot: it sees threats one reply deep that greedy cannot (the opponent's movement module), its
budget is reproducible, and the fitted evaluation behaves like a probability."""

from __future__ import annotations

import json
import random

from tests.figure.engine.kit import at, game, module, unit
from toolkit.figure.bots.features import FEATURES, WEIGHTS_FILE, features, win_probability
from toolkit.figure.bots.greedy import GreedyBot
from toolkit.figure.bots.knowledge import knowledge
from toolkit.figure.bots.search import DEFAULT_ITERATIONS, SearchBot
from toolkit.figure.bots.turns import after_action
from toolkit.figure.engine import CHANCE, A, B
from toolkit.figure.engine.actions import MOVE
from toolkit.figure.engine.play import sample_outcome
from toolkit.figure.engine.state import GameState


def _module_threat() -> GameState:
    """B's 1-MP b1 stands two steps from A's goal (r4c3): only B's +1 MP module takes it there next turn."""
    g = game(b={"b1": unit("b1", mp=1)}, modules_b=[module("boost", {"kind": "extra_mp", "amount": 1})])
    return at(g, {"b1": "r4c1", "a1": "r4c5", "a2": "r0c0"})


def _b_turn_wins(state: GameState) -> bool:
    """Play out A's turn remainder and B's turn greedily over fixed dice: does B take A's goal?"""
    rng, own = random.Random(5), random.Random(6)
    greedy = GreedyBot()
    while not state.is_terminal() and not (state.player == B and state.turn > 0 and state.current_player == A):
        if state.current_player == CHANCE:
            state.apply(sample_outcome(state, rng))
        else:
            state.apply(greedy.choose(state, own))
        if state.player == A and state.turn >= 2:
            break
    outcome = state.outcome()
    return outcome is not None and outcome.winner is not None and outcome.winner.seat == B


def test_the_search_sees_the_opponents_movement_module_and_guards_its_goal():
    threat = _module_threat()
    probe = threat.clone()  # the threat is real: if A wastes its turn, B's greedy turn takes the goal
    far = next(a for a in probe.decisions() if a.kind == MOVE and probe.game.node_names[a.target] == "r0c1")
    probe.apply(far)
    assert _b_turn_wins(probe)
    state = threat.clone()
    state.apply(SearchBot().choose(state, random.Random(1)))
    assert not _b_turn_wins(state)


def test_a_turn_played_out_adds_up_to_one_and_stops_at_the_next_turn():
    state = _module_threat()
    know = knowledge(state.game)
    for action in state.decisions()[:8]:
        outcomes = after_action(state, action, know)
        assert abs(sum(p for p, _, _ in outcomes) - 1) < 1e-9
        assert all(s.is_terminal() or (s.player == B and s.current_player == B) for _, s, _ in outcomes)


def test_search_budgets_are_reproducible_and_a_bigger_one_looks_deeper():
    state = _module_threat()
    small, large = SearchBot(iterations=4), SearchBot(iterations=200)
    assert small.choose(state, random.Random(1)) == small.choose(state, random.Random(1))
    large.choose(state, random.Random(1))
    assert large.last_depth > small.last_depth
    from toolkit.cli.simulate import LADDER

    budgets = [int(rung.split(":")[1]) for rung in LADDER if rung.startswith("search:")]
    assert LADDER[:2] == ("random", "greedy")
    assert len(budgets) >= 2
    assert budgets == [budgets[0] * 2**i for i in range(len(budgets))]  # doubling
    assert budgets[-1] == DEFAULT_ITERATIONS // 4


def test_the_evaluation_is_a_probability_that_mirrors_between_the_sides():
    state = _module_threat()
    know = knowledge(state.game)
    for side in (A, B):
        assert 0.0 < win_probability(state, side, know) < 1.0
    assert abs(win_probability(state, A, know) + win_probability(state, B, know) - 1) < 1e-12
    assert features(state, A, know) == tuple(-x for x in features(state, B, know))


def test_the_shipped_weights_say_how_they_were_made():
    data = json.loads(WEIGHTS_FILE.read_text(encoding="utf-8"))
    assert set(data["weights"]) == set(FEATURES)
    assert "scripts/fit_weights.py" in data["command"]
    assert data["seed"] == 23
    assert data["log_loss"]["held_out"] < data["log_loss"]["coin"]  # better than a coin on games it never saw


def test_the_search_orders_equal_quiet_moves_by_its_rng_not_by_legal_order():
    """Legal order follows node names, which the board's rotation does not preserve: keeping the first six of
    equally promising quiet moves let the search see side A's and side B's positions differently."""
    from toolkit.figure.bots.greedy import ranked_actions

    state = at(game(), {"a1": "r2c0", "a2": "r2c6", "b1": "r0c3", "b2": "r1c6"})
    know = knowledge(state.game)
    fixed = {a for a, _ in ranked_actions(state, know)}
    seen: set = set()
    for seed in range(20):
        ranked = ranked_actions(state, know, rng=random.Random(seed))
        assert len(ranked) == len(fixed)  # as many looked at each time
        seen |= {a for a, _ in ranked}
    assert seen > fixed  # other quiet moves of the same estimate were looked at too
