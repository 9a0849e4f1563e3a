"""sword-duel data: the position tables, the techniques as data, and the design linter."""

from __future__ import annotations

from pathlib import Path

import pytest

from toolkit.cli import main
from toolkit.paths import bundled_root
from toolkit.sword.data import load_sword
from toolkit.sword.rules.lint import lint_draft, lint_technique
from toolkit.sword.rules.positions import Move, Range, resolve_position

A, S, R = Move.ADVANCE, Move.STAY, Move.RETREAT
# Spec 002 "Position Resolution", row by row: (from, move, move, to)
SPEC_ROWS = [
    (Range.APART, A, A, Range.SWORD), (Range.APART, A, S, Range.SWORD), (Range.APART, A, R, Range.APART),
    (Range.APART, S, S, Range.APART), (Range.APART, R, R, Range.APART), (Range.APART, R, S, Range.APART),
    (Range.SWORD, A, A, Range.CLOSE), (Range.SWORD, A, S, Range.CLOSE), (Range.SWORD, A, R, Range.SWORD),
    (Range.SWORD, S, S, Range.SWORD), (Range.SWORD, R, R, Range.APART), (Range.SWORD, R, S, Range.APART),
    (Range.CLOSE, A, A, Range.CLOSE), (Range.CLOSE, A, S, Range.CLOSE), (Range.CLOSE, A, R, Range.CLOSE),
    (Range.CLOSE, S, S, Range.CLOSE), (Range.CLOSE, R, R, Range.APART), (Range.CLOSE, R, S, Range.SWORD),
]


@pytest.mark.parametrize(("start", "first", "second", "end"), SPEC_ROWS)
def test_every_row_of_the_position_tables(start, first, second, end) -> None:
    assert resolve_position(start, first, second) is end
    assert resolve_position(start, second, first) is end  # it does not matter who made which move


@pytest.fixture(scope="module")
def sword():
    return load_sword(bundled_root())


def test_bundled_techniques_load_without_errors(sword) -> None:
    assert len(sword.techniques) == 12
    assert not sword.has_errors
    assert sword.draft is not None
    assert len(sword.draft.techniques) == 10
    assert set(sword.builds) == {"balanced-fighter", "glass-cannon", "defensive-specialist", "tank"}


def test_linter_finds_the_ma_ai_contradiction(sword) -> None:
    findings = lint_technique(sword.techniques["ma-ai"])
    assert [f.code for f in findings] == ["L001"]
    assert "changes nothing" in findings[0].message
    assert "contradict" in findings[0].message


def test_linter_finds_unpayable_costs(sword) -> None:
    assert [f.code for f in lint_technique(sword.techniques["koboichi"])] == ["L002"]
    for clean in ("tsubame-gaeshi", "irimi", "mushin", "nagashi"):
        assert lint_technique(sword.techniques[clean]) == [], clean


def test_a_raised_cap_makes_a_cost_payable(sword) -> None:
    fudoshin = sword.techniques["fudoshin"]
    costly = fudoshin.model_copy(update={"evade": fudoshin.evade.model_copy(
        update={"cannot": False, "resource": "balance", "amount": 5})})
    assert [f.code for f in lint_technique(costly)] == ["L003"]  # payable; only the initiative tokens


def test_validate_lists_lint_warnings_with_lines(capsys, tmp_path: Path) -> None:
    assert main(["new", str(tmp_path / "duel"), "--theme", "sword-duel"]) == 0
    capsys.readouterr()
    assert main(["validate", str(tmp_path / "duel")]) == 0
    out = capsys.readouterr().out
    assert "warning[L001]" in out
    assert "ma-ai.yaml:13" in out
    assert "warning[L002]" in out
    assert out.strip().endswith("sword-duel: 12 techniques, draft 'standard' (10 cards), 4 builds: 0 errors, "
                                "6 warnings")


def test_tsuki_kage_surcharge_lists_every_unpayable_evade(sword) -> None:
    """+1 on a 3-cost evade under the cap of 3, on Mushin's free evade (only at 0/0) and on Nagashi's
    3-Balance special evade: each can be paid without the surcharge and never with it."""
    (surcharge,) = [f for f in lint_draft(sword.draft_techniques()) if f.technique == "tsuki-kage"]
    assert surcharge.code == "L002"
    listed = surcharge.message.split(": ", 2)[-1].split(", ")
    assert listed == ["Tsubame Gaeshi's evade", "Mizu no Kokoro's evade", "Kuzushi's evade",
                      "Mushin's free evade", "Nagashi's special evade"]


def test_sen_sen_no_sen_bypass_is_a_dead_rule(sword) -> None:
    """Balance (cap 3) must exceed the opponent's Momentum by 2, so the opponent holds at most 1 Momentum;
    every Momentum-paid evade costs 2 or 3, and Tsuki-kage's either-resource evade is protected."""
    (dead,) = [f for f in lint_draft(sword.draft_techniques()) if f.technique == "sen-sen-no-sen"]
    assert dead.code == "L001"
    assert dead.effect == 1
    assert "can never change an outcome" in dead.message
    assert "at most 1 Momentum" in dead.message
    assert "Irimi's evade 2" in dead.message
    assert "Tsuki-kage is protected" in dead.message


def test_lint_is_derived_from_the_rules_data_not_names(sword) -> None:
    """The same checks on a designer's own cards: a cheap Momentum evade revives the bypass, a lower
    threshold too; a 5-cap technique breaks the 1-7 initiative tokens; a renamed Mushin is still a victim."""
    from toolkit.sword.model import EvadeCost

    deck = sword.draft_techniques()
    sen = sword.techniques["sen-sen-no-sen"]
    cheap = sword.techniques["irimi"].model_copy(update={
        "id": "cheap", "name": "Cheap", "evade": EvadeCost(resource="momentum", amount=1)})
    assert not [f for f in lint_draft([*deck, cheap]) if f.technique == "sen-sen-no-sen"]
    bypass = sen.effects[1]
    looser = sen.model_copy(update={"effects": (sen.effects[0], bypass.model_copy(update={
        "when": bypass.when.model_copy(update={"balance_exceeds_opponent_momentum_by": 1})}))})
    assert not [f for f in lint_draft([looser, *(t for t in deck if t.id != sen.id)])
                if f.technique == "sen-sen-no-sen"]
    fudoshin = sword.techniques["fudoshin"]
    (tokens,) = lint_technique(fudoshin)
    assert tokens.code == "L003"
    assert "4 + 6 = 10" in tokens.message
    assert "1-7" in tokens.message
    five = fudoshin.model_copy(update={"effects": tuple(
        e.model_copy(update={"cap": 3}) if e.kind == "raise_cap" else e for e in fudoshin.effects)})
    assert lint_technique(five) == []  # Speed 4 + Balance 3 = 7: the tokens suffice
    zen = sword.techniques["mushin"].model_copy(update={"id": "zen", "name": "Zen"})
    (surcharge,) = [f for f in lint_draft([sword.techniques["tsuki-kage"], zen]) if f.code == "L002"]
    assert "Zen's free evade" in surcharge.message
