"""The held-out tactics suite (tests/figure/tactics.py): the default search finds the one right decision in
each position, including those issue 23 found missed (a one-move System Lockout, a 49%-to-4% battle, a
confused unit's attack); and the positions are what they claim to be."""

from __future__ import annotations

import random

import pytest

from tests.figure.engine.kit import slot
from tests.figure.tactics import TACTICS
from toolkit.figure.bots.greedy import GreedyBot
from toolkit.figure.bots.knowledge import knowledge
from toolkit.figure.bots.search import SearchBot
from toolkit.figure.engine.actions import MOVE


@pytest.mark.parametrize("tactic", TACTICS, ids=[t.name for t in TACTICS])
def test_the_default_search_solves_the_tactic(tactic):
    state = tactic.position()
    for seed in range(5):
        action = SearchBot().choose(state.clone(), random.Random(seed))
        assert tactic.solved(state, action), f"{tactic.name}: wanted to {tactic.right}, chose {action}"


def test_greedy_sees_the_lockout_move_too():
    """A move onto the enemy's last open Entry Point, with no enemy on the field, is not 'quiet' (greedy used to
    rank it by its steps toward the goal and never look at it)."""
    tactic = next(t for t in TACTICS if t.name == "lockout")
    state = tactic.position()
    assert tactic.solved(state, GreedyBot().choose(state.clone(), random.Random(1)))


def test_the_positions_are_what_they_claim():
    by_name = {t.name: t for t in TACTICS}
    lockout = by_name["lockout"].position()
    wins = []
    for action in lockout.decisions():
        if action[0] != MOVE:
            continue
        after = lockout.clone()
        after.apply(action)
        if after.is_terminal():
            wins.append((action, after.outcome()))
    assert len(wins) == 1
    assert by_name["lockout"].solved(lockout, wins[0][0])
    assert wins[0][1] is not None
    assert wins[0][1].reason == "lockout"
    battle = by_name["take the battle"].position()
    odds = knowledge(battle.game).odds[(slot(battle, "a1"), 0, slot(battle, "b1"), 0)]
    assert round(odds.ko, 2) == 0.49
    assert round(odds.ko_back, 2) == 0.04
    decline = by_name["decline the battle"].position()
    odds = knowledge(decline.game).odds[(slot(decline, "a1"), 0, slot(decline, "b1"), 0)]
    assert round(odds.ko, 2) == 0.04
    assert round(odds.ko_back, 2) == 0.49
