"""Sheets in and out: damage with a modifier kept with a note, skipped.csv and the exit code, XLSX,
column maps, one row per unit, and the export -> import round trip."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from toolkit.cli import main
from toolkit.figure.importer import classify_value, modified_damage, read_csv

HEADER = ("Name,Movement,Rarity,Type,Special Ability,Attack Wheel Size,Attack Name,Attack Type,"
          "Attack Value,Attack Ability\n")
ROUND = "Sylveon,2,R,Fairy,None,44,Round,White,Damage is multiplied by the Pokémon with Round,{damage}\n"
REST = ("Sylveon,2,R,Fairy,None,44,Moonblast,White,,50\n"
        "Sylveon,2,R,Fairy,None,8,Miss,Red,,\n")
BROKEN = "Tapu Koko,3,EX,Electric,None,96,Spark,White,,??\n"


def write_csv(folder: Path, body: str, header: str = HEADER, name: str = "figures.csv") -> Path:
    path = folder / name
    path.write_text(header + body, encoding="utf-8")
    return path


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.mark.parametrize(("cell", "damage"), [("60x", 60), ("70+", 70), ("20x2", 20), ("20 × 2", 20), ("100X", 100)])
def test_damage_with_a_modifier_is_its_number(cell: str, damage: int) -> None:
    assert classify_value(cell) == ("damage_note", cell)
    assert modified_damage(cell) == damage


@pytest.mark.parametrize("cell", ["60x", "70+", "20x2"])
def test_damage_with_a_modifier_is_imported_with_the_cell_kept_and_a_warning(tmp_path: Path, cell: str) -> None:
    result = read_csv(write_csv(tmp_path, ROUND.format(damage=cell) + REST))
    assert not result.skipped
    segment = result.units[0]["disk"][0]
    assert segment["damage"] == modified_damage(cell)
    assert segment["damage_note"] == cell
    assert list(segment) == ["move", "color", "size", "damage", "damage_note", "effect"]
    assert [(w.line, w.column, w.value) for w in result.warnings] == [(2, "Attack Ability", cell)]
    assert "damage_note" not in result.units[0]["disk"][1]  # a plain number gets no note


def test_two_damages_in_one_segment_are_still_refused(tmp_path: Path) -> None:
    body = "Sylveon,2,R,Fairy,None,96,Round,White,60x,40\n"
    result = read_csv(write_csv(tmp_path, body))
    assert not result.units
    assert "a second damage" in result.skipped[0].rows[0].reason


def test_skipped_figures_are_listed_in_skipped_csv_and_the_exit_code_says_so(capsys, tmp_path: Path) -> None:
    sheet = write_csv(tmp_path, ROUND.format(damage="60x") + REST + BROKEN)
    out = tmp_path / "project"
    code, stdout, stderr = run(capsys, "import", str(sheet), "--out", str(out))
    assert code == 1
    assert "skipped.csv" in stdout
    assert "warning: column 'Attack Ability' = '60x'" in stderr
    with (out / "skipped.csv").open(encoding="utf-8", newline="") as handle:
        rows = list(csv.reader(handle))
    assert rows == [["figure", "line", "column", "value", "reason"],
                    ["Tapu Koko", "5", "Attack Ability", "??",
                     "neither a whole number (damage), only stars (☆), nor effect text"]]
    assert (out / "unit_data" / "sylveon-r.yaml").is_file()

    # fixed in the sheet: everything transcribed, exit 0, the old list is gone
    sheet.write_text(HEADER + ROUND.format(damage="60x") + REST + BROKEN.replace("??", "80"), encoding="utf-8")
    code, _, _ = run(capsys, "import", str(sheet), "--out", str(out))
    assert code == 0
    assert not (out / "skipped.csv").exists()
    assert (out / "unit_data" / "tapu-koko-ex.yaml").is_file()


def test_a_damage_note_validates(capsys, tmp_path: Path) -> None:
    sheet = write_csv(tmp_path, ROUND.format(damage="60x") + REST)
    out = tmp_path / "project"
    assert run(capsys, "import", str(sheet), "--out", str(out))[0] == 0
    code, stdout, _ = run(capsys, "validate", str(out))
    assert code == 0, stdout
