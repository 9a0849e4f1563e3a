"""OpenSpiel-style random simulation: thousands of seeded games, every invariant checked after every step.

The normal suite plays a few dozen games; `DUELKIT_SELFPLAY_GAMES=10000 pytest tests/figure/engine/test_selfplay.py`
plays that many (half per theme), a quarter of them under alternative rulings.
"""

from __future__ import annotations

import os
import random
from fractions import Fraction

import pytest

from toolkit.figure.constants import REPAIR_BAY_CAPACITY, SQUAD_UNITS
from toolkit.figure.database import find_datasets, load_database
from toolkit.figure.engine import CHANCE, Rules, build_game
from toolkit.figure.engine.play import random_bot, sample_outcome
from toolkit.figure.engine.rules import RULINGS
from toolkit.figure.engine.state import GameState
from toolkit.figure.engine.tables import BAY, HANGAR, REMOVED, data_hash
from toolkit.players import PLAYERS

GAMES = int(os.environ.get("DUELKIT_SELFPLAY_GAMES", "20"))
# clone and serialise round trips on every third step of a short run; a long run samples them more thinly
DEEP_CHECK_EVERY = 3 if GAMES <= 100 else 25

ALTERNATIVES = {
    "surround_order": "simultaneous", "goal_capture_by": "any_placement", "lockout": "off",
    "wait_counts": "all_turns", "turn_limit_result": "fewer_units_lost", "upgrade_offer": "never",
    "reset_form_on_deactivation": False, "both_confused": "defender_first", "sleeper_passable": "always",
    "attacked_sleeper_spins": True, "surround_after": "move_only", "min_mp": 1,
}


@pytest.fixture(scope="module")
def databases():
    return {ds.theme_id: load_database(ds) for ds in find_datasets(None)[0]}


def rules_for(seed: int) -> Rules:
    if seed % 4:
        return Rules()
    rng = random.Random(seed)
    picked = {name: value for name, value in ALTERNATIVES.items() if rng.random() < 0.5}
    return Rules(**picked)


def check_invariants(state: GameState) -> None:
    game = state.game
    for side in (0, 1):
        units = range(side * SQUAD_UNITS, (side + 1) * SQUAD_UNITS)
        assert len(units) == 6
        assert all(state.pos[s] >= 0 or state.pos[s] in (HANGAR, BAY, REMOVED) for s in units)
        bay = state.bay[side]
        assert len(bay) <= REPAIR_BAY_CAPACITY
        assert len(set(bay)) == len(bay)
        assert {s for s in units if state.pos[s] == BAY} == set(bay)
        assert all(s in units for s in bay)
        mask = sum(1 << state.pos[s] for s in units if state.pos[s] >= 0)
        assert state.masks[side] == mask
    on_field = [s for s in range(12) if state.pos[s] >= 0]
    assert len({state.pos[s] for s in on_field}) == len(on_field)  # at most one unit per node
    for n, occupant in enumerate(state.occ):
        assert occupant == -1 or state.pos[occupant] == n
    for s in range(12):
        assert state.wait[s] >= 0
        if state.pos[s] < 0:
            assert state.status[s] == 0  # statuses clear on Deactivation
        if state.wait[s]:
            assert state.pos[s] == HANGAR
    assert state.turn <= game.rules.turn_limit


def play_checked(state: GameState, rng: random.Random, deep_every: int) -> GameState:
    start_hash = state.game.data_hash
    steps = 0
    while not state.is_terminal():
        legal = state.legal_actions()
        assert legal, "no legal action before the end"
        assert legal == sorted(legal)
        if state.current_player == CHANCE:
            outcomes = state.chance_outcomes()
            assert sum(p for _, p in outcomes) == Fraction(1)
            assert [o for o, _ in outcomes] == legal
            step = sample_outcome(state, rng)
        else:
            step = random_bot(state, rng)
        if steps % deep_every == 0:
            copy = state.clone()
            before = state.state_hash()
            restored = GameState.deserialize(state.game, state.serialize())
            assert restored.state_hash() == before
            assert restored.legal_actions() == legal
            copy.apply(step)
            assert state.state_hash() == before  # the clone shares nothing that moves
            state.apply(step)
            restored.apply(step)
            assert copy.state_hash() == state.state_hash() == restored.state_hash()
        else:
            state.apply(step)
        check_invariants(state)
        steps += 1
    assert state.outcome() is not None
    assert state.legal_actions() == []
    game = state.game
    assert data_hash(game.theme.id, game.board, game.slots, game.modules) == start_hash  # no Data Disk changed
    return state


MATCHES = [("duel-protocol", "hydro-conductor", "malfunction-cascade"), ("chimera", "attrition-lock", "grid-surge")]


def test_random_games_keep_every_invariant(databases):
    reasons: dict[str, int] = {}
    games = {}
    for seed in range(GAMES):
        theme, a, b = MATCHES[seed % 2]
        key = (theme, seed % 4 == 0, seed)
        rules = rules_for(seed)
        game = games.get((theme, rules)) or build_game(a, b, databases[theme], rules)
        games[(theme, rules)] = game
        rng = random.Random(seed)
        state = play_checked(GameState.initial(game, PLAYERS[rng.randrange(2)]), rng, DEEP_CHECK_EVERY)
        reasons[state.outcome().reason] = reasons.get(state.outcome().reason, 0) + 1
        del key
    assert sum(reasons.values()) == GAMES
    assert "goal_capture" in reasons


def test_alternatives_cover_every_switch_with_a_choice():
    for name, ruling in RULINGS.items():
        if (ruling.choices and len(ruling.choices) > 1) or isinstance(ruling.default, bool):
            assert name in ALTERNATIVES, name
