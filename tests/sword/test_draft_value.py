"""How the equilibrium player drafts: the cards' worth from the engine's own matrix games, the strongest kept,
the strongest denied."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
import yaml

from toolkit.sword.bots import EquilibriumBot, make_bot
from toolkit.sword.bots.draft_value import card_game_value, technique_values
from toolkit.sword.engine.draft import new_draft
from toolkit.sword.model import EvadeCost, Technique

TECHNIQUES = {path.stem: Technique.model_validate(yaml.safe_load(path.read_text(encoding="utf-8")))
              for path in sorted((Path(__file__).resolve().parents[2] / "techniques").glob("*.yaml"))}
DECK = ("fudoshin", "irimi", "kuzushi", "ma-ai", "mizu-no-kokoro", "mushin", "nagashi", "sen-sen-no-sen",
        "tsubame-gaeshi", "tsuki-kage")


def test_a_card_is_worth_to_one_player_what_it_costs_the_other() -> None:
    # the reference position is the same for both players, and resolution never reads the role
    x, y = TECHNIQUES["kuzushi"], TECHNIQUES["nagashi"]
    assert card_game_value(x, y) == pytest.approx(-card_game_value(y, x), abs=1e-6)
    values = technique_values([TECHNIQUES[card] for card in DECK])
    assert sum(values.values()) == pytest.approx(0.0, abs=1e-6)


def test_the_balance_tables_strongest_card_is_valued_above_its_weakest() -> None:
    values = technique_values([TECHNIQUES[card] for card in DECK])
    assert max(values, key=lambda card: values[card]) == "tsuki-kage"
    assert values["tsuki-kage"] > values["kuzushi"] > values["mushin"]


def test_a_card_without_its_evade_is_worth_less_than_the_card() -> None:
    card = TECHNIQUES["tsuki-kage"]
    weaker = card.model_copy(update={"id": "tsuki-kage-no-evade", "evade": EvadeCost(cannot=True)})
    cards = [TECHNIQUES["kuzushi"], TECHNIQUES["mushin"], card, weaker]
    values = technique_values(cards)
    assert values["tsuki-kage"] > values["tsuki-kage-no-evade"]


def test_the_equilibrium_player_keeps_the_strongest_card_offered() -> None:
    draft = new_draft(DECK).apply(("mushin",))  # the random removal
    assert EquilibriumBot().draft(draft, TECHNIQUES, random.Random(1)) == "tsuki-kage"
    without = new_draft(DECK).apply(("tsuki-kage",))
    values = technique_values([TECHNIQUES[card] for card in DECK])
    best_left = max(without.options(), key=lambda card: values[card])
    assert EquilibriumBot().draft(without, TECHNIQUES, random.Random(1)) == best_left


def test_the_challengers_discard_keeps_the_strongest_card_from_the_defender() -> None:
    draft = new_draft(DECK)
    for cards in (("fudoshin",), ("mushin",), ("ma-ai",), ("irimi", "nagashi"), ("kuzushi",)):
        draft = draft.apply(cards)
    assert draft.to_act()[1] == "discard"
    assert "tsuki-kage" in draft.options()
    assert EquilibriumBot().draft(draft, TECHNIQUES, random.Random(1)) == "tsuki-kage"


def test_random_and_greedy_still_draft_uniformly() -> None:
    draft = new_draft(DECK).apply(("mushin",))
    for name in ("random", "greedy"):
        picked = {make_bot(name).draft(draft, TECHNIQUES, random.Random(seed)) for seed in range(40)}
        assert len(picked) > 3
