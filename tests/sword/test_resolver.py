"""The lookahead's resolver gives what the engine's `resolve_turn` gives, cell by cell: the range, both players'
Momentum, Balance and damage, and a dishonor, over every sample technique, random states and choices."""

from __future__ import annotations

import random

from tests.sword.samples import TECHNIQUES
from toolkit.players import Player
from toolkit.sword import constants
from toolkit.sword.bots import resolver
from toolkit.sword.engine.duel import (
    Choice,
    DuelState,
    PlayerState,
    Reason,
    legal_builds,
    legal_choices,
    new_duel,
    resolve_turn,
)
from toolkit.sword.model import Technique
from toolkit.sword.rules.positions import Range


def _random_state(rng: random.Random, hands: tuple[list[Technique], list[Technique]]) -> DuelState:
    """Any builds, resources up to Fudoshin's cap (also above the played technique's cap), turn and range;
    full Health (the resolver works from full Health: damage is what it returns)."""
    builds = legal_builds()
    start = new_duel(rng.choice(builds), hands[0], rng.choice(builds), hands[1], honor=rng.random() < 0.8)
    players = tuple(PlayerState(p.role, p.attributes, p.techniques, rng.randint(0, 4), rng.randint(0, 6))
                    for p in start.players)
    return DuelState(rng.randint(1, 10), rng.choice(list(Range)), (players[0], players[1]), None, start.honor)


def _engine(state: DuelState, a: Choice, b: Choice) -> resolver.Transition:
    end = resolve_turn(state, a, b).state
    pa, pb = end.players
    dishonor = end.result if end.result is not None and end.result.reason in (
        Reason.DISHONOR, Reason.DOUBLE_DISHONOR) else None
    return (end.range, pa.momentum, pa.balance, constants.START_HEALTH - pa.health,
            pb.momentum, pb.balance, constants.START_HEALTH - pb.health, dishonor)


def test_every_cell_resolves_as_the_engine_resolves_it() -> None:
    """Every ordered pair of sample techniques faces every other pair's choices; combats (attacks in range,
    evades, counters, steals) are most of the cells drawn."""
    rng = random.Random(24)
    checked = combats = 0
    for first in TECHNIQUES:
        for second in TECHNIQUES:
            for _ in range(6):
                hands = ([first, rng.choice(TECHNIQUES)], [second, rng.choice(TECHNIQUES)])
                state = _random_state(rng, hands)
                rows, cols = legal_choices(state, Player.A), legal_choices(state, Player.B)
                for _ in range(12):
                    a, b = rng.choice(rows), rng.choice(cols)
                    expected = _engine(state, a, b)
                    assert resolver.transition(state, a, b) == expected, (state, a, b)
                    checked += 1
                    combats += expected[3] + expected[6] > 0
    assert checked == 12 * 12 * 6 * 12
    assert combats > checked // 10  # the draw reaches damage often enough to test combat
