"""Players of the board game behind one interface: `choose(state, rng) -> action`.

A player is pure (no I/O) and deterministic given its rng: the same state and the same rng state give
the same action. The rng is the player's own (a search player samples spins with it); the game's spins
come from another stream the player never sees.

    random            any legal action, uniformly
    greedy            one ply, exact battle odds, a hand-weighted evaluation (players/greedy.py)
    search            Monte Carlo tree search with sampled chance nodes and greedy rollouts
    search:400        ... with 400 iterations per decision (the default is DEFAULT_ITERATIONS)
    search:250ms      ... with a time budget per decision instead (faster machines search more, so
                      results then depend on the machine; iteration budgets are reproducible)
"""

from __future__ import annotations

import random
import re
from typing import Protocol

from toolkit.errors import UsageError
from toolkit.figure.engine.actions import Action
from toolkit.figure.engine.state import GameState

PLAYER_NAMES = ("random", "greedy", "search")
_SEARCH = re.compile(r"search(?::(\d{1,7})(ms)?)?")


class Player(Protocol):
    name: str

    def choose(self, state: GameState, rng: random.Random) -> Action: ...


class RandomPlayer:
    """Any legal action, uniformly (the engine's `random_player`)."""

    name = "random"

    def choose(self, state: GameState, rng: random.Random) -> Action:
        legal = state.decisions()
        return legal[rng.randrange(len(legal))]


def make_player(spec: str) -> Player:
    """A player from its name on the command line; UsageError for anything else."""
    from toolkit.figure.players.greedy import GreedyPlayer
    from toolkit.figure.players.search import SearchPlayer

    text = spec.strip().lower()
    if text == "random":
        return RandomPlayer()
    if text == "greedy":
        return GreedyPlayer()
    match = _SEARCH.fullmatch(text)
    if match:
        amount, ms = match.group(1), match.group(2)
        if amount is not None and int(amount) < 1:
            raise UsageError(f"a search budget is at least 1 (got '{spec[:40]}')")
        if ms:
            return SearchPlayer(milliseconds=int(amount))
        return SearchPlayer(iterations=int(amount)) if amount else SearchPlayer()
    shown = "".join(c if c.isprintable() else "?" for c in spec[:40])
    raise UsageError(f"unknown player '{shown}'; players: random, greedy, search, search:N (iterations) "
                     "or search:Nms (milliseconds)")
