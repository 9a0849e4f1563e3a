"""The whole project as a sheet, both ways (issue 27): every field of units, squads, modules and the project's
words survives export -> import (CSV folder and XLSX workbook), an unchanged export changes no file, a
sheet edit reaches exactly the YAML it names, columns a sheet lacks leave their fields alone."""

from __future__ import annotations

import csv
import io
import os
import shutil
from pathlib import Path
from typing import Any

import pytest

from toolkit.cli import main
from toolkit.figure.sheets.files import read_index
from toolkit.figure.sheets.project import folders_of
from toolkit.figure.sheets.settings import read_settings

# A project that uses every field of the data format: subroutine effects with every key, upgrades, copies,
# art, damage notes, inflicts, each board effect with its options, a `units:` list file, module effects with
# amounts, squads, the game's name and its own words; texts with commas, quotes, line breaks, formulas.
EVERY_FIELD = {
    "duelkit.yaml": "# my game\ntheme: chimera\nname: \"Clockwork Duel\"\n"
                    "terms: {hangar: Garage, unit: Automaton}\nstatuses: {burn: Scorch}\n",
    "unit_data/k-1.yaml": (
        "# Own design: a leader whose aura powers Volt units.\n"
        "id: k-1\nname: Keeper K-1\nclass: EX\nmp: 2\ntypes: [volt, alloy]\n"
        "subroutine:\n  name: Grid Link\n  text: \"Volt units deal +10 damage, +20 next to this unit.\"\n"
        "  effect: {kind: type_damage_bonus, types: [volt], amount: 10, adjacent_amount: 20, others_only: true}\n"
        "upgrades_to: k-2\ncopies: 2\nart: art/k-1.png\ndisk:\n"
        "  - {move: Spark, color: white, size: 30, damage: 60, damage_note: 60x}\n"
        "  - {move: Jolt, color: purple, size: 20, stars: 2, effect: \"Paralyses; then, \\\"=1+1\\\"\\nsecond line\","
        " inflicts: paralysis, board_effect: {kind: move_self, steps: 2, exact: true, beside_opponent: false}}\n"
        "  - {move: Shove, color: purple, size: 16, stars: 1, effect: Push., board_effect: "
        "{kind: push_opponent, any_adjacent: true}}\n"
        "  - {move: Guard, color: blue, size: 18, effect: \"-Harden\"}\n"
        "  - {move: Miss, color: red, size: 12}\n"),
    "unit_data/more.yaml": (
        "units:\n"
        "  - id: k-2\n    name: Keeper K-2\n    class: UX\n    mp: 1\n"
        "    subroutine: {name: Cooler, text: Clear a status.,\n"
        "                 effect: {kind: clear_adjacent_status, ends_turn: false}}\n"
        "    disk:\n      - {move: Rally, color: purple, size: 48, stars: 3, effect: Move an ally.,"
        " board_effect: {kind: move_ally, steps: 2, types: [volt, aero]}}\n"
        "      - {move: Swap, color: purple, size: 48, stars: 3, effect: Swap.,\n"
        "         board_effect: {kind: swap_with_opponent}}\n"
        "  - id: ward\n    name: Ward W\n    class: C\n    mp: 3\n    types: []\n"
        "    subroutine: {name: Gone, text: Leaves the duel., effect: {kind: removed_from_duel}}\n"
        "    disk:\n      - {move: Poke, color: gold, size: 96, damage: 10}\n"),
    "unit_data/squads/team.yaml": "# the test squad\nid: team\nname: Team\nunits: [k-1, ward]\n"
                                  "modules: [boost, again]\n",
    "unit_data/squads/other.yaml": "id: other\nunits: [ward, k-1, ward, k-1, ward, k-1, ward]\n",
    "modules/boost.yaml": "id: boost\nname: Boost\ntext: \"+30 damage, this turn.\"\n"
                          "effect: {kind: damage_bonus, amount: 30}\ncopies: 2\nart: art/boost.png\n",
    "modules/again.yaml": "id: again\nname: Again\ntext: Spin again.\neffect: {kind: respin}\n",
}


