"""The computer players (bots) of the board game behind one interface: `choose(state, rng) -> action`.

`Player` (toolkit/players.py) means only a seat, A or B; a `Bot` is what decides for a seat. A bot is
pure (no I/O) and deterministic given its rng: the same state and the same rng state give the same action.
The rng is the bot's own (a search bot samples spins with it); the game's spins come from another stream
the bot never sees.

    random            any legal action, uniformly
    greedy            one ply, exact battle odds, a hand-weighted evaluation (bots/greedy.py)
    search            expectimax over whole turns, exact chance, Star1 pruning, a fitted evaluation (search.py)
    search:400        ... with a budget of 400 turns played out per decision (default DEFAULT_ITERATIONS)
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

BOT_NAMES = ("random", "greedy", "search")
_SEARCH = re.compile(r"search(?::([0-9]{1,7})(ms)?)?")  # ASCII digits: "search:٣" is not search:3


class Bot(Protocol):
    name: str

    def choose(self, state: GameState, rng: random.Random) -> Action: ...


class RandomBot:
    """Any legal action, uniformly (the engine's `random_bot`)."""

    name = "random"

    def choose(self, state: GameState, rng: random.Random) -> Action:
        legal = state.decisions()
        return legal[rng.randrange(len(legal))]


def make_bot(spec: str) -> Bot:
    """A bot from its name on the command line; UsageError for anything else."""
    from toolkit.figure.bots.greedy import GreedyBot
    from toolkit.figure.bots.search import SearchBot

    text = spec.strip().lower()
    if text == "random":
        return RandomBot()
    if text == "greedy":
        return GreedyBot()
    match = _SEARCH.fullmatch(text)
    if match:
        amount, ms = match.group(1), match.group(2)
        if amount is not None and int(amount) < 1:
            raise UsageError(f"a search budget is at least 1 (got '{spec[:40]}')")
        if ms:
            return SearchBot(milliseconds=int(amount))
        return SearchBot(iterations=int(amount)) if amount else SearchBot()
    shown = "".join(c if c.isprintable() else "?" for c in spec[:40])
    raise UsageError(f"unknown player '{shown}'; players: random, greedy, search, search:N (turns played out "
                     "per decision) or search:Nms (milliseconds)")
