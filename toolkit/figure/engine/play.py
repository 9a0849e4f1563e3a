"""Driving a game: sampling chance outcomes and the random player. The state never sees the generator."""

from __future__ import annotations

import bisect
import random
from collections.abc import Callable

from toolkit.figure.engine.actions import Action
from toolkit.figure.engine.state import CHANCE, GameState

# A policy chooses the action of whichever player is to act (not a player id: see toolkit.players).
Policy = Callable[[GameState, random.Random], Action]


def sample_outcome(state: GameState, rng: random.Random) -> int:
    """One chance outcome with its exact probability (a segment, weighted by its size)."""
    table = state._spin_table()
    cumulative = table.cumulative
    return bisect.bisect_right(cumulative, rng.randrange(cumulative[-1]))


def spin_with_number(state: GameState, rng: random.Random) -> tuple[int, int]:
    """`sample_outcome` and the number it drew, 1-96 on a standard disk (the printed ranges and the d10 table):
    the same draw from `rng`, so a seeded game spins the same either way."""
    table = state._spin_table()
    cumulative = table.cumulative
    drawn = rng.randrange(cumulative[-1])
    return bisect.bisect_right(cumulative, drawn), drawn + 1


def random_bot(state: GameState, rng: random.Random) -> Action:
    """Any legal action, uniformly."""
    legal = state.legal_actions()
    action = legal[rng.randrange(len(legal))]
    assert isinstance(action, Action), "players are asked only when a player acts, not at a chance node"
    return action


def play_out(state: GameState, players: tuple[Policy, Policy], rng: random.Random,
             on_step: Callable[[GameState, Action | int], None] | None = None) -> GameState:
    """Play `state` to the end: players choose, `rng` spins. `on_step(state_before, step)` sees every step."""
    while not state.is_terminal():
        player = state.current_player
        step: Action | int = sample_outcome(state, rng) if player == CHANCE else players[player](state, rng)
        if on_step is not None:
            on_step(state, step)
        state.apply(step)
    return state
