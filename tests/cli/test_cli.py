"""The command-line contract of DESIGN section 4: exit codes, JSON keys, text layout, `new`."""

from __future__ import annotations

import json
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from toolkit.cli import main

ROOT = Path(__file__).resolve().parents[2]


def run(capsys, *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_bundled_data_is_valid(capsys) -> None:
    code, out, _ = run(capsys, "validate")
    assert code == 0, out
    assert "duel-protocol:" in out
    assert "chimera:" in out
    assert "0 errors" in out


def test_json_is_a_list_of_six_key_objects(capsys, base_project: Path) -> None:
    (base_project / "unit_data" / "bad.yaml").write_text("id: bad\nname: Bad\nclass: Z\nmp: 0\ndisk: []\n")
    code, out, _ = run(capsys, "validate", str(base_project), "--format", "json")
    assert code == 1
    problems = json.loads(out)
    assert problems
    assert all(set(p) == {"code", "severity", "file", "line", "column", "message"} for p in problems)
    assert {(p["code"], p["line"]) for p in problems} >= {("S004", 3), ("S004", 4), ("S004", 5)}


def test_text_output_quotes_the_line_with_a_caret(capsys, base_project: Path) -> None:
    (base_project / "unit_data" / "bad.yaml").write_text(
        "id: bad\nname: Bad\nclass: R\nmp: 2\ndisk:\n  - {move: Jab, color: white, size: 90, damage: 10}\n")
    code, out, _ = run(capsys, "validate", str(base_project))
    assert code == 1
    lines = out.splitlines()
    assert lines[0] == "error[D001]: unit 'bad': segment sizes sum to 90, not 96"
    assert lines[1].endswith("unit_data/bad.yaml:5:1")
    assert lines[3] == "5 | disk:"
    assert lines[4] == "  | ^"
    assert "expected 96, found 90" in out
    assert "hint: add 6 to a segment" in out


def test_missing_folder_is_a_usage_error(capsys, tmp_path: Path) -> None:
    code, _, err = run(capsys, "validate", str(tmp_path / "nope"))
    assert code == 2
    assert "is not a folder" in err
    code, _, err = run(capsys, "validate", str(tmp_path))
    assert code == 2
    assert "not a duelkit data folder" in err


def test_new_project_validates_and_refuses_to_overwrite(capsys, tmp_path: Path) -> None:
    target = tmp_path / "mykit"
    code, out, _ = run(capsys, "new", str(target), "--theme", "chimera", "--from-bundled")
    assert code == 0
    assert (target / "duelkit.yaml").read_text().count("theme: chimera") == 1
    for folder in ("unit_data", "modules", "techniques", "templates", "output"):
        assert (target / folder).is_dir()
    assert len(list((target / "unit_data").glob("*.yaml"))) >= 12
    code, out, _ = run(capsys, "validate", str(target))
    # valid (exit 0); the only findings are N001 warnings for bundled texts the engine does not simulate
    assert code == 0
    assert out.strip().splitlines()[-1].startswith("chimera:")
    assert "error[" not in out
    code, _, err = run(capsys, "new", str(target))
    assert code == 2
    assert "not empty" in err
    assert [p.name for p in tmp_path.iterdir()] == ["mykit"]  # no staging folder left behind


@pytest.mark.usefixtures("capsys")  # keeps argparse's usage text out of the test output
def test_unknown_theme_and_command_are_usage_errors(tmp_path: Path) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["new", str(tmp_path / "x"), "--theme", "nope"])
    assert exit_info.value.code == 2
    with pytest.raises(SystemExit) as exit_info:
        main(["frobnicate"])
    assert exit_info.value.code == 2


def test_python_dash_m_runs_from_another_directory(tmp_path: Path) -> None:
    result = subprocess.run([sys.executable, "-m", "toolkit", "validate", "--format", "json"],
                            cwd=tmp_path, capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stderr
    problems = json.loads(result.stdout)
    assert [p for p in problems if p["severity"] == "error"] == []
    # the only findings are the sword-duel linter's warnings on the spec's own sample techniques
    # warnings only: sword-duel's linter, and N001 for the bundled texts the figure engine does not simulate
    assert {p["code"] for p in problems} == {"L001", "L002", "L003", "L005", "N001"}


def test_wheel_carries_the_bundled_data(tmp_path: Path) -> None:
    pytest.importorskip("hatchling")
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q",
                    "-w", str(tmp_path), str(ROOT)], check=True, capture_output=True)
    (wheel,) = tmp_path.glob("duelkit-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    assert "toolkit/data/themes/chimera.yaml" in names
    assert "toolkit/data/boards/standard.yaml" in names
    assert any(n.startswith("toolkit/_bundled/unit_data/duel-protocol/") for n in names)
    assert any(n.startswith("toolkit/_bundled/modules/chimera/") for n in names)


def test_import_then_validate_reports_the_real_problems(capsys, tmp_path: Path) -> None:
    csv_path = tmp_path / "units.csv"
    csv_path.write_text(
        "Name,Movement,Rarity,Type,Special Ability,Attack Wheel Size,Attack Name,Attack Type,Attack Value,"
        "Attack Ability,is Gen 1\n"
        "Sparky,0,R,Electric,None,60,Zap,White,,40,True\n"
        "Sparky,0,R,Electric,None,36,Miss,Red,,,True\n"
        "Broken,2,C,Normal,None,,Tackle,White,,20,True\n",
        encoding="utf-8")
    out = tmp_path / "imported"
    code, stdout, stderr = run(capsys, "import", str(csv_path), "--out", str(out))
    assert code == 1  # written, but not everything was transcribed (skipped.csv lists what was left out)
    assert "wrote 1 unit " in stdout
    assert "skipped 1 figure " in stdout
    assert f"{csv_path}:4: skipped 'Broken'" in stderr
    code, stdout, _ = run(capsys, "validate", str(out), "--format", "json")
    problems = json.loads(stdout)
    assert code == 1
    assert [(p["code"], p["file"].endswith("sparky-r.yaml")) for p in problems] == [("S004", True)]
    assert "mp" in problems[0]["message"]


@pytest.mark.parametrize("command", ["build", "balance", "reference"])
def test_unwritable_output_is_a_clear_error(capsys, tmp_path: Path, command: str) -> None:
    blocker = tmp_path / "afile"
    blocker.write_text("not a folder")
    assert main([command, "--game", "chimera", "--out", str(blocker / "kit")]) == 1
    err = capsys.readouterr().err
    assert "cannot write" in err
    assert "internal error" not in err
    assert blocker.read_text() == "not a folder"
