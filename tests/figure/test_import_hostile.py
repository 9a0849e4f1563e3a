"""Hostile input to `duelkit import`, and CSV injection in balance.csv / matchups.csv (issue 12, item 12)."""

from __future__ import annotations

import csv
import os
import subprocess
import sys
from pathlib import Path

import pytest

from toolkit.cli import main
from toolkit.errors import DuelkitError
from toolkit.figure.sheets import staging as importer
from toolkit.figure.sheets.foreign import read_csv
from toolkit.figure.sheets.project import write_project

ROOT = Path(__file__).resolve().parent.parent.parent
HEADER = ("Name,Movement,Rarity,Type,Special Ability,Attack Wheel Size,Attack Name,Attack Type,Attack Value,"
          "Attack Ability\n")
TAUROS = ("Tauros,2,C,Normal,None,8,Tackle,White,30,\n"
          "Tauros,2,C,Normal,None,88,Miss,Red,,\n")
EKANS = "Ekans,3,C,Poison,None,96,Wrap,White,20,\n"


def write_csv(folder: Path, body: str, name: str = "figures.csv") -> Path:
    path = folder / name
    path.write_text(HEADER + body, encoding="utf-8")
    return path


def snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def run(capsys, *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_an_unclosed_quote_is_an_error_at_its_line(tmp_path: Path) -> None:
    path = write_csv(tmp_path, TAUROS + 'Ekans,3,C,Poison,"None,96,Wrap,White,20,\n' + EKANS * 3)
    with pytest.raises(DuelkitError, match=r"figures\.csv:4: a quoted cell starting on this line is never closed"):
        read_csv(path)


def test_a_stray_quote_is_an_error_at_its_line(tmp_path: Path) -> None:
    path = write_csv(tmp_path, TAUROS + 'Ekans,3,C,"Poison"x,None,96,Wrap,White,20,\n')
    with pytest.raises(DuelkitError, match=r"figures\.csv:4: not valid CSV"):
        read_csv(path)


def test_a_quoted_cell_may_still_span_lines(tmp_path: Path) -> None:
    path = write_csv(tmp_path, 'Ekans,3,C,Poison,None,96,Wrap,Purple,"Poisons the\nopponent",☆\n' + TAUROS)
    result = read_csv(path)
    assert [unit["name"] for unit in result.units] == ["Ekans", "Tauros"]
    assert result.lines["tauros-c"] == (4, 5)


def test_a_failed_reimport_leaves_the_previous_project_as_it_was(capsys, tmp_path: Path) -> None:
    out = tmp_path / "project"
    assert run(capsys, "import", str(write_csv(tmp_path, TAUROS + EKANS)), "--out", str(out))[0] == 0
    (out / "unit_data" / "hand-made.yaml").write_text("id: hand-made\n", encoding="utf-8")
    before = snapshot(out)
    # 1. a bad CSV: before, the open quote swallowed the rest of the file and Ekans was deleted
    bad = write_csv(tmp_path, 'Tauros,2,C,"Normal,None,96,Tackle,White,30,\n' + EKANS, name="bad.csv")
    code, _, err = run(capsys, "import", str(bad), "--out", str(out))
    assert code == 1
    assert "bad.csv:2: a quoted cell" in err
    assert snapshot(out) == before
    # 2. a file in the way of one of the new unit files
    (out / "unit_data" / "arbok-c.yaml").mkdir()
    grown = write_csv(tmp_path, TAUROS + EKANS + "Arbok,2,C,Poison,None,96,Bite,White,60,\n", name="grown.csv")
    code, _, err = run(capsys, "import", str(grown), "--out", str(out))
    assert code == 1
    assert "in the way" in err
    (out / "unit_data" / "arbok-c.yaml").rmdir()
    assert snapshot(out) == before
    # 3. the disk fails while the new import is written
    def disk_full() -> None:
        raise OSError(28, "No space left on device")
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(importer.os, "sync", disk_full)
        with pytest.raises(DuelkitError, match=r"No space left on device.*was not changed"):
            write_project(read_csv(grown), out)
    assert snapshot(out) == before
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []  # no staging left behind


def test_a_reimport_replaces_changed_units_and_removes_dropped_ones(tmp_path: Path) -> None:
    out = tmp_path / "project"
    write_project(read_csv(write_csv(tmp_path, TAUROS + EKANS)), out)
    tauros = (out / "unit_data" / "tauros-c.yaml").read_text()
    write_project(read_csv(write_csv(tmp_path, EKANS.replace("20", "30"), name="figures.csv")), out, delete=True)
    assert not (out / "unit_data" / "tauros-c.yaml").exists()
    assert "damage: 30" in (out / "unit_data" / "ekans-c.yaml").read_text()
    assert "Tackle" in tauros
    assert oct((out / "unit_data").stat().st_mode & 0o777) == oct(0o777 & ~_umask())


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


@pytest.mark.parametrize("kind", ["folder", "fifo", "missing"])
def test_a_folder_fifo_or_missing_file_as_the_csv_gets_its_own_message(tmp_path: Path, kind: str) -> None:
    target = tmp_path / "figures.csv"
    if kind == "folder":
        target.mkdir()
    elif kind == "fifo":
        os.mkfifo(target)
    # a subprocess with a timeout: a hang on the FIFO fails the test instead of stalling the suite
    done = subprocess.run([sys.executable, "-m", "toolkit", "import", str(target), "--out", str(tmp_path / "o")],
                          capture_output=True, text=True, timeout=60, cwd=ROOT,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    expected = {"folder": "is a folder without units.csv", "fifo": "is not a regular file (a FIFO",
                "missing": "the CSV file does not exist"}[kind]
    assert done.returncode == 2, done.stderr
    assert expected in done.stderr
    assert "Traceback" not in done.stderr
    assert not (tmp_path / "o").exists()


def test_balance_csvs_neutralise_formula_names(capsys, base_project: Path, tmp_path: Path) -> None:
    for path in (base_project / "unit_data").glob("*.yaml"):
        text = path.read_text(encoding="utf-8")
        path.write_text(text.replace("name: Alpha Scout", 'name: "=HYPERLINK(\\"http://evil\\")"'), encoding="utf-8")
    code, _, err = run(capsys, "balance", str(base_project), "--out", str(tmp_path / "b"))
    assert code == 0, err
    for written in (tmp_path / "b").rglob("*.csv"):
        cells = [cell for row in csv.reader(written.open(encoding="utf-8")) for cell in row]
        assert not [c for c in cells if c and (c[0] in "=+@\t\r" or (c[0] == "-" and not c[1:2].isdigit()))]
    ratings = (tmp_path / "b" / "duel-protocol" / "balance.csv").read_text(encoding="utf-8")
    assert "'=HYPERLINK(\"\"http://evil\"\")" in ratings
    assert ",-0." in ratings  # negative ratings stay numbers
