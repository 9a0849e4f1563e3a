"""Every command reaches the games through the registry: each game answers, or says plainly it does not apply."""

from __future__ import annotations

import json
from pathlib import Path

import pikepdf
import pytest

from toolkit.cli import main
from toolkit.game import NotApplicable
from toolkit.registry import discover, find_game, game_ids


def run(capsys, *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.fixture
def sword_project(tmp_path: Path, capsys) -> Path:
    target = tmp_path / "duel"
    assert main(["new", str(target), "--theme", "sword-duel"]) == 0
    capsys.readouterr()
    return target


def test_the_registry_knows_every_game_once() -> None:
    assert game_ids() == ["chimera", "duel-protocol", "sword-duel"]
    assert find_game("sword-duel").id == "sword-duel"
    with pytest.raises(NotApplicable):
        find_game("sword-duel").odds(None, None)  # type: ignore[arg-type]


def test_unknown_game_names_the_closest(capsys) -> None:
    code, _, err = run(capsys, "build", "--game", "sword-dual")
    assert code == 2
    assert "unknown game sword-dual" in err
    assert "sword-duel" in err


def test_bundled_data_holds_all_three_games() -> None:
    found, problems = discover(None)
    assert [game.id for game, _ in found] == ["chimera", "duel-protocol", "sword-duel"]
    assert problems == []


def test_reference_on_a_sword_project_writes_its_quick_reference(capsys, sword_project: Path) -> None:
    code, out, err = run(capsys, "reference", str(sword_project))
    assert code == 0, err
    written = sword_project / "output" / "reference" / "sword-duel" / "quick-reference.pdf"
    assert f"sword-duel: wrote quick-reference.pdf to {written.parent}/" in out
    with pikepdf.open(written) as pdf:
        assert len(pdf.pages) == 1


def test_balance_of_the_bundled_data_skips_the_sword_game_saying_so(capsys, tmp_path: Path) -> None:
    """Its balance is minutes of self-play: over the bundled data it runs only when asked for by --game."""
    code, out, err = run(capsys, "balance", "--out", str(tmp_path))
    assert code == 0
    assert "sword-duel: skipped: its balance is a long self-play run; choose it with --game sword-duel" in err
    assert sorted(p.name for p in tmp_path.iterdir() if not p.name.startswith(".")) == ["chimera", "duel-protocol"]
    assert "chimera:" in out
    assert "duel-protocol:" in out


def test_odds_of_the_sword_game_exits_2(capsys) -> None:
    code, _, err = run(capsys, "odds", "a", "b", "--theme", "sword-duel")
    assert code == 2
    assert "`odds` does not apply to sword-duel" in err


def test_import_into_the_sword_game_exits_2(capsys, tmp_path: Path) -> None:
    csv = tmp_path / "units.csv"
    csv.write_text("Name\n", encoding="utf-8")
    code, _, err = run(capsys, "import", str(csv), "--out", str(tmp_path / "p"), "--theme", "sword-duel")
    assert code == 2
    assert "`import` does not apply to sword-duel" in err
    assert not (tmp_path / "p").exists()


def test_validate_a_sword_project(capsys, sword_project: Path) -> None:
    code, out, _ = run(capsys, "validate", str(sword_project))
    assert code == 0
    assert out.splitlines()[-1].startswith("sword-duel: 12 techniques, draft 'standard' (10 cards), ")


def test_validate_reports_an_overlong_technique_text_at_its_yaml_line(capsys, sword_project: Path) -> None:
    path = sword_project / "techniques" / "irimi.yaml"
    text = path.read_text(encoding="utf-8").replace("philosophy: Control through proximity",
                                                    "philosophy: " + "Control through proximity. " * 46)
    path.write_text(text, encoding="utf-8")
    code, out, _ = run(capsys, "validate", str(sword_project), "--format", "json")
    assert code == 0  # a warning: the card is still printable, cut short
    hits = [p for p in json.loads(out) if p["code"] == "R001" and "'irimi' philosophy" in p["message"]]
    assert hits, out
    assert {(Path(p["file"]).name, p["line"]) for p in hits} == {("irimi.yaml", 6)}
    assert all(p["severity"] == "warning" and p["column"] >= 1 for p in hits)


def test_build_reports_the_same_cut_at_its_yaml_line(capsys, sword_project: Path) -> None:
    path = sword_project / "techniques" / "irimi.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace(
        "philosophy: Control through proximity", "philosophy: " + "Control through proximity. " * 46),
        encoding="utf-8")
    code, _, err = run(capsys, "build", str(sword_project))
    assert code == 0
    assert "warning[R001]: technique 'irimi' philosophy" in err
    assert "irimi.yaml:6:" in err
