"""Every cell of spec 000 Table 2.1, with numbers where the cell compares them."""

from __future__ import annotations

import pytest

from toolkit.figure.model import Color, Segment
from toolkit.figure.rules.combat import Outcome, Rule, matchup_rule, resolve

R, W, P, G, B = Color.RED, Color.WHITE, Color.PURPLE, Color.GOLD, Color.BLUE

# Table 2.1 transcribed: rows attacker, columns defender, in the order Red, White, Purple, Gold, Blue.
TABLE = {
    R: ["Draw", "Defender Wins", "Defender Wins", "Defender Wins", "Defender Wins"],
    W: ["Attacker Wins", "Higher Damage Wins", "Defender Wins", "Higher Damage Wins", "Defender Wins"],
    P: ["Attacker Wins", "Attacker Wins", "Higher Stars Win", "Defender Wins", "Defender Wins"],
    G: ["Attacker Wins", "Higher Damage Wins", "Attacker Wins", "Higher Damage Wins", "Defender Wins"],
    B: ["Attacker Wins", "Attacker Wins", "Attacker Wins", "Attacker Wins", "Draw"],
}
COLUMNS = [R, W, P, G, B]


def seg(color: Color, damage: int | None = None, stars: int | None = None) -> Segment:
    return Segment(move="m", color=color, size=1, damage=damage, stars=stars)


@pytest.mark.parametrize("attacker", COLUMNS, ids=lambda c: c.value)
@pytest.mark.parametrize("defender", COLUMNS, ids=lambda c: c.value)
def test_matrix_cell(attacker: Color, defender: Color) -> None:
    expected = TABLE[attacker][COLUMNS.index(defender)]
    assert matchup_rule(attacker, defender).value == expected
    a = seg(attacker, damage=50 if attacker in (W, G) else None, stars=2 if attacker is P else None)
    d = seg(defender, damage=50 if defender in (W, G) else None, stars=2 if defender is P else None)
    fixed = {"Attacker Wins": Outcome.ATTACKER, "Defender Wins": Outcome.DEFENDER, "Draw": Outcome.DRAW}
    # equal numbers make every comparing cell a draw
    assert resolve(a, d) is fixed.get(expected, Outcome.DRAW)


@pytest.mark.parametrize("a_color", [W, G])
@pytest.mark.parametrize("d_color", [W, G])
def test_damage_comparison(a_color: Color, d_color: Color) -> None:
    assert resolve(seg(a_color, 90), seg(d_color, 80)) is Outcome.ATTACKER
    assert resolve(seg(a_color, 10), seg(d_color, 80)) is Outcome.DEFENDER
    assert resolve(seg(a_color, 0), seg(d_color, 0)) is Outcome.DRAW


def test_star_comparison() -> None:
    assert resolve(seg(P, stars=3), seg(P, stars=1)) is Outcome.ATTACKER
    assert resolve(seg(P, stars=1), seg(P, stars=2)) is Outcome.DEFENDER


def test_blue_beats_gold_and_gold_beats_purple_regardless_of_numbers() -> None:
    assert resolve(seg(B), seg(G, damage=999)) is Outcome.ATTACKER
    assert resolve(seg(G, damage=0), seg(P, stars=3)) is Outcome.ATTACKER
    assert resolve(seg(W, damage=999), seg(P, stars=1)) is Outcome.DEFENDER
    assert matchup_rule(R, R) is Rule.DRAW
