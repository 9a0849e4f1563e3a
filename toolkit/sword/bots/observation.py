"""What a sword-duel player may know (spec 002), and the opponents it can imagine from that.

A player sees its own build and hand, the public table (range, turn, both players' Momentum, Balance and
Health on the mats), the attributes its Insight revealed, every technique the opponent revealed in
combat, and what the draft showed it (`draft.opponent_hands`). It never sees the opponent's build or hand.
`Observation.imagine` builds full duel states from a sampled opponent: the players that look ahead
reason over those (determinization), never over the true state.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace

from toolkit.players import Player
from toolkit.sword.engine.duel import Attributes, Choice, DuelState, legal_builds
from toolkit.sword.model import Technique
from toolkit.sword.rules.positions import can_attack
from toolkit.sword.rules.state import Action, Knowledge


@dataclass(frozen=True)
class Observation:
    """One player's view of the duel at a decision. `state` is the true state with the opponent's build
    and hand hidden behind `imagine`: a player reads only `me`, the public fields and `known`."""

    player: Player
    state: DuelState
    hands: tuple[tuple[str, str], ...]  # the opponent hands the draft (or the setup) leaves possible
    revealed: frozenset[str]  # technique ids the opponent has shown in combat
    techniques: dict[str, Technique]  # every technique of the kit, by id

    @property
    def known(self) -> Knowledge:
        return self.state.players[self.player.seat].knows

    def possible_hands(self) -> list[tuple[str, str]]:
        """The opponent hands consistent with every technique it revealed."""
        hands = [hand for hand in self.hands if self.revealed <= set(hand)]
        return hands or [hand for hand in self.hands] or [(t, t) for t in sorted(self.revealed)]

    def possible_builds(self) -> list[Attributes]:
        """The legal builds consistent with the attributes Insight revealed."""
        known = self.known
        return [build for build in legal_builds()
                if all(value is None or getattr(build, name) == value
                       for name, value in (("speed", known.speed), ("strength", known.strength),
                                           ("defense", known.defense)))]

    def imagine(self, rng: random.Random) -> DuelState:
        """The duel with a build and hand for the opponent drawn uniformly from what it may hold."""
        build = rng.choice(self.possible_builds())
        hand = rng.choice(self.possible_hands())
        return self.with_opponent(build, hand)

    def with_opponent(self, build: Attributes, hand: tuple[str, str]) -> DuelState:
        them = self.player.other().seat
        foe = self.state.players[them]
        foe = replace(foe, attributes=build, techniques=(self.techniques[hand[0]], self.techniques[hand[1]]))
        players = list(self.state.players)
        players[them] = foe
        return replace(self.state, players=(players[0], players[1]))


def revealed_techniques(after: DuelState, choices: tuple[Choice, Choice]) -> tuple[str | None, str | None]:
    """The technique each player showed this turn: combat happened (an attack in range) and the player
    attacked or defended ("Players who are Attacking or Defending reveal their technique cards")."""
    if not can_attack(after.range) or not any(c.action is Action.ATTACK for c in choices):
        return (None, None)
    shown: list[str | None] = []
    for seat, choice in enumerate(choices):
        player = after.players[seat]
        shown.append(player.techniques[choice.technique].id
                     if choice.action in (Action.ATTACK, Action.DEFEND) else None)
    return (shown[0], shown[1])


def all_hands(cards: list[str]) -> tuple[tuple[str, str], ...]:
    """Every hand of two cards from a deck (a player who saw no draft can only assume this)."""
    ordered = sorted(set(cards))
    return tuple((a, b) for i, a in enumerate(ordered) for b in ordered[i + 1:])
