"""Clones and the repetition history: what a search player relies on when it copies a state and plays on.

The history's digest (part of `state_hash`) is brought up to date only when a hash or a serialisation
asks, and a clone shares the history until either state writes to it: neither may show in the result.
"""

from __future__ import annotations

import random

import pytest

from toolkit.figure.database import find_datasets, load_database
from toolkit.figure.engine import CHANCE, GameState, build_game
from toolkit.figure.engine.play import random_bot, sample_outcome
from toolkit.players import Player


@pytest.fixture(scope="module")
def game():
    databases = {ds.theme_id: load_database(ds) for ds in find_datasets(None)[0]}
    return build_game("attrition-lock", "grid-surge", databases["chimera"])


def play(state: GameState, rng: random.Random, steps: int, hash_every: int = 0) -> list[int | tuple]:
    """Play up to `steps` steps; with `hash_every`, ask for the state hash that often along the way."""
    played: list[int | tuple] = []
    for number in range(steps):
        if state.is_terminal():
            break
        step = sample_outcome(state, rng) if state.current_player == CHANCE else random_bot(state, rng)
        state.apply(step)
        played.append(step)
        if hash_every and number % hash_every == 0:
            state.state_hash()
    return played


def replayed(game, steps: list[int | tuple]) -> GameState:
    state = GameState.initial(game, Player.A)
    for step in steps:
        state.apply(step)
    return state


def test_the_hash_does_not_depend_on_when_it_was_asked_for(game):
    asked_often = GameState.initial(game, Player.A)
    steps = play(asked_often, random.Random(3), 400, hash_every=3)
    never_asked = replayed(game, steps)
    assert len(never_asked.history) > 50  # many turns, so many positions waited for their digest
    assert never_asked.serialize() == asked_often.serialize()
    assert never_asked.state_hash() == asked_often.state_hash()


def test_a_clone_and_its_original_play_on_without_touching_each_other(game):
    original = GameState.initial(game, Player.A)
    opening = play(original, random.Random(3), 60)
    assert not original.is_terminal()
    before = original.state_hash()
    copy = original.clone()
    copy_steps = play(copy, random.Random(2), 80, hash_every=7)  # the copy writes its history and digests it
    assert original.state_hash() == before
    original_steps = play(original, random.Random(3), 80)  # the original writes its own, never digested
    assert min(len(copy_steps), len(original_steps)) > 30  # both games went on for many turns
    later_copy = original.clone()
    assert copy.state_hash() == replayed(game, opening + copy_steps).state_hash()
    assert original.state_hash() == replayed(game, opening + original_steps).state_hash()
    assert later_copy.state_hash() == original.state_hash()
    assert later_copy.legal_actions() == original.legal_actions()