def make_project(folder: Path, files: dict[str, str]) -> Path:
    for relative, text in files.items():
        path = folder / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return folder


def bundled_copy(folder: Path, theme: str) -> Path:
    assert main(["new", str(folder), "--theme", theme, "--from-bundled"]) == 0
    return folder


def _meaningful(value: Any) -> Any:
    """Data without empty values (`types: []` and no `types:` are the same unit)."""
    if isinstance(value, dict):
        return {key: _meaningful(item) for key, item in value.items() if item not in (None, [], {})}
    if isinstance(value, list):
        return [_meaningful(item) for item in value]
    return value


def data_of(project: Path) -> dict[str, Any]:
    """Everything the sheet carries: each unit, squad and module by id, and the project's words (empty values
    left out: `types: []` and no `types:` are the same unit)."""
    index = read_index(folders_of(project))
    assert index.unreadable == []
    settings = read_settings(project) or {}
    return {"settings": {key: settings.get(key) for key in ("theme", "name", "terms", "statuses")},
            **{kind: {item["id"]: _meaningful(item) for item in index.items(kind)}
               for kind in ("units", "squads", "modules")}}


def files_of(project: Path) -> dict[str, tuple[bytes, int]]:
    """Every file's bytes and modification time (outside output/)."""
    return {str(path.relative_to(project)): (path.read_bytes(), path.stat().st_mtime_ns)
            for path in sorted(project.rglob("*")) if path.is_file() and "output" not in path.parts}


def export(capsys: pytest.CaptureFixture[str], project: Path, fmt: str, out: Path) -> Path:
    code = main(["export", fmt, str(project), "--out", str(out)])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    game = next(path for path in out.iterdir() if path.is_dir())
    return game / f"{game.name}.xlsx" if fmt == "xlsx" else game


def import_sheet(capsys: pytest.CaptureFixture[str], sheet: Path, out: Path, *extra: str) -> tuple[int, str, str]:
    code = main(["import", str(sheet), "--out", str(out), *extra])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.mark.parametrize("fmt", ["csv", "xlsx"])
def test_a_project_using_every_field_round_trips(capsys, tmp_path: Path, fmt: str) -> None:
    project = make_project(tmp_path / "game", EVERY_FIELD)
    sheet = export(capsys, project, fmt, tmp_path / "sheet")
    copy = tmp_path / "copy"
    code, _, err = import_sheet(capsys, sheet, copy)
    assert code == 0, err
    assert data_of(copy) == data_of(project)
    before = files_of(project)
    code, stdout, err = import_sheet(capsys, sheet, project)
    assert code == 0, err
    assert "(0 files changed)" in stdout
    assert files_of(project) == before  # not a byte, not a modification time


@pytest.mark.parametrize("theme", ["duel-protocol", "chimera"])
def test_each_bundled_project_round_trips(capsys, tmp_path: Path, theme: str) -> None:
    project = bundled_copy(tmp_path / "game", theme)
    capsys.readouterr()
    before = files_of(project)
    for fmt in ("csv", "xlsx"):
        sheet = export(capsys, project, fmt, tmp_path / fmt)
        copy = tmp_path / f"copy-{fmt}"
        assert import_sheet(capsys, sheet, copy)[0] == 0
        assert {k: v for k, v in data_of(copy).items() if k != "settings"} == {
            k: v for k, v in data_of(project).items() if k != "settings"}
        assert data_of(copy)["settings"]["name"] == data_of(project)["settings"]["name"]
        assert import_sheet(capsys, sheet, project)[0] == 0
        assert files_of(project) == before


