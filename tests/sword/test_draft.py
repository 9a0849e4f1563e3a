"""The draft of spec 002: who takes what, chance's removals, and what each player can infer."""

from __future__ import annotations

import random

import pytest

from toolkit.players import Player
from toolkit.sword.engine.draft import DraftError, new_draft, opponent_hands

DECK = tuple(f"t{i}" for i in range(10))


def _run(seed: int):
    rng = random.Random(seed)
    draft = new_draft(DECK)
    while not draft.done:
        _, _, count = draft.to_act()
        draft = draft.apply(tuple(rng.sample(draft.options(), count)))
    return draft


def test_each_player_ends_with_two_distinct_cards_and_the_steps_follow_the_spec() -> None:
    draft = new_draft(DECK)
    sizes = []
    while not draft.done:
        who, kind, count = draft.to_act()
        sizes.append((None if who is None else who.value, kind, len(draft.options())))
        draft = draft.apply(tuple(draft.options()[:count]))
    assert sizes == [(None, "remove", 10), ("A", "pick", 9), ("B", "pick", 8), (None, "random_discard", 7),
                     ("A", "pick", 5), ("A", "discard", 4), ("B", "pick", 3)]
    assert len(set(draft.picks[0] + draft.picks[1])) == 4


@pytest.mark.parametrize("seed", range(20))
def test_what_a_player_infers_always_holds_the_opponents_real_hand(seed: int) -> None:
    draft = _run(seed)
    for player in (Player.A, Player.B):
        hands = opponent_hands(draft, player)
        real = tuple(sorted(draft.picks[player.other().seat]))
        assert real in hands
        assert len(hands) == (9 if player is Player.A else 4)
        assert not set(draft.picks[player.seat]) & {card for hand in hands for card in hand}


def test_a_card_not_in_the_deck_is_refused() -> None:
    draft = new_draft(DECK).apply(("t0",))
    with pytest.raises(DraftError, match="takes 1 distinct card"):
        draft.apply(("t0",))
