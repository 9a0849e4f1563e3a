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


@pytest.mark.parametrize("start, first, second, end", SPEC_ROWS)
def test_every_row_of_the_position_tables(start, first, second, end) -> None:
    assert resolve_position(start, first, second) is end
    assert resolve_position(start, second, first) is end  # it does not matter who made which move


@pytest.fixture(scope="module")
def sword():
    return load_sword(bundled_root())


def test_bundled_techniques_load_without_errors(sword) -> None:
    assert len(sword.techniques) == 12 and not sword.has_errors
    assert sword.draft is not None and len(sword.draft.techniques) == 10
    assert set(sword.builds) == {"balanced-fighter", "glass-cannon", "defensive-specialist", "tank"}


def test_linter_finds_the_ma_ai_contradiction(sword) -> None:
    findings = lint_technique(sword.techniques["ma-ai"])
    assert [f.code for f in findings] == ["L001"]
    assert "changes nothing" in findings[0].message and "contradict" in findings[0].message


def test_linter_finds_unpayable_costs(sword) -> None:
    assert [f.code for f in lint_technique(sword.techniques["koboichi"])] == ["L002"]
    surcharge = lint_draft(sword.draft_techniques())
    assert len(surcharge) == 1 and "Tsubame Gaeshi" in surcharge[0].message
    for clean in ("tsubame-gaeshi", "irimi", "mushin", "fudoshin", "nagashi"):
        assert lint_technique(sword.techniques[clean]) == [], clean


def test_a_raised_cap_makes_a_cost_payable(sword) -> None:
    fudoshin = sword.techniques["fudoshin"]
    costly = fudoshin.model_copy(update={"evade": fudoshin.evade.model_copy(
        update={"cannot": False, "resource": "balance", "amount": 5})})
    assert lint_technique(costly) == []


def test_validate_lists_lint_warnings_with_lines(capsys, tmp_path: Path) -> None:
    assert main(["new", str(tmp_path / "duel"), "--theme", "sword-duel"]) == 0
    capsys.readouterr()
    assert main(["validate", str(tmp_path / "duel")]) == 0
    out = capsys.readouterr().out
    assert "warning[L001]" in out and "ma-ai.yaml:13" in out and "warning[L002]" in out
    assert out.strip().endswith("sword-duel: 12 techniques, draft 'standard' (10 cards), 4 builds: 0 errors, "
                                "4 warnings")
