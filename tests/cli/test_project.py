"""The project where you stand: with no DATA_DIR every command means the nearest `duelkit.yaml`, here or
above (as git finds its repository); only outside any project are the bundled demo games used, and said."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest

from toolkit.cli import main
from toolkit.cli.common import BUNDLED_NOTE
from toolkit.project import find_project


def run(capsys, *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_validate_in_a_subfolder_checks_the_project_not_the_bundled_games(
        capsys, monkeypatch, base_project: Path) -> None:
    (base_project / "unit_data" / "broken.yaml").write_text(
        "id: broken\nname: Broken\nclass: C\nmp: 1\ndisk:\n  - {move: Jab, color: white, size: 90, damage: 10}\n")
    monkeypatch.chdir(base_project / "unit_data" / "squads")
    code, out, err = run(capsys, "validate")
    assert code == 1
    assert "segment sizes sum to 90" in out
    assert out.strip().endswith("duel-protocol: 8 units, 2 modules, 1 squad: 1 error, 0 warnings")
    assert "chimera" not in out
    assert "sword-duel" not in out
    assert BUNDLED_NOTE not in err


def test_build_in_a_subfolder_writes_the_projects_kit_into_its_output(
        capsys, monkeypatch, base_project: Path) -> None:
    monkeypatch.chdir(base_project / "modules")
    code, out, err = run(capsys, "build")
    assert code == 0, err
    assert [p.name for p in (base_project / "output").iterdir() if not p.name.startswith(".")] == ["duel-protocol"]
    assert (base_project / "output" / "duel-protocol" / "kit.pdf").is_file()
    assert not (base_project / "modules" / "output").exists()
    assert "chimera" not in out


def test_reference_and_balance_use_the_project_and_its_output(capsys, monkeypatch, base_project: Path) -> None:
    monkeypatch.chdir(base_project / "unit_data")
    assert run(capsys, "reference")[0] == 0
    assert sorted(p.name for p in (base_project / "output" / "reference").iterdir()
                  if not p.name.startswith(".")) == ["duel-protocol"]
    code, out, _ = run(capsys, "balance")
    assert code == 0
    assert "7 units, 49 matchups" in out  # the project's units, not the bundled 20
    assert (base_project / "output" / "balance" / "duel-protocol" / "balance.csv").is_file()


def test_odds_finds_the_projects_own_units(capsys, monkeypatch, base_project: Path) -> None:
    monkeypatch.chdir(base_project / "unit_data")
    code, out, err = run(capsys, "odds", "alpha", "bravo", "--json")
    assert code == 0, err
    assert json.loads(out)["attacker"] == "alpha"


def test_outside_any_project_the_bundled_demo_games_are_used_and_said(capsys, monkeypatch, tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)
    assert find_project(tmp_path) is None
    code, out, err = run(capsys, "validate")
    assert code == 0
    assert "chimera:" in out
    assert "sword-duel:" in out
    assert err.strip() == "no duelkit.yaml here or above: using the bundled demo games"
    code, _, err = run(capsys, "odds", "v-k4", "sq-7")
    assert code == 0
    assert BUNDLED_NOTE in err


def test_a_data_dir_given_on_purpose_wins_and_says_nothing(capsys, monkeypatch, base_project: Path,
                                                           tmp_path: Path) -> None:
    monkeypatch.chdir(base_project)
    other = tmp_path / "other"
    assert main(["new", str(other), "--theme", "chimera"]) == 0
    capsys.readouterr()
    code, out, err = run(capsys, "validate", str(other))
    assert code == 0
    assert out.startswith("chimera:")
    assert err == ""


def test_a_broken_duelkit_yaml_above_is_reported_not_replaced_by_the_demo_games(
        capsys, monkeypatch, base_project: Path) -> None:
    (base_project / "duelkit.yaml").write_text("theme: duel-protocl\n")
    monkeypatch.chdir(base_project / "unit_data")
    code, out, _ = run(capsys, "validate")
    assert code == 1
    assert "unknown theme 'duel-protocl'" in out
    assert "did you mean 'duel-protocol'" in out
    assert "chimera:" not in out


@pytest.mark.usefixtures("capsys")  # keeps the commands' output out of the test log
def test_import_inside_a_project_starts_a_project_of_its_game(monkeypatch, tmp_path: Path) -> None:
    assert main(["new", str(tmp_path / "chim"), "--theme", "chimera"]) == 0
    csv_path = tmp_path / "units.csv"
    csv_path.write_text(
        "Name,Movement,Rarity,Type,Special Ability,Attack Wheel Size,Attack Name,Attack Type,Attack Value,"
        "Attack Ability,is Gen 1\nSparky,2,R,Electric,None,96,Zap,White,,40,True\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path / "chim")
    assert main(["import", str(csv_path), "--out", str(tmp_path / "imported")]) == 0
    assert "theme: chimera" in (tmp_path / "imported" / "duelkit.yaml").read_text()


@pytest.mark.usefixtures("capsys")  # keeps the commands' output out of the test log
def test_new_makes_folders_with_the_designers_usual_permissions(tmp_path: Path) -> None:
    old = os.umask(0o022)
    try:
        assert main(["new", str(tmp_path / "mygame")]) == 0
    finally:
        os.umask(old)
    for folder in (tmp_path / "mygame", tmp_path / "mygame" / "unit_data", tmp_path / "mygame" / "output"):
        assert stat.S_IMODE(folder.stat().st_mode) == 0o755, folder


@pytest.mark.parametrize("where", ["", "unit_data", "unit_data/squads"])
def test_find_project_walks_up_like_git(base_project: Path, where: str) -> None:
    assert find_project(base_project / where) == base_project.resolve()


def test_new_where_no_folder_can_be_made_is_a_clear_error(capsys, tmp_path: Path) -> None:
    """A name longer than the file system allows used to end in an internal error (exit 70)."""
    code, _, stderr = run(capsys, "new", str(tmp_path / ("n" * 300)))
    assert code == 1
    assert "cannot create the project" in stderr
    assert "internal error" not in stderr
    assert list(tmp_path.iterdir()) == []  # no staging folder left behind


def test_new_shows_a_folder_name_with_a_line_break_on_one_line(capsys, monkeypatch, tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)
    code, stdout, _ = run(capsys, "new", "my\nfake line")
    assert code == 0
    assert (tmp_path / "my\nfake line" / "duelkit.yaml").is_file()
    assert "created duel-protocol project in my\\x0afake line" in stdout
    assert not any(line.startswith("fake line") for line in stdout.splitlines())


def test_simulate_in_a_subfolder_plays_the_projects_squads(capsys, monkeypatch, tmp_path: Path) -> None:
    """simulate took only the bundled squads without a DATA_DIR, wherever it was run."""
    assert main(["new", str(tmp_path / "game")]) == 0
    monkeypatch.chdir(tmp_path / "game" / "unit_data")
    capsys.readouterr()
    code, out, err = run(capsys, "simulate", "starter", "starter", "--games", "2", "--seed", "1",
                         "--players", "random,random")
    assert code == 0, err
    assert out.startswith("duel-protocol: starter (random) vs starter (random): 2 games")
    assert BUNDLED_NOTE not in err
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, "simulate", "--round-robin", "--games", "2", "--seed", "1", "--players",
                         "random,random", "--json")
    assert code == 0, err
    assert BUNDLED_NOTE in err  # outside any project: the demo games, and it says so
