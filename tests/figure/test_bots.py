"""The players: what the greedy player sees on hand-built positions, and the search player's promises."""

from __future__ import annotations

import random
from collections import Counter
from fractions import Fraction

import pytest

from tests.figure.engine.kit import at, disk, game, node, slot, unit, where
from toolkit.errors import UsageError
from toolkit.figure.bots import RandomBot, make_bot
from toolkit.figure.bots.evaluate import evaluate
from toolkit.figure.bots.greedy import GreedyBot
from toolkit.figure.bots.knowledge import knowledge
from toolkit.figure.bots.search import SearchBot, _sample
from toolkit.figure.engine import CHANCE, A, Action, B
from toolkit.figure.engine.actions import ATTACK, MOVE, PASS
from toolkit.figure.engine.state import GameState
from toolkit.players import PLAYERS, Player

STRONG = disk(white=120, gold=110)
WEAK = disk(white=10, gold=10)


def target(state: GameState, action: Action) -> str:
    return state.game.node_names[action.target]


@pytest.mark.parametrize("player", [GreedyBot(), SearchBot(iterations=8)])
def test_a_thinking_player_steps_onto_the_enemy_goal(player):
    state = at(game(), {"a1": "r0c2", "a2": "r4c1", "b1": "i1c2"})
    action = player.choose(state, random.Random(1))
    assert action.kind == MOVE
    assert action.unit == slot(state, "a1")
    assert target(state, action) == "r0c3"


def test_greedy_blocks_a_goal_the_opponent_could_reach_next():
    state = at(game(), {"b1": "r4c1", "a1": "r4c5"})
    assert any(a.kind == MOVE and target(state, a) == "r4c3" for a in _moves_after_pass(state))  # the threat is real
    action = GreedyBot().choose(state, random.Random(1))
    state.apply(action)
    while state.current_player == A:  # decline any battle: the block alone must hold
        state.apply(Action(PASS))
    assert state.current_player == B
    assert not any(a.kind == MOVE and target(state, a) == "r4c3" for a in state.legal_actions())


def _moves_after_pass(state: GameState) -> list[Action]:
    """B's moves if A did nothing useful this turn (A deploys far away from the goal)."""
    probe = state.clone()
    far = next(a for a in probe.legal_actions() if a.kind == MOVE and target(probe, a) == "r3c6")
    probe.apply(far)
    while probe.current_player == A:
        probe.apply(Action(PASS))
    return probe.legal_actions()


def test_greedy_completes_a_surround():
    state = at(game(), {"b1": "r0c3", "a1": "r0c2", "a2": "r0c5"})
    state.apply(GreedyBot().choose(state, random.Random(1)))
    assert where(state, "b1") == "bay"


@pytest.mark.parametrize(("mine", "theirs", "fights"), [(STRONG, WEAK, True), (WEAK, STRONG, False)])
def test_greedy_takes_favourable_battles_and_refuses_bad_ones(mine, theirs, fights):
    g = game(a={"a1": unit("a1", mp=1, disk=mine)}, b={"b1": unit("b1", mp=1, disk=theirs)})
    state = at(g, {"a1": "r3c0", "b1": "r1c0"})
    state.apply(Action(MOVE, slot(state, "a1"), node(state, "r2c0")))
    assert state.current_player == A
    assert {a.kind for a in state.legal_actions()} == {ATTACK, PASS}
    action = GreedyBot().choose(state, random.Random(1))
    assert (action.kind == ATTACK) is fights


def test_the_evaluation_sees_a_surround_the_opponent_can_complete():
    # b1 on r1c0 has r0c0 and r2c0 as neighbours; a1 holds r2c0. A 1 MP a2 next to r0c0 can close the surround.
    g = game(a={"a2": unit("a2", mp=1)})
    quiet = at(g, {"b1": "r1c0", "a1": "r2c0", "a2": "r4c5"}, to_move=Player.A)
    danger = at(g, {"b1": "r1c0", "a1": "r2c0", "a2": "r0c1"}, to_move=Player.A)
    know = knowledge(g)
    assert evaluate(danger, A, know) > evaluate(quiet, A, know) + 5
    assert evaluate(danger, B, know) < evaluate(quiet, B, know) - 5


def test_players_are_deterministic_given_their_rng_and_leave_the_state_alone():
    state = at(game(), {"a1": "i2c1", "a2": "r4c4", "b1": "i1c2", "b2": "i0c1"})
    before = state.state_hash()
    for player in (RandomBot(), GreedyBot(), SearchBot(iterations=12)):
        first = player.choose(state, random.Random(7))
        again = player.choose(state, random.Random(7))
        assert first == again
        assert first in state.legal_actions()
        assert state.state_hash() == before


def test_search_samples_spins_by_their_exact_chances_with_its_own_rng():
    g = game()
    state = at(g, {"a1": "r3c0", "b1": "r1c0"})
    state.apply(Action(MOVE, slot(state, "a1"), node(state, "r2c0")))
    state.apply(Action(ATTACK, slot(state, "a1"), slot(state, "b1")))
    assert state.current_player == CHANCE
    rng = random.Random(3)
    counts = Counter(_sample(state, rng) for _ in range(4000))
    for outcome, probability in state.chance_outcomes():
        assert abs(counts[outcome] / 4000 - float(probability)) < 0.03
    assert sum(p for _, p in state.chance_outcomes()) == Fraction(1)


def test_greedy_beats_random():
    """On the bundled squads greedy won 398 of 400 games against random (bench/ladder.py); here, four."""
    from toolkit.figure.database import find_datasets, load_database
    from toolkit.figure.engine import build_game

    database = next(load_database(ds) for ds in find_datasets(None)[0] if ds.theme_id == "duel-protocol")
    for squads in (("hydro-conductor", "malfunction-cascade"), ("malfunction-cascade", "hydro-conductor")):
        g = build_game(*squads, database)
        players = {A: GreedyBot(), B: RandomBot()}
        for first in (A, B):
            state = GameState.initial(g, PLAYERS[first])
            dice, own = random.Random(first), random.Random(100 + first)
            while not state.is_terminal():
                player = state.current_player
                state.apply(_spin(state, dice) if player == CHANCE else players[player].choose(state, own))
            assert state.outcome().winner is Player.A


def _spin(state: GameState, rng: random.Random) -> int:
    from toolkit.figure.engine.play import sample_outcome

    return sample_outcome(state, rng)


def test_player_names():
    assert make_bot("greedy").name == "greedy"
    assert make_bot("random").name == "random"
    assert make_bot("search:40").iterations == 40
    timed = make_bot("search:250ms")
    assert timed.milliseconds == 250
    assert timed.iterations is None
    for bad in ("minimax", "search:0", "search:abc", "greedy,random"):
        with pytest.raises(UsageError):
            make_bot(bad)


def test_greedy_draws_between_equally_good_actions_with_its_rng():
    # On the empty board both entries are alike; always taking the first legal one would play A and B differently.
    state = GameState.initial(game(), Player.A)
    chosen = {GreedyBot().choose(state, random.Random(seed)) for seed in range(12)}
    assert len(chosen) > 1
    assert {target(state, a) for a in chosen} & {"r4c0", "r4c1", "r3c0", "i2c0"}
    assert {target(state, a) for a in chosen} & {"r4c6", "r4c5", "r3c6", "i2c2"}
