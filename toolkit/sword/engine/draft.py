"""The technique draft of spec 002, as a pure state machine with explicit chance steps.

"Remove 1 random card. Then the Challenger chooses 1 card, and passes the deck to the Defender. The
Defender chooses 1 card, discards 2 cards randomly, and passes the deck back to the Challenger. The
Challenger then chooses another card, discards 1 card, and passes the deck back to the Defender. Finally
the Defender chooses 1 more card, and discards the remaining cards in the deck."

Rulings: the Challenger's single discard is its own choice (the spec says "randomly" only for the
Defender's two); the deck is an unordered set of card ids; each player sees the deck exactly when it holds
it, so what it can infer about the opponent's hand is `opponent_hands` (the Challenger: 3 x 3 pairs, the
Defender: 2 x 2). The driver samples chance steps; the state holds no random generator.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Literal

from toolkit.players import Player
from toolkit.sword.rules.state import SwordRulesError

StepKind = Literal["remove", "pick", "discard", "random_discard"]

# (who acts: None for chance, what, how many cards)
STEPS: tuple[tuple[Player | None, StepKind, int], ...] = (
    (None, "remove", 1),
    (Player.A, "pick", 1),
    (Player.B, "pick", 1),
    (None, "random_discard", 2),
    (Player.A, "pick", 1),
    (Player.A, "discard", 1),
    (Player.B, "pick", 1),
)


class DraftError(SwordRulesError):
    """A draft step the rules do not allow (a card not in the deck, a deck of the wrong size)."""


@dataclass(frozen=True, slots=True)
class DraftState:
    """The deck in hand, each player's picks, and what each player saw of the deck (by step index)."""

    deck: tuple[str, ...]  # the cards still in the deck, sorted
    full: tuple[str, ...]  # the draft's cards, sorted (public: the kit's draft list)
    picks: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())
    step: int = 0
    seen: tuple[tuple[str, ...], ...] = ()  # the deck as it was at each player step, in step order

    @property
    def done(self) -> bool:
        return self.step >= len(STEPS)

    def to_act(self) -> tuple[Player | None, StepKind, int]:
        """Who acts next (None: chance), what they do, and with how many cards."""
        if self.done:
            raise DraftError("the draft is over")
        return STEPS[self.step]

    def options(self) -> tuple[str, ...]:
        """The cards the next step chooses from."""
        return self.deck

    def apply(self, cards: tuple[str, ...]) -> DraftState:
        """Take the next step with these cards (a pick, a discard, or chance's removal)."""
        who, kind, count = self.to_act()
        if len(cards) != count or len(set(cards)) != count or any(card not in self.deck for card in cards):
            raise DraftError(f"step {self.step + 1} ({kind}) takes {count} distinct card(s) from the deck "
                             f"{', '.join(self.deck)}; got {', '.join(cards) or 'none'}")
        deck = tuple(card for card in self.deck if card not in cards)
        picks = self.picks
        seen = self.seen + ((self.deck,) if who is not None else ())
        if kind == "pick" and who is not None:
            mine = (*picks[who.seat], cards[0])
            picks = (mine, picks[1]) if who is Player.A else (picks[0], mine)
        step = self.step + 1
        if step >= len(STEPS):
            deck = ()  # "discards the remaining cards in the deck"
        return DraftState(deck, self.full, picks, step, seen)  # built directly: dataclasses.replace is slow


def new_draft(cards: tuple[str, ...] | list[str]) -> DraftState:
    if len(cards) < 7 or len(set(cards)) != len(cards):
        raise DraftError(f"a draft needs at least 7 distinct cards, got {len(cards)}")
    ordered = tuple(sorted(cards))
    return DraftState(ordered, ordered)


def opponent_hands(state: DraftState, player: Player) -> tuple[tuple[str, str], ...]:
    """Every technique pair the opponent may hold, given only what this player saw (a finished draft).

    The Challenger passed 8 cards and got 5 back: the Defender's first pick is one of the 3 missing, its
    second one of the 3 the Challenger passed last. The Defender never sees the removed card: the
    Challenger's first pick is one of the 2 draft cards it did not see, its second one of the 2 of the 5
    it passed that did not come back.
    """
    if not state.done:
        raise DraftError("the draft is not over")
    # seen: the decks at steps 2 (A, 9 cards), 3 (B, 8), 5 (A, 5), 6 (A, 4), 7 (B, 3)
    _, b_first, a_second, _, b_second = state.seen
    if player is Player.A:
        options = ([c for c in b_first if c not in a_second], list(b_second))
    else:
        options = ([c for c in state.full if c not in b_first], [c for c in a_second if c not in b_second])
    pairs = {(min(x, y), max(x, y)) for x, y in itertools.product(*options) if x != y}
    return tuple(sorted(pairs))
