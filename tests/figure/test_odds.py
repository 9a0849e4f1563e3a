"""Exact battle odds: hand-computed cases per colour pair, symmetry, modifiers, JSON, and the fast matrix."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from toolkit.cli import main
from toolkit.figure.analysis.balance import balance
from toolkit.figure.analysis.matchups import Profile, matchup
from toolkit.figure.analysis.odds import Fighter, battle_odds
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


@pytest.mark.parametrize(("a_color", "d_color", "attacker", "defender", "draw"), [
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
    odds = battle_odds(Fighter(a), Fighter(d))
    assert (odds.attacker_wins, odds.defender_wins, odds.draw) == (Fraction(attacker), Fraction(defender),
                                                                  Fraction(draw))


def test_damage_and_stars_compare() -> None:
    strong = (seg(W, 96, damage=90),)
    weak = (seg(G, 96, damage=40),)
    assert battle_odds(Fighter(strong), Fighter(weak)).attacker_wins == 1
    assert battle_odds(Fighter(weak), Fighter(strong)).defender_wins == 1
    three = (seg(P, 96, stars=3, effect="x"),)
    one = (seg(P, 96, stars=1, effect="x"),)
    odds = battle_odds(Fighter(one), Fighter(three))
    assert odds.defender_wins == 1
    assert odds.defender_effect == 1
    assert odds.attacker_deactivated == 0


def test_consequences_follow_the_winning_colour() -> None:
    attacker = (seg(W, 32, damage=50), seg(P, 32, stars=1, effect="Paralysed"), seg(B, 32))
    defender = (seg(R, 96),)
    odds = battle_odds(Fighter(attacker), Fighter(defender))
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
            forward = battle_odds(Fighter(units[a].disk), Fighter(units[d].disk))
            backward = battle_odds(Fighter(units[d].disk), Fighter(units[a].disk))
            assert forward.attacker_wins == backward.defender_wins
            assert forward.draw == backward.draw
            assert forward.attacker_wins + forward.defender_wins + forward.draw == 1


def test_modifiers_move_odds_the_right_way(units) -> None:
    a, d = units["v-k4"].disk, units["t-2"].disk
    plain = battle_odds(Fighter(a), Fighter(d))
    assert battle_odds(Fighter(a, damage_bonus=30), Fighter(d)).attacker_wins > plain.attacker_wins
    assert battle_odds(Fighter(a, stage=2), Fighter(d)).attacker_wins > plain.attacker_wins
    assert battle_odds(Fighter(a, respin=True), Fighter(d)).attacker_wins > plain.attacker_wins
    with pytest.raises(ValueError, match="only the attacker can re-spin"):  # committed on its owner's turn only
        battle_odds(Fighter(a), Fighter(d, respin=True))
    for variant in ("spec000", "spec001"):
        burnt = battle_odds(Fighter(a, status=status_rule(variant, "burn")), Fighter(d))
        assert burnt.attacker_wins < plain.attacker_wins
        assert battle_odds(Fighter(a), Fighter(d, status=status_rule(variant, "paralysis"))).attacker_wins > \
            plain.attacker_wins
        confused = battle_odds(Fighter(a, status=status_rule(variant, "confusion")), Fighter(d))
        assert confused.attacker_deactivated > plain.attacker_deactivated
    asleep = battle_odds(Fighter(a), Fighter(d, status=status_rule("spec000", "sleep")))
    assert asleep.attacker_wins > plain.attacker_wins
    assert asleep.defender_wins == 0


def test_confusion_is_two_stage() -> None:
    disk = (seg(W, 24, damage=50), seg(B, 72))
    confused = battle_odds(Fighter(disk, status=status_rule("spec001", "confusion")), Fighter((seg(R, 96),)))
    self_hits = [o for o in confused.outcomes if o.consequence == "self-hit"]
    assert [o.probability for o in self_hits] == [Fraction(1, 4)]
    assert confused.attacker_wins == Fraction(3, 4)
    assert confused.attacker_deactivated == Fraction(1, 4)


def test_fast_matrix_equals_exact_enumeration(units) -> None:
    names = ("attacker_wins", "defender_wins", "draw", "attacker_deactivated", "defender_deactivated",
             "attacker_effect", "defender_effect")
    for a in units.values():
        for d in units.values():
            exact = battle_odds(Fighter(a.disk), Fighter(d.disk))
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
    assert "attacker wins" in out
    assert "%" in out
    assert "attacker stage 1" in out
    assert main(["odds", "j-lts", "a-sqt", "--attacker-status", "nonsense"]) == 2
    assert "unknown status" in capsys.readouterr().err
    assert main(["odds", "j-lts", "a-sqt", "--module", "teleport-swap"]) == 2


@pytest.mark.usefixtures("capsys")  # keeps the command's report out of the test output
def test_balance_ratings_and_report(units, tmp_path) -> None:
    result = balance({uid: u for uid, u in units.items() if uid in {"v-k4", "sq-7", "l-10s", "t-1", "z-0"}})
    ratings = [r.rating for r in result.ratings]
    assert ratings == sorted(ratings, reverse=True)
    assert main(["balance", "--game", "duel-protocol", "--out", str(tmp_path)]) == 0
    folder = tmp_path / "duel-protocol"
    assert {p.name for p in folder.iterdir()} == {"balance.pdf", "balance.csv", "matchups.csv", ".duelkit-output"}
    rows = (folder / "matchups.csv").read_text().splitlines()
    assert len(rows) == 1 + 20 * 20


def test_chimera_sleep_and_frozen_defenders_still_spin(units) -> None:
    """Spec 001 Table 2.2: a sleeping or frozen unit cannot move or initiate an attack, but attacked it
    spins normally. Spec 000 Table 2.2: it cannot participate in combat, so it counts as a Miss."""
    a, d = units["v-pka"].disk, units["a-sqt"].disk
    plain = battle_odds(Fighter(a), Fighter(d))
    # by hand: a-sqt spins Withdraw (Blue 56), Bubble Shot (White 20, 28) or Malfunction (12). Every v-pka
    # segment but its Malfunction beats Bubble Shot and Malfunction (28 + 12 = 40) and none beats Withdraw:
    # (28 + 24 + 16 + 8 + 12) * 40 = 3520 of 96 * 96 = 9216, i.e. 55/144. As a Miss it would lose 88/96.
    assert plain.attacker_wins == Fraction(55, 144)
    for status in ("sleep", "frozen"):
        chimera = battle_odds(Fighter(a), Fighter(d, status=status_rule("spec001", status)))
        assert (chimera.attacker_wins, chimera.defender_wins, chimera.draw) == \
            (Fraction(55, 144), Fraction(77, 144), Fraction(1, 12))
        protocol = battle_odds(Fighter(a), Fighter(d, status=status_rule("spec000", status)))
        assert (protocol.attacker_wins, protocol.defender_wins) == (Fraction(11, 12), 0)
        for variant in ("spec000", "spec001"):
            rule = status_rule(variant, status)
            assert not rule.can_initiate
        assert not status_rule("spec001", status).can_move
        assert status_rule("spec001", status).spins_when_attacked
        assert not status_rule("spec000", status).spins_when_attacked


def test_chimera_sleep_odds_on_the_command_line(capsys) -> None:
    assert main(["odds", "v-pka", "a-sqt", "--theme", "chimera", "--defender-status", "sleep", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["exact"]["attacker_wins"] == "55/144"
    assert main(["odds", "v-k4", "sq-7", "--theme", "duel-protocol", "--defender-status", "sleep", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["exact"]["defender_wins"] == "0"


def test_status_reduction_and_module_bonus_add_up_before_the_floor(units, capsys) -> None:
    """a-2's Gust (White 20, 28 of 96) under Noxious (-40) with X Attack (+30) hits for 10, not 30."""
    a2 = units["a-2"].disk
    noxious = status_rule("spec000", "noxious")
    side = Fighter(a2, status=noxious, damage_bonus=30)
    gust = next(s for s in side.battle_disk() if s.move == "Gust")
    assert gust.damage == 10
    # against a single White 20 segment, Gust at 10 now loses: before the fix (30) it won
    wall = (seg(W, 96, damage=20),)
    odds = battle_odds(side, Fighter(wall))
    gust_wins = [o for o in odds.outcomes if o.attacker_segment is not None
                 and side.battle_disk()[o.attacker_segment].move == "Gust"]
    assert [o.winner.value for o in gust_wins] == ["defender"]
    assert gust_wins[0].probability == Fraction(28, 96)
    # a-2 against sq-7 (Withdraw Blue 52, Bubble White 20 in 32, Miss 12), by hand: Gust 10 beats only the
    # Miss (28 * 12), Quick Strike 30 - 40 + 30 = 20 beats the Miss and draws Bubble (24 * 12), Dodge beats
    # Bubble and Miss (28 * 44): 1856 / 9216 = 29/144. Flooring the reduction first gave 55/144.
    assert main(["odds", "a-2", "sq-7", "--attacker-status", "noxious", "--module", "x-attack", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["exact"]["attacker_wins"] == "29/144"


@pytest.mark.parametrize("variant", ["spec000", "spec001"])
@pytest.mark.parametrize("status", ["sleep", "frozen"])
def test_an_attacker_that_cannot_initiate_raises(units, variant, status) -> None:
    from toolkit.figure.analysis.odds import BattleNotPossible

    with pytest.raises(BattleNotPossible) as caught:
        battle_odds(Fighter(units["v-k4"].disk, status=status_rule(variant, status)), Fighter(units["t-2"].disk))
    assert caught.value.status.id == status


@pytest.mark.parametrize(("theme", "attacker", "defender", "status", "printed"), [
    ("duel-protocol", "v-k4", "sq-7", "sleep", "Standby Mode"),
    ("duel-protocol", "v-k4", "sq-7", "Cryo-Stasis", "Cryo-Stasis"),
    ("chimera", "v-pka", "a-sqt", "sleep", "Sleep"),
    ("chimera", "v-pka", "a-sqt", "frozen", "Frozen"),
])
def test_odds_refuses_a_battle_that_cannot_happen(capsys, theme, attacker, defender, status, printed) -> None:
    for extra in ([], ["--json"]):
        assert main(["odds", attacker, defender, "--theme", theme, "--attacker-status", status, *extra]) == 2
        captured = capsys.readouterr()
        assert captured.out == ""
        assert f"{attacker} cannot attack" in captured.err
        assert printed in captured.err
        assert "Traceback" not in captured.err


@pytest.mark.parametrize("variant", ["spec000", "spec001"])
def test_both_confused_spin_independently(variant) -> None:
    """Each confused unit makes its own self-hit spin; if both hit themselves both are Deactivated and
    nobody wins (a draw). Attacker: White 24 + Blue 72 (self-hit 1/4); defender: White 48 + Blue 48 (1/2)."""
    confusion = status_rule(variant, "confusion")
    a = (seg(W, 24, damage=50), seg(B, 72))
    d = (seg(W, 48, damage=50), seg(B, 48))
    odds = battle_odds(Fighter(a, status=confusion), Fighter(d, status=confusion))
    # self-hits: attacker only 1/8, defender only 3/8, both 1/8; the other 3/8 battle normally, where the
    # attacker wins 3/8 (Blue beats White), the defender 1/8 and 1/2 is a draw (all wins are washes)
    assert (odds.attacker_wins, odds.defender_wins, odds.draw) == (Fraction(33, 64), Fraction(11, 64),
                                                                  Fraction(20, 64))
    assert (odds.attacker_deactivated, odds.defender_deactivated) == (Fraction(1, 4), Fraction(1, 2))
    both = [o for o in odds.outcomes if o.consequence == "both self-hit"]
    assert [(o.winner.value, o.probability) for o in both] == [("draw", Fraction(1, 8))]


def test_respin_decides_by_consequences_not_by_winning() -> None:
    """A Blue win over a Miss is a wash (worth 0): the holder re-spins it hoping for a knockout (worth 1).
    Deciding by 'who wins' kept it and knocked out only 1/2 of the time."""
    a = (seg(W, 48, damage=50), seg(B, 48))
    odds = battle_odds(Fighter(a, respin=True), Fighter((seg(R, 96),)))
    assert odds.attacker_wins == 1
    assert odds.defender_deactivated == Fraction(3, 4)
    # a landed effect is worth 1/2, as in the rating: on Purple (1/2) a re-spin is worth (1/2 + 1) / 2 = 3/4
    b = (seg(P, 48, stars=1, effect="Paralysed"), seg(W, 48, damage=10))
    odds = battle_odds(Fighter(b, respin=True), Fighter((seg(R, 96),)))
    assert (odds.attacker_effect, odds.defender_deactivated) == (Fraction(1, 4), Fraction(3, 4))
    # and a wash is kept when a re-spin risks being knocked out: Blue 48 / Miss 48 against White 50
    c = (seg(B, 48), seg(R, 48))
    odds = battle_odds(Fighter(c, respin=True), Fighter((seg(W, 96, damage=50),)))
    assert (odds.attacker_wins, odds.attacker_deactivated) == (Fraction(3, 4), Fraction(1, 4))


@pytest.mark.parametrize("variant", ["spec000", "spec001"])
def test_paralysis_tie_takes_the_first_segment_in_wheel_order(variant) -> None:
    """White 50 and Gold 30 tie at 32: the White (first) becomes a Miss, so against White 40 the
    attacker cannot win (Gold 30 loses); had the Gold been replaced, White 50 would win 1/3."""
    a = (seg(W, 32, damage=50), seg(G, 32, damage=30), seg(R, 32))
    odds = battle_odds(Fighter(a, status=status_rule(variant, "paralysis")), Fighter((seg(W, 96, damage=40),)))
    assert odds.attacker_wins == 0
    assert odds.defender_wins == 1
    assert battle_odds(Fighter(a), Fighter((seg(W, 96, damage=40),))).attacker_wins == Fraction(1, 3)


def test_odds_json_effect_fraction_and_text_status_names(capsys) -> None:
    assert main(["odds", "v-pka", "a-sqt", "--json"]) == 0
    exact = json.loads(capsys.readouterr().out)["exact"]
    # Static Field (Purple 16, with an effect) beats Bubble Shot and Malfunction (40): 640 / 9216
    assert exact["effect_applied"] == exact["attacker_effect"] == "5/72"
    assert exact["defender_effect"] == "0"
    assert main(["odds", "v-k4", "sq-7", "--attacker-status", "paralysis", "--defender-status", "noxious"]) == 0
    assert "with attacker EMP Static, defender Critical Leak" in capsys.readouterr().out
    assert main(["odds", "v-pka", "a-sqt", "--defender-status", "sleep"]) == 0
    out = capsys.readouterr().out
    assert "with defender Sleep" in out
    assert "a-sqt deactivated" in out


@pytest.fixture
def looping_project(tmp_path, capsys):
    """A duel-protocol project whose T-1 -> T-2 -> T-3 chain loops back to T-1."""
    project = tmp_path / "loop"
    assert main(["new", str(project), "--theme", "duel-protocol", "--from-bundled"]) == 0
    t3 = project / "unit_data" / "t-3.yaml"
    t3.write_text(t3.read_text(encoding="utf-8").replace("\ndisk:", "\nupgrades_to: t-1\ndisk:"), encoding="utf-8")
    capsys.readouterr()
    return project


def test_upgrade_cycles_never_crash_odds(looping_project, capsys) -> None:
    from toolkit.figure.rules.roster import looping_units, upgrade_stages

    database = load_database(find_datasets(looping_project)[0][0])
    units = database.unit_defs()
    assert looping_units(units) == {"t-1", "t-2", "t-3"}
    stages = upgrade_stages(units)  # no exception: the loop's units simply have no stage
    assert "t-1" not in stages
    assert stages["f-5"] == 1
    assert stages["v-k4"] == 0
    # the other units still fight: v-k4's 84 non-Miss of 96 beat sq-7's Bubble and Miss (44): 77/192
    assert main(["odds", "v-k4", "sq-7", "--data", str(looping_project), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["exact"]["attacker_wins"] == "77/192"
    for pair in (["t-1", "sq-7"], ["sq-7", "t-3"]):
        assert main(["odds", *pair, "--data", str(looping_project)]) == 1
        err = capsys.readouterr().err
        assert "upgrade chain loops (t-1 -> t-2 -> t-3 -> t-1)" in err
        assert "internal error" not in err


def test_upgrade_cycles_never_crash_balance(looping_project, tmp_path, capsys) -> None:
    out = tmp_path / "out"
    assert main(["balance", str(looping_project), "--out", str(out)]) == 1  # a validation error: X003
    captured = capsys.readouterr()
    assert "X003" in captured.out + captured.err
    assert "internal error" not in captured.err
    assert main(["balance", str(looping_project), "--skip-invalid", "--out", str(out)]) == 0
    assert "left out 3 units" in capsys.readouterr().out
    rows = (out / "duel-protocol" / "matchups.csv").read_text(encoding="utf-8").splitlines()
    assert len(rows) == 1 + 17 * 17
    assert not any(row.startswith(("t-1,", "t-2,", "t-3,")) for row in rows)
