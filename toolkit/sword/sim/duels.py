"""Whole sword duels for a simulation: the draft, the builds and the turns, in seat-swapped pairs.

Players are named a and b (`--players a,b`). Pair k plays two duels over one chance stream
`Random(derive(seed, k, "dice"))` (the draft's random removal and discards): in the first a is the
Challenger, in the second b is. Each player has its own stream per duel. A pair is a pure function of
(setup, seed, k), so `--jobs`, Ray and one process agree.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field

from toolkit.players import PLAYERS, Player
from toolkit.selfplay.stats import derive
from toolkit.sword import constants
from toolkit.sword.bots import SwordBot, make_bot
from toolkit.sword.bots.observation import Observation, all_hands, revealed_techniques
from toolkit.sword.engine.draft import DraftState, new_draft, opponent_hands
from toolkit.sword.engine.duel import Attributes, draw_by_time, new_duel, resolve_turn
from toolkit.sword.model import Technique
from toolkit.sword.record import RecordWriter


@dataclass(frozen=True)
class Setup:
    """What every duel of a simulation shares. Per player (a, b): a fixed build and hand, or None for the
    player's own choice and the draft. `mono` hands hold one technique twice (the balance table)."""

    techniques: dict[str, Technique]
    deck: tuple[str, ...]  # the draft's cards
    builds: tuple[Attributes | None, Attributes | None] = (None, None)
    hands: tuple[tuple[str, str] | None, tuple[str, str] | None] = (None, None)
    data_hash: str = ""
    data: str | None = None
    honor: bool = True  # False: without the honor rule (balance measures its effect)

    @property
    def drafted(self) -> bool:
        return self.hands[0] is None or self.hands[1] is None

    def public_hands(self) -> tuple[tuple[str, str], ...]:
        """Without a draft, the hands a player can imagine: every fixed hand's kind (one technique twice,
        or two cards) over the deck."""
        fixed = [hand for hand in self.hands if hand is not None]
        if fixed and all(hand[0] == hand[1] for hand in fixed):
            return tuple((card, card) for card in sorted(self.deck))
        return all_hands(list(self.deck))


@dataclass(frozen=True)
class DuelTask:
    players: tuple[str, str]
    seed: int
    pair: int
    record: bool = False


@dataclass(frozen=True)
class DuelResult:
    """One finished duel, small enough to send between processes. Sides: 0 is player a, 1 player b."""

    index: int  # pair * 2 + (0: a is the Challenger, 1: b is)
    challenger: int  # the side that was the Challenger
    winner: int  # 0, 1, or -1 for a draw
    reason: str
    turns: int
    builds: tuple[tuple[int, int, int], tuple[int, int, int]]  # per side: speed, strength, defense
    hands: tuple[tuple[str, str], tuple[str, str]]  # per side
    played: tuple[tuple[int, ...], tuple[int, ...]] = ((), ())  # per side: turns each hand card was played
    record: str | None = field(default=None, compare=False)


def play_pair(setup: Setup, task: DuelTask) -> tuple[DuelResult, DuelResult]:
    dice = derive(task.seed, task.pair, "dice")
    return (play_duel(setup, task, dice, 0), play_duel(setup, task, dice, 1))


def play_duel(setup: Setup, task: DuelTask, dice_seed: int, challenger: int) -> DuelResult:
    """One duel: side `challenger` plays the Challenger (player A of the engine)."""
    index = task.pair * 2 + challenger
    sides = (challenger, 1 - challenger)  # engine seat -> side
    players = [make_bot(task.players[side]) for side in sides]
    rngs = [random.Random(derive(task.seed, task.pair, challenger, "player", side)) for side in sides]
    dice = random.Random(dice_seed)
    writer = RecordWriter(setup.data_hash, setup.data, dice_seed, [task.players[side] for side in sides],
                          setup.honor) if task.record else None
    hands, beliefs = _hands(setup, sides, players, rngs, dice, writer)
    builds = []
    for seat, side in enumerate(sides):
        build = setup.builds[side] or players[seat].build(rngs[seat])
        builds.append(build)
        if writer:
            writer.build(PLAYERS[seat], build)
    techs = [[setup.techniques[card] for card in hand] for hand in hands]
    state = new_duel(builds[0], techs[0], builds[1], techs[1], setup.honor)
    revealed: list[set[str]] = [set(), set()]  # what each engine seat has seen of the other's hand
    played = [[0, 0], [0, 0]]
    while state.result is None:
        if state.turn > constants.TURN_LIMIT:
            state = draw_by_time(state)
            break
        choices = []
        for seat in (0, 1):
            seen = Observation(PLAYERS[seat], state, beliefs[seat], frozenset(revealed[seat]), setup.techniques)
            choices.append(players[seat].choose(seen, rngs[seat]))
        pair = (choices[0], choices[1])
        for seat in (0, 1):
            played[seat][pair[seat].technique] += 1
        if writer:
            writer.turn(state.turn, pair)
        state = resolve_turn(state, *pair, quiet=True).state  # the record keeps choices, not events
        for seat, shown in enumerate(revealed_techniques(state, pair)):
            if shown is not None:
                revealed[1 - seat].add(shown)
    result = state.result
    assert result is not None
    if writer:
        writer.finish(state)
    winner = -1 if result.winner is None else sides[result.winner.seat]
    a, b = (0, 1) if challenger == 0 else (1, 0)  # the engine seat of side a, of side b
    build_of = [(x.speed, x.strength, x.defense) for x in builds]
    return DuelResult(index, challenger, winner, result.reason.value, state.turn, (build_of[a], build_of[b]),
                      (hands[a], hands[b]), ((played[a][0], played[a][1]), (played[b][0], played[b][1])),
                      writer.text() if writer else None)


def _hands(setup: Setup, sides: tuple[int, int], players: list[SwordBot], rngs: list[random.Random],
           dice: random.Random, writer: RecordWriter | None) -> tuple[list[tuple[str, str]],
                                                                    list[tuple[tuple[str, str], ...]]]:
    """Each engine seat's hand, and the hands it can imagine for its opponent."""
    fixed = [setup.hands[side] for side in sides]
    if fixed[0] is not None and fixed[1] is not None:
        hands = [fixed[0], fixed[1]]
        if writer:
            for seat in (0, 1):
                writer.hand(PLAYERS[seat], hands[seat])
        public = setup.public_hands()
        return hands, [public, public]
    draft = run_draft(setup.deck, setup.techniques, players, rngs, dice, writer)
    return ([(draft.picks[0][0], draft.picks[0][1]), (draft.picks[1][0], draft.picks[1][1])],
            [opponent_hands(draft, Player.A), opponent_hands(draft, Player.B)])


def run_draft(deck: tuple[str, ...], techniques: Mapping[str, Technique], players: list[SwordBot],
              rngs: list[random.Random], dice: random.Random, writer: RecordWriter | None = None) -> DraftState:
    """The spec's draft: chance steps from the dice, picks and discards by the players (engine seats), who
    see the kit's `techniques` (the cards' rules) to judge them."""
    draft = new_draft(deck)
    while not draft.done:
        who, kind, count = draft.to_act()
        if who is None:
            cards = tuple(sorted(dice.sample(draft.options(), count)))
        else:
            cards = (players[who.seat].draft(draft, techniques, rngs[who.seat]),)
        if writer:
            writer.draft(who, kind, cards)
        draft = draft.apply(cards)
    return draft
