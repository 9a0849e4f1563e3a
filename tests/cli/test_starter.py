"""A starter that teaches: `duelkit new` writes a small commented project (a few units, a squad, modules,
a README for the designer) that validates clean and builds; `--from-bundled` keeps the full copy."""

from __future__ import annotations

from pathlib import Path

import pikepdf
import pytest

from toolkit.cli import main


def run(capsys, *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.mark.parametrize("theme", ["duel-protocol", "chimera"])
def test_new_writes_a_small_commented_starter_that_validates_clean(capsys, tmp_path: Path, theme: str) -> None:
    target = tmp_path / "forge-wars"
    code, out, _ = run(capsys, "new", str(target), "--theme", theme)
    assert code == 0
    assert f"next: read {target / 'README.md'}" in out
    code, out, _ = run(capsys, "validate", str(target))
    assert code == 0
    assert out.strip() == f"{theme}: 7 units, 3 modules, 1 squad: 0 errors, 0 warnings"
    spark = (target / "unit_data" / "spark.yaml").read_text(encoding="utf-8")
    assert "# the wheel, in order round the disk; the sizes must add up to 96" in spark
    assert "poison, noxious, paralysis, burn, confusion, sleep or frozen" in spark
    assert "Kinds: respin, damage_bonus" in (target / "modules" / "boost.yaml").read_text(encoding="utf-8")
    readme = (target / "README.md").read_text(encoding="utf-8")
    assert readme.startswith("# forge-wars\n")
    assert f"output/{theme}/kit.pdf" in readme
    assert 'name: "forge-wars"' in (target / "duelkit.yaml").read_text(encoding="utf-8")


def test_the_starter_builds_a_kit_from_where_the_designer_stands(capsys, monkeypatch, tmp_path: Path) -> None:
    target = tmp_path / "mygame"
    assert main(["new", str(target)]) == 0
    monkeypatch.chdir(target / "unit_data")
    code, _, err = run(capsys, "build")
    assert code == 0, err
    kit = target / "output" / "duel-protocol" / "kit.pdf"
    with pikepdf.open(kit) as pdf:
        assert len(pdf.pages) > 10
    assert "R001" not in err  # nothing in the starter is cut short on its cards


def test_from_bundled_copies_the_whole_bundled_database(capsys, tmp_path: Path) -> None:
    target = tmp_path / "full"
    assert main(["new", str(target), "--from-bundled"]) == 0
    capsys.readouterr()
    assert len(list((target / "unit_data").glob("*.yaml"))) == 20
    assert not (target / "README.md").exists()
    code, out, _ = run(capsys, "validate", str(target))
    assert code == 0
    assert out.strip().splitlines()[-1].startswith("duel-protocol: 20 units")


@pytest.fixture
def in_new_project(capsys, monkeypatch, tmp_path: Path) -> Path:
    """A project made by `duelkit new`, as the current folder."""
    target = tmp_path / "mygame"
    assert run(capsys, "new", str(target))[0] == 0
    monkeypatch.chdir(target)
    return target


@pytest.mark.usefixtures("in_new_project")
def test_simulate_without_squads_names_the_projects_squads(capsys) -> None:
    code, _, err = run(capsys, "simulate")
    assert code == 2
    assert "squads: starter (e.g. duelkit simulate starter starter)" in err
    code, _, err = run(capsys, "simulate", "starter")  # one squad named: the hint still comes
    assert code == 2
    assert "squads: starter" in err
    code, _, err = run(capsys, "play")
    assert code == 2
    assert "squads: starter (e.g. duelkit play starter starter)" in err


@pytest.mark.usefixtures("in_new_project")
def test_odds_without_units_names_the_projects_units(capsys) -> None:
    code, _, err = run(capsys, "odds")
    assert code == 2
    assert "odds takes UNIT_A and UNIT_B" in err
    assert "units: " in err
    assert "spark" in err
    code, _, err = run(capsys, "odds", "spark")
    assert code == 2
    assert "whom does it attack?" in err
    assert "(e.g. duelkit odds spark " in err
