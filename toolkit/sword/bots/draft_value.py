"""What a technique card is worth in the draft, worked out from the kit's own cards by the engine.

A technique's value is the average, over every other card of the draft, of the matrix game in which each
player holds one card twice, at a reference position where the cards decide the exchange: the honor turn
(no more Retreat), Sword range, both players at the balanced build 2/2/2, 1 Momentum and 1 Balance, full
Health. The game is the looking-ahead players' own (`lookahead.payoff`, one turn deep, solved by
`matrix.solve`), so a designer's new card is valued the same way as the samples. Resolution never reads a
player's role, so the position is symmetric and each pair of cards is solved once (x against y is minus y
against x).

Values are remembered per process for each draft (about 45 small games for a 10-card draft).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from toolkit.players import Player
from toolkit.sword import constants
from toolkit.sword.bots.lookahead import candidates, payoff
from toolkit.sword.bots.matrix import solve
from toolkit.sword.engine.draft import DraftState
from toolkit.sword.engine.duel import Attributes, DuelState, PlayerState, Role
from toolkit.sword.model import Technique
from toolkit.sword.rules.positions import Range

REFERENCE_BUILD = Attributes(2, 2, 2)
REFERENCE_RANGE = Range.SWORD
REFERENCE_RESOURCES = (1, 1)  # Momentum, Balance of each player
_VALUES: dict[tuple[str, ...], tuple[tuple[Technique, ...], dict[str, float]]] = {}


def card_game_value(mine: Technique, theirs: Technique) -> float:
    """The value (-1..1) for the player holding `mine` twice against one holding `theirs` twice, at the
    reference position."""
    momentum, balance = REFERENCE_RESOURCES
    players = tuple(PlayerState(role, REFERENCE_BUILD, (card, card), momentum, balance, constants.START_HEALTH)
                    for role, card in ((Role.CHALLENGER, mine), (Role.DEFENDER, theirs)))
    state = DuelState(constants.HONOR_TURN, REFERENCE_RANGE, (players[0], players[1]), None, True)
    # both cards of a hand are the same card: the choices with the first one are all the choices
    rows = [c.choice for c in candidates(state, Player.A) if c.choice.technique == 0]
    cols = [c.choice for c in candidates(state, Player.B) if c.choice.technique == 0]
    return solve([payoff(state, Player.A, rows, cols)]).value


def technique_values(techniques: Sequence[Technique]) -> dict[str, float]:
    """Each card's average `card_game_value` against the other cards (remembered per list of cards)."""
    key = tuple(t.id for t in techniques)
    found = _VALUES.get(key)
    if found is not None and all(a is b for a, b in zip(found[0], techniques, strict=True)):
        return found[1]
    totals = dict.fromkeys(key, 0.0)
    for i, mine in enumerate(techniques):
        for theirs in techniques[i + 1:]:
            value = card_game_value(mine, theirs)
            totals[mine.id] += value
            totals[theirs.id] -= value
    values = {card: total / max(1, len(key) - 1) for card, total in totals.items()}
    if len(_VALUES) > 64:
        _VALUES.clear()
    _VALUES[key] = (tuple(techniques), values)
    return values


def best_card(draft: DraftState, techniques: Mapping[str, Technique], rng: random.Random) -> str:
    """The card of highest value among those offered (ties by the rng). For a pick it is the strongest card
    to keep; for the Challenger's discard it is the strongest card the Defender could still pick next."""
    values = technique_values([techniques[card] for card in draft.full])
    options = draft.options()
    top = max(values[card] for card in options)
    ties = [card for card in options if values[card] >= top - 1e-9]
    return ties[rng.randrange(len(ties))]
