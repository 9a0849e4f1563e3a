"""`build --skip-invalid`: a kit of the valid units of a database that still has problems (an imported sheet),
with everything left out listed, instead of no kit at all."""

from __future__ import annotations

from pathlib import Path

import pikepdf

from toolkit.cli import main


def _break_one_disk(project: Path) -> None:
    """Make one unit's Data Disk sum to 95: a rule problem `build` refuses."""
    unit = project / "unit_data" / "more.yaml"
    text = unit.read_text(encoding="utf-8")
    broken = text.replace("{move: Bubble, color: white, size: 40", "{move: Bubble, color: white, size: 39", 1)
    assert broken != text
    unit.write_text(broken, encoding="utf-8")


def test_build_refuses_invalid_data_but_skip_invalid_builds_the_rest(capsys, base_project: Path,
                                                                     tmp_path: Path) -> None:
    _break_one_disk(base_project)
    assert main(["build", str(base_project), "--out", str(tmp_path / "refused")]) == 1
    assert not (tmp_path / "refused" / "duel-protocol").exists()
    capsys.readouterr()
    code = main(["build", str(base_project), "--skip-invalid", "--out", str(tmp_path / "kit")])
    err = capsys.readouterr().err
    assert code == 0, err
    assert "left out unit" in err
    assert "its Data Disk breaks the rules" in err
    kit = tmp_path / "kit"
    built = [path for path in kit.iterdir() if path.is_dir()]
    assert len(built) == 1
    with pikepdf.open(built[0] / "schematics.pdf") as pdf:
        assert len(pdf.pages) >= 1


def test_skip_invalid_on_valid_data_leaves_nothing_out(capsys, base_project: Path, tmp_path: Path) -> None:
    assert main(["build", str(base_project), "--skip-invalid", "--out", str(tmp_path)]) == 0
    assert "left out" not in capsys.readouterr().err