def test_a_sheet_edit_reaches_only_the_yaml_it_names(capsys, tmp_path: Path) -> None:
    from openpyxl import load_workbook

    project = make_project(tmp_path / "game", EVERY_FIELD)
    sheet = export(capsys, project, "xlsx", tmp_path / "sheet")
    book = load_workbook(sheet)
    units, squads = book["units"], book["squads"]
    header = [cell.value for cell in units[1]]
    spark = next(row for row in units.iter_rows(min_row=2) if row[header.index("move")].value == "Spark")
    spark[header.index("damage")].value = 70
    squad_header = [cell.value for cell in squads[1]]
    team = next(row for row in squads.iter_rows(min_row=2) if row[0].value == "team")
    team[squad_header.index("units.2")].value = "k-2"
    book.save(sheet)
    before = files_of(project)
    code, stdout, _ = import_sheet(capsys, sheet, project, "--dry-run")
    assert code == 0
    assert "  update: k-1\n      disk.1.damage: 60 -> 70\n" in stdout  # each changed field, with --dry-run
    assert '  update: squad team\n      units: ["k-1", "ward"] -> ["k-1", "k-2"]\n' in stdout
    assert files_of(project) == before
    assert import_sheet(capsys, sheet, project)[0] == 0
    after = files_of(project)
    changed = sorted(name for name in after if after[name] != before.get(name))
    assert changed == ["import-map.json", "unit_data/k-1.yaml", "unit_data/squads/team.yaml"]
    k1 = (project / "unit_data/k-1.yaml").read_text(encoding="utf-8")
    assert k1.startswith("# Own design: a leader")  # the file's comment is kept
    assert "{move: Spark, color: white, size: 30, damage: 70, damage_note: 60x}" in k1
    assert "units: [k-1, k-2]" in (project / "unit_data/squads/team.yaml").read_text(encoding="utf-8")
    expected = data_of(make_project(tmp_path / "expected", EVERY_FIELD))
    expected["units"]["k-1"]["disk"][0]["damage"] = 70
    expected["squads"]["team"]["units"] = ["k-1", "k-2"]
    assert data_of(project) == expected


def _edit_csv(path: Path, change: Any) -> None:
    with path.open(encoding="utf-8", newline="") as handle:
        rows = list(csv.reader(handle))
    rows = change(rows)
    buffer = io.StringIO()
    csv.writer(buffer, lineterminator="\n").writerows(rows)
    path.write_text(buffer.getvalue(), encoding="utf-8")


def test_columns_the_sheet_lacks_leave_their_fields_alone(capsys, tmp_path: Path) -> None:
    project = make_project(tmp_path / "game", EVERY_FIELD)
    sheet = export(capsys, project, "csv", tmp_path / "sheet")

    def drop(rows: list[list[str]]) -> list[list[str]]:
        keep = [i for i, name in enumerate(rows[0]) if name != "art" and not name.startswith(("board_effect",
                                                                                              "subroutine.effect"))]
        return [[row[i] for i in keep if i < len(row)] for row in rows]

    _edit_csv(sheet / "units.csv", drop)
    (sheet / "modules.csv").unlink()  # no modules table: no module is touched or listed as removed
    before = files_of(project)
    code, stdout, _ = import_sheet(capsys, sheet, project)
    assert code == 0
    assert "(0 files changed)" in stdout
    assert files_of(project) == before


