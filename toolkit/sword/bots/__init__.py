"""Bots (computer players) of the sword duel behind one interface: a build, draft picks, and a secret choice
each turn (a `Player` is a seat, A or B; a bot plays one).

A bot is pure (no I/O) and deterministic given its rng, which is its own: it never sees the game's
chance stream nor the opponent's build and hand (an `Observation` hides them).

    random            any legal choice, draft card and build, uniformly
    greedy            the best reply to an opponent who picks uniformly among its legal choices, one turn deep
    equilibrium       solves the turn's matrix game (values one turn deep, HiGHS linear programming) over
                      imagined opponents and samples its mixed strategy; drafts the card of highest value
                      (`draft_value`: the one-turn matrix games of the kit's cards against each other)
    equilibrium:N     ... imagining N opponents per decision (default DEFAULT_TYPES)
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping
from typing import Protocol

import numpy as np

from toolkit.players import Player
from toolkit.problems import UsageError
from toolkit.sword.bots.draft_value import best_card
from toolkit.sword.bots.lookahead import candidate_choices, candidates, payoff, payoff_array
from toolkit.sword.bots.matrix import greedy_reply, solve
from toolkit.sword.bots.observation import Observation
from toolkit.sword.engine.draft import DraftState
from toolkit.sword.engine.duel import Attributes, Choice, legal_builds, legal_choices
from toolkit.sword.model import Technique

BOT_NAMES = ("random", "greedy", "equilibrium")
DEFAULT_TYPES = 3  # opponents imagined per equilibrium decision
SAFETY = 0.05  # value an equilibrium player gives up below the game's value to exploit a greedy opponent
MAX_TYPES = 32
_EQUILIBRIUM = re.compile(r"equilibrium(?::([0-9]{1,3}))?")  # ASCII digits only


class SwordBot(Protocol):
    name: str

    def build(self, rng: random.Random) -> Attributes: ...

    def draft(self, draft: DraftState, techniques: Mapping[str, Technique], rng: random.Random) -> str: ...

    def choose(self, seen: Observation, rng: random.Random) -> Choice: ...


class RandomBot:
    """Uniform over everything legal."""

    name = "random"

    def build(self, rng: random.Random) -> Attributes:
        builds = legal_builds()
        return builds[rng.randrange(len(builds))]

    def draft(self, draft: DraftState, techniques: Mapping[str, Technique], rng: random.Random) -> str:
        del techniques
        options = draft.options()
        return options[rng.randrange(len(options))]

    def choose(self, seen: Observation, rng: random.Random) -> Choice:
        legal = legal_choices(seen.state, seen.player)
        return legal[rng.randrange(len(legal))]


class GreedyBot(RandomBot):
    """The choice with the best average value against every legal choice of an imagined opponent (one
    build and hand drawn from what it may hold), one turn deep; ties broken by the rng. Builds and draft
    picks are uniform (see DESIGN.md)."""

    name = "greedy"

    def choose(self, seen: Observation, rng: random.Random) -> Choice:
        state = seen.imagine(rng)
        mine = candidates(state, seen.player)
        theirs = candidates(state, seen.player.other())
        total = sum(c.weight for c in theirs)
        values = payoff(state, seen.player, [c.choice for c in mine], [c.choice for c in theirs])
        scores = [sum(v * c.weight for v, c in zip(row, theirs, strict=True)) / total for row in values]
        best = max(scores)
        ties = [c.choice for c, score in zip(mine, scores, strict=True) if score >= best - 1e-9]
        return ties[rng.randrange(len(ties))]


class EquilibriumBot(RandomBot):
    """Solves this turn's matrix game against `types` imagined opponents (each answers with its own best
    columns) and samples the mixed strategy with its own rng. Among the strategies that guarantee the game's
    value (within SAFETY) it keeps the one that does best against the opponent's best reply to a uniform
    player (what a greedy opponent would play)."""

    def __init__(self, types: int = DEFAULT_TYPES) -> None:
        self.types = types
        self.name = "equilibrium" if types == DEFAULT_TYPES else f"equilibrium:{types}"

    def strategy(self, seen: Observation, rng: random.Random) -> tuple[list[Choice], tuple[float, ...]]:
        """The rows (its candidate choices) and the probability of each."""
        worlds = [seen.imagine(rng) for _ in range(self.types)]
        mine = candidate_choices(worlds[0], seen.player)
        weights = [c.weight for c in candidates(worlds[0], seen.player)]
        matrices, prefer = [], np.zeros(len(mine))
        for world in worlds:
            matrix = payoff_array(world, seen.player, mine, candidate_choices(world, seen.player.other()))
            matrices.append(matrix)
            # the column a greedy opponent plays: its best reply to this player choosing uniformly
            column = greedy_reply(matrix, weights)
            prefer += matrix[:, column] / len(worlds)
        return list(mine), solve(matrices, prefer=prefer, slack=SAFETY).strategy

    def draft(self, draft: DraftState, techniques: Mapping[str, Technique], rng: random.Random) -> str:
        """The strongest card offered by the engine's own measure (`draft_value`): to keep it, or, when
        discarding, to keep it from the opponent."""
        return best_card(draft, techniques, rng)

    def choose(self, seen: Observation, rng: random.Random) -> Choice:
        rows, strategy = self.strategy(seen, rng)
        return rng.choices(rows, weights=strategy)[0]


def make_bot(spec: str) -> SwordBot:
    """A player from its name on the command line; UsageError for anything else."""
    text = spec.strip().lower()
    if text == "random":
        return RandomBot()
    if text == "greedy":
        return GreedyBot()
    match = _EQUILIBRIUM.fullmatch(text)
    if match:
        types = int(match.group(1)) if match.group(1) else DEFAULT_TYPES
        if not 1 <= types <= MAX_TYPES:
            raise UsageError(f"equilibrium:N imagines 1 to {MAX_TYPES} opponents per decision (got '{spec[:40]}')")
        return EquilibriumBot(types)
    raise UsageError(f"unknown sword-duel player '{spec[:40]}'; players: random, greedy, equilibrium, "
                     "equilibrium:N")


__all__ = ["BOT_NAMES", "EquilibriumBot", "GreedyBot", "Observation", "Player", "RandomBot",
           "SwordBot", "make_bot"]
