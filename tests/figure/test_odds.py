"""Exact battle odds: hand-computed cases per colour pair, symmetry, modifiers, JSON, and the fast matrix."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from toolkit.cli import main
from toolkit.figure.analysis.balance import balance
from toolkit.figure.analysis.matchups import Profile, matchup
from toolkit.figure.analysis.odds import Side, battle_odds
from toolkit.figure.database import find_datasets, load_database
from toolkit.figure.model import Color, Segment
from toolkit.figure.rules.status import status_rule

W, G, P, B, R = Color.WHITE, Color.GOLD, Color.PURPLE, Color.BLUE, Color.RED


def seg(color: Color, size: int, damage: int | None = None, stars: int | None = None, effect: str | None = None):
    return Segment(move=f"{color.value}{size}", color=color, size=size, damage=damage, stars=stars, effect=effect)


def two(a: Segment, b: Segment) -> tuple[Segment, ...]:
    return (a, b)


# Each disk: half one colour, half Red, so each colour pair is worked out by hand on a 2 x 2 grid.
HALF = 48


@pytest.mark.parametrize("a_color, d_color, attacker, defender, draw", [
    # attacker half vs defender half decides 1/4; the rest: colour vs Red (colour wins), Red vs Red (draw)
    (W, P, "1/4", "1/2", "1/4"),     # Purple beats White
    (P, W, "1/2", "1/4", "1/4"),
    (G, P, "1/2", "1/4", "1/4"),     # Gold beats Purple
    (B, G, "1/2", "1/4", "1/4"),     # Blue beats Gold
    (G, B, "1/4", "1/2", "1/4"),
    (B, B, "1/4", "1/4", "1/2"),     # Blue vs Blue draws
    (R, R, "0", "0", "1"),
])
def test_hand_computed_colour_pairs(a_color, d_color, attacker, defender, draw) -> None:
    a = two(seg(a_color, HALF, damage=50 if a_color in (W, G) else None, stars=2 if a_color is P else None),
            seg(R, HALF))
    d = two(seg(d_color, HALF, damage=50 if d_color in (W, G) else None, stars=2 if d_color is P else None),
            seg(R, HALF))
    odds = battle_odds(Side(a), Side(d))
    assert (odds.attacker_wins, odds.defender_wins, odds.draw) == (Fraction(attacker), Fraction(defender),
                                                                  Fraction(draw))


def test_damage_and_stars_compare() -> None:
    strong = (seg(W, 96, damage=90),)
    weak = (seg(G, 96, damage=40),)
    assert battle_odds(Side(strong), Side(weak)).attacker_wins == 1
    assert battle_odds(Side(weak), Side(strong)).defender_wins == 1
    three = (seg(P, 96, stars=3, effect="x"),)
    one = (seg(P, 96, stars=1, effect="x"),)
    odds = battle_odds(Side(one), Side(three))
    assert odds.defender_wins == 1 and odds.defender_effect == 1 and odds.attacker_deactivated == 0


def test_consequences_follow_the_winning_colour() -> None:
    attacker = (seg(W, 32, damage=50), seg(P, 32, stars=1, effect="Paralysed"), seg(B, 32))
    defender = (seg(R, 96),)
    odds = battle_odds(Side(attacker), Side(defender))
    assert odds.attacker_wins == 1
    assert odds.defender_deactivated == Fraction(1, 3)  # only the White win knocks out
    assert odds.attacker_effect == Fraction(1, 3)  # the Purple win applies its effect
    # the Blue third is a wash: neither knocked out nor affected


@pytest.fixture(scope="module")
def units():
    return {u.id: u for ds in find_datasets(None)[0] for u in load_database(ds).unit_defs().values()}


def test_swapping_roles_swaps_win_probabilities(units) -> None:
    ids = sorted(units)[:12]
    for a in ids:
        for d in ids:
            forward = battle_odds(Side(units[a].disk), Side(units[d].disk))
            backward = battle_odds(Side(units[d].disk), Side(units[a].disk))
            assert forward.attacker_wins == backward.defender_wins
            assert forward.draw == backward.draw
            assert forward.attacker_wins + forward.defender_wins + forward.draw == 1


def test_modifiers_move_odds_the_right_way(units) -> None:
    a, d = units["v-k4"].disk, units["t-2"].disk
    plain = battle_odds(Side(a), Side(d))
    assert battle_odds(Side(a, damage_bonus=30), Side(d)).attacker_wins > plain.attacker_wins
    assert battle_odds(Side(a, stage=2), Side(d)).attacker_wins > plain.attacker_wins
    assert battle_odds(Side(a, respin=True), Side(d)).attacker_wins > plain.attacker_wins
    assert battle_odds(Side(a), Side(d, respin=True)).defender_wins > plain.defender_wins
    for variant in ("spec000", "spec001"):
        assert battle_odds(Side(a, status=status_rule(variant, "burn")), Side(d)).attacker_wins < plain.attacker_wins
        assert battle_odds(Side(a), Side(d, status=status_rule(variant, "paralysis"))).attacker_wins > \
            plain.attacker_wins
        confused = battle_odds(Side(a, status=status_rule(variant, "confusion")), Side(d))
        assert confused.attacker_deactivated > plain.attacker_deactivated
        asleep = battle_odds(Side(a), Side(d, status=status_rule(variant, "sleep")))
        assert asleep.attacker_wins > plain.attacker_wins and asleep.defender_wins == 0


def test_confusion_is_two_stage() -> None:
    disk = (seg(W, 24, damage=50), seg(B, 72))
    confused = battle_odds(Side(disk, status=status_rule("spec001", "confusion")), Side((seg(R, 96),)))
    self_hits = [o for o in confused.outcomes if o.consequence == "self-hit"]
    assert [o.probability for o in self_hits] == [Fraction(1, 4)]
    assert confused.attacker_wins == Fraction(3, 4) and confused.attacker_deactivated == Fraction(1, 4)


def test_fast_matrix_equals_exact_enumeration(units) -> None:
    names = ("attacker_wins", "defender_wins", "draw", "attacker_deactivated", "defender_deactivated",
             "attacker_effect", "defender_effect")
    for a in units.values():
        for d in units.values():
            exact = battle_odds(Side(a.disk), Side(d.disk))
            fast = matchup(Profile.of(a.disk), Profile.of(d.disk))
            for name in names:
                assert Fraction(getattr(fast, name), fast.total) == getattr(exact, name), (a.id, d.id, name)


def test_odds_json_sums_to_one(capsys) -> None:
    assert main(["odds", "v-k4", "sq-7", "--json", "--module", "double-chance",
                 "--defender-status", "EMP Static"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert abs(data["attacker_wins"] + data["defender_wins"] + data["draw"] - 1) < 1e-12
    assert abs(sum(o["probability"] for o in data["outcomes"]) - 1) < 1e-12
    assert {"attacker", "defender", "attacker_deactivated", "defender_deactivated", "effect_applied"} <= set(data)


def test_odds_text_and_errors(capsys) -> None:
    assert main(["odds", "j-lts", "a-sqt", "--attacker-stage", "1"]) == 0
    out = capsys.readouterr().out
    assert "attacker wins" in out and "%" in out and "attacker stage 1" in out
    assert main(["odds", "j-lts", "a-sqt", "--attacker-status", "nonsense"]) == 2
    assert "unknown status" in capsys.readouterr().err
    assert main(["odds", "j-lts", "a-sqt", "--module", "teleport-swap"]) == 2


def test_balance_ratings_and_report(units, tmp_path, capsys) -> None:
    result = balance({uid: u for uid, u in units.items() if uid in {"v-k4", "sq-7", "l-10s", "t-1", "z-0"}})
    ratings = [r.rating for r in result.ratings]
    assert ratings == sorted(ratings, reverse=True)
    assert main(["balance", "--game", "duel-protocol", "--out", str(tmp_path)]) == 0
    folder = tmp_path / "duel-protocol"
    assert {p.name for p in folder.iterdir()} == {"balance.pdf", "balance.csv", "matchups.csv"}
    rows = (folder / "matchups.csv").read_text().splitlines()
    assert len(rows) == 1 + 20 * 20