def test_new_items_are_added_and_missing_ones_deleted_only_with_delete(capsys, tmp_path: Path) -> None:
    project = make_project(tmp_path / "game", EVERY_FIELD)
    sheet = export(capsys, project, "csv", tmp_path / "sheet")

    def change(rows: list[list[str]]) -> list[list[str]]:
        header = rows[0]
        kept = [row for row in rows[1:] if row[0] != "ward"]
        new = dict.fromkeys(header, "")
        new.update({"name": "Fresh Unit", "class": "C", "mp": "2", "move": "Hit", "color": "white", "size": "96",
                    "damage": "30"})
        return [header, *kept, [new[name] for name in header]]

    _edit_csv(sheet / "units.csv", change)
    code, stdout, _ = import_sheet(capsys, sheet, project)
    assert code == 0
    assert "  not in the sheet: ward" in stdout
    assert (project / "unit_data/fresh-unit.yaml").is_file()  # an id made from the name
    assert "id: ward" in (project / "unit_data/more.yaml").read_text(encoding="utf-8")
    code, stdout, _ = import_sheet(capsys, sheet, project, "--delete")
    assert code == 0
    assert "1 deleted" in stdout
    more = (project / "unit_data/more.yaml").read_text(encoding="utf-8")
    assert "id: ward" not in more
    assert "id: k-2" in more
    assert data_of(project)["units"]["k-2"] == data_of(make_project(tmp_path / "e", EVERY_FIELD))["units"]["k-2"]


def test_the_projects_words_come_back_from_the_project_table(capsys, tmp_path: Path) -> None:
    project = make_project(tmp_path / "game", EVERY_FIELD)
    sheet = export(capsys, project, "csv", tmp_path / "sheet")

    def rename(rows: list[list[str]]) -> list[list[str]]:
        for row in rows:
            if row[:2] == ["term", "hangar"]:
                row[2] = "Shed"
            if row[:2] == ["status", "burn"]:
                row[2] = ""  # empty: the theme's own word again
            if row[:1] == ["name"]:
                row[2] = "Clockwork Duel II"
        return rows

    _edit_csv(sheet / "project.csv", rename)
    code, stdout, _ = import_sheet(capsys, sheet, project)
    assert code == 0
    assert "settings (duelkit.yaml) updated" in stdout
    settings = read_settings(project)
    assert settings == {"theme": "chimera", "name": "Clockwork Duel II",
                        "terms": {"hangar": "Shed", "unit": "Automaton"}}
    assert (project / "duelkit.yaml").read_text(encoding="utf-8").startswith("# my game\n")


def test_import_without_out_updates_the_project_you_stand_in(capsys, tmp_path: Path,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    project = make_project(tmp_path / "game", EVERY_FIELD)
    sheet = export(capsys, project, "xlsx", tmp_path / "sheet")
    monkeypatch.chdir(project / "unit_data")
    before = files_of(project)
    assert main(["import", str(sheet)]) == 0
    assert files_of(project) == before
    monkeypatch.chdir(tmp_path)
    shutil.rmtree(project)
    assert main(["import", str(sheet)]) == 2  # outside a project: --out is needed
    assert "give the folder to import into with --out" in capsys.readouterr().err
    assert not os.path.exists(project)


_XLSX_PARTS = {
    "[Content_Types].xml": '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/'
    'package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.'
    'relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook'
    '.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override '
    'PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml'
    '.worksheet+xml"/></Types>',
    "_rels/.rels": '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/'
    'package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/'
    '2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>',
    "xl/workbook.xml": '<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="http://schemas.openxmlformats.org/'
    'spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">'
    '<sheets><sheet name="units" sheetId="1" r:id="rId1"/></sheets></workbook>',
    "xl/_rels/workbook.xml.rels": '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.'
    'openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org'
    '/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>',
}


def _huge_workbook(path: Path, rows: int) -> None:
    """A workbook of `rows` rows, written as XML directly (openpyxl takes minutes to write a million rows)."""
    import zipfile

    header = '<row r="1"><c r="A1" t="inlineStr"><is><t>Name</t></is></c></row>'
    body = '<row><c t="inlineStr"><is><t>Tauros</t></is></c><c><v>2</v></c></row>' * (rows - 1)
    sheet = ('<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/'
             f'spreadsheetml/2006/main"><sheetData>{header}{body}</sheetData></worksheet>')
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as book:
        for name, text in {**_XLSX_PARTS, "xl/worksheets/sheet1.xml": sheet}.items():
            book.writestr(name, text)


@pytest.mark.parametrize("fmt", ["xlsx", "csv"])
def test_a_million_row_sheet_is_refused_with_the_limit_named_within_a_gigabyte(tmp_path: Path, fmt: str) -> None:
    import resource
    import subprocess
    import sys

    sheet = tmp_path / f"huge.{fmt}"
    if fmt == "xlsx":
        _huge_workbook(sheet, 1_000_000)
    else:
        sheet.write_text("Name,Movement\n" + "Tauros,2\n" * 1_000_000, encoding="utf-8")

    def one_gigabyte() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (2**30, 2**30))

    root = Path(__file__).resolve().parents[2]
    # a subprocess held to 1 GB of address space; the timeout only guards the suite against a hang
    done = subprocess.run([sys.executable, "-m", "toolkit", "import", str(sheet), "--out", str(tmp_path / "out")],
                          capture_output=True, text=True, timeout=120, cwd=root, preexec_fn=one_gigabyte,
                          env={**os.environ, "PYTHONPATH": str(root)})
    assert done.returncode == 1, done.stderr
    assert "more than 100,000 rows, the most duelkit reads from one table" in done.stderr
    assert "Traceback" not in done.stderr
    assert not (tmp_path / "out").exists()


def test_validate_points_at_the_cell_of_duelkits_own_sheet(capsys, tmp_path: Path) -> None:
    project = make_project(tmp_path / "game", EVERY_FIELD)
    sheet = export(capsys, project, "csv", tmp_path / "sheet")

    def break_it(rows: list[list[str]]) -> list[list[str]]:
        header = rows[0]
        line = next(n for n, row in enumerate(rows) if row[header.index("move")] == "Spark")
        rows[line][header.index("size")] = "0"  # on sheet line line + 1
        return rows

    _edit_csv(sheet / "units.csv", break_it)
    assert import_sheet(capsys, sheet, project)[0] == 0
    assert main(["validate", str(project)]) == 1
    out = capsys.readouterr().out
    assert "[sheet: chimera line 2, column 'size']" in out  # the export folder, Spark's row


def test_a_new_unit_never_overwrites_a_file_holding_another(capsys, tmp_path: Path) -> None:
    project = make_project(tmp_path / "game", EVERY_FIELD)
    sheet = export(capsys, project, "csv", tmp_path / "sheet")
    (project / "unit_data/keeper.yaml").write_text("id: k-9\nname: Nine\n", encoding="utf-8")

    def add(rows: list[list[str]]) -> list[list[str]]:
        new = dict.fromkeys(rows[0], "")
        new.update({"id": "keeper", "name": "Keeper", "move": "Hit", "color": "White", "size": "96"})
        return [*rows, [new[name] for name in rows[0]]]

    _edit_csv(sheet / "units.csv", add)
    assert import_sheet(capsys, sheet, project)[0] == 0
    assert (project / "unit_data/keeper.yaml").read_text(encoding="utf-8") == "id: k-9\nname: Nine\n"
    assert "color: white" in (project / "unit_data/keeper-2.yaml").read_text(encoding="utf-8")


def test_a_sheet_of_another_game_is_refused_and_a_new_folder_gets_the_sheets_game(capsys, tmp_path: Path) -> None:
    project = make_project(tmp_path / "game", EVERY_FIELD)
    sheet = export(capsys, project, "xlsx", tmp_path / "sheet")
    other = tmp_path / "other"
    assert main(["new", str(other), "--theme", "duel-protocol"]) == 0
    before = files_of(other)
    code, _, err = import_sheet(capsys, sheet, other)
    assert code == 1
    assert "the sheet holds a project of 'chimera'" in err
    assert files_of(other) == before
    assert import_sheet(capsys, sheet, tmp_path / "fresh")[0] == 0  # no --theme: the sheet's game
    assert read_settings(tmp_path / "fresh")["theme"] == "chimera"
