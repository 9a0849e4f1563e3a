"""Sheets in and out: damage with a modifier kept with a note, skipped.csv and the exit code, XLSX,
column maps, one row per unit, and the export -> import round trip."""

from __future__ import annotations

import csv
import re
from pathlib import Path

import pytest

from toolkit.cli import main
from toolkit.figure.sheets.foreign import read_csv, read_sheet
from toolkit.figure.sheets.values import classify_value, modified_damage

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


def write_xlsx(path: Path, rows: list[list[object]]) -> Path:
    from openpyxl import Workbook

    workbook = Workbook()
    sheet = workbook.active
    for row in rows:
        sheet.append(row)
    workbook.save(path)
    return path


CANONICAL = HEADER.strip().split(",")


def test_an_xlsx_workbook_imports_like_the_csv(tmp_path: Path) -> None:
    body = ROUND.format(damage="60x") + REST
    from_csv = read_csv(write_csv(tmp_path, body))
    rows: list[list[object]] = [CANONICAL]
    for line in csv.reader(body.splitlines()):
        rows.append([int(cell) if cell.isdigit() else (cell or None) for cell in line])
    rows.insert(2, [])  # a blank row is skipped, and line numbers are the sheet's row numbers
    from_xlsx = read_sheet(write_xlsx(tmp_path / "figures.xlsx", rows))
    assert from_xlsx.units == from_csv.units
    assert from_xlsx.lines == {"sylveon-r": (2, 5)}


def test_a_broken_workbook_is_a_clear_error(capsys, tmp_path: Path) -> None:
    import zipfile

    good = write_xlsx(tmp_path / "good.xlsx", [CANONICAL, ["Tauros", 2, "C", "Normal", None, 96, "Tackle", "White"]])
    cut = tmp_path / "cut.xlsx"  # a worksheet whose XML ends half-way
    with zipfile.ZipFile(good) as source, zipfile.ZipFile(cut, "w") as target:
        for info in source.infolist():
            data = source.read(info.filename)
            target.writestr(info.filename, data[:300] if "worksheets/sheet" in info.filename else data)
    not_zip = tmp_path / "figures.xlsx"
    not_zip.write_bytes(b"PK\x03\x04 not really a zip")
    for bad in (not_zip, cut):
        code, _, stderr = run(capsys, "import", str(bad), "--out", str(tmp_path / "out"))
        assert code == 1
        assert "not a readable Excel workbook" in stderr
        assert "internal error" not in stderr
        assert not (tmp_path / "out").exists()
    ods = tmp_path / "figures.ods"
    ods.write_bytes(b"PK\x03\x04")
    code, _, stderr = run(capsys, "import", str(ods), "--out", str(tmp_path / "out"))
    assert code == 2
    assert "reads .csv and .xlsx" in stderr


def test_header_variants_are_recognised(tmp_path: Path) -> None:
    header = "Figure,MP,Class,Types,Ability,Size,Move,Colour,Effect,Damage\n"
    body = "Tauros,2,C,Normal,None,96,Tackle,White,,30\n"
    result = read_sheet(write_csv(tmp_path, body, header=header))
    assert result.units == [{"id": "tauros-c", "name": "Tauros", "class": "C", "mp": 2, "types": ["normal"],
                             "disk": [{"move": "Tackle", "color": "white", "size": 96, "damage": 30}]}]


def test_columns_option_names_the_headers(capsys, tmp_path: Path) -> None:
    header = "Unit Title,Speed Rating,Tier,Kind,Perk,Wedge,Attack Title,Hue,Notes,Hit\n"
    sheet = write_csv(tmp_path, "Tauros,2,C,Normal,None,96,Tackle,White,,30\n", header=header)
    out = tmp_path / "project"
    code, _, stderr = run(capsys, "import", str(sheet), "--out", str(out))
    assert code == 2
    assert "lacks the column(s) 'Name'" in stderr
    columns = "name=Unit Title,mp=Speed Rating,class=Tier,types=Kind,subroutine=Perk,size=Wedge,move=Attack Title," \
              "color=Hue,value=Notes,ability=Hit"
    code, _, _ = run(capsys, "import", str(sheet), "--out", str(out), "--columns", columns)
    assert code == 0
    assert "damage: 30" in (out / "unit_data" / "tauros-c.yaml").read_text(encoding="utf-8")
    code, _, stderr = run(capsys, "import", str(sheet), "--out", str(out), "--columns", columns + ",mp=Speed")
    assert code == 2
    assert "lacks the column(s) 'Speed (--columns mp=)'" in stderr
    code, _, stderr = run(capsys, "import", str(sheet), "--out", str(out), "--columns", "hp=Life")
    assert code == 2
    assert "unknown field 'hp'" in stderr


def test_one_row_per_unit_with_numbered_segments(tmp_path: Path) -> None:
    header = ("Name,MP,Rarity,Type,Special Ability,Move 1,Size 1,Color 1,Effect 1,Damage 1,"
              "Move 2,Size 2,Color 2,Effect 2,Damage 2,Move 3,Size 3,Color 3,Effect 3,Damage 3\n")
    body = ("Tauros,2,C,Normal,None,Tackle,88,White,,30,Miss,8,Red,,,,,,,\n"
            "Tauros,2,C,Normal,None,Tackle,48,White,,30,Kick,40,Purple,Gains Wait,☆☆,Miss,8,Red,,\n")
    result = read_sheet(write_csv(tmp_path, body, header=header))
    assert [unit["id"] for unit in result.units] == ["tauros-c", "tauros-c-2"]  # each row is one figure
    assert result.units[0]["disk"] == [{"move": "Tackle", "color": "white", "size": 88, "damage": 30},
                                       {"move": "Miss", "color": "red", "size": 8}]
    assert result.units[1]["disk"][1] == {"move": "Kick", "color": "purple", "size": 40, "stars": 2,
                                          "effect": "Gains Wait"}
    assert result.lines == {"tauros-c": (2, 2), "tauros-c-2": (3, 3)}
    assert any("one row per unit" in note for note in result.notes)


MIXED = (
    HEADER
    + "Tauros,2,C,Normal,Stampede,96,Tackle,White,,20x2\n"
    + ROUND.format(damage="60x") + REST
    + "=HYPERLINK(\"x\"),0,UC,Bug / Steel,Hard Shell - Takes no damage,48,-Harden,White,,0\n"
    + "=HYPERLINK(\"x\"),0,UC,Bug / Steel,Hard Shell - Takes no damage,40,Big Hit,Z-Move,Knocks all away,360\n"
    + "=HYPERLINK(\"x\"),0,UC,Bug / Steel,Hard Shell - Takes no damage,8,@Swipe,Purple,Poisons the foe,☆\n"
    + "Tauros,2,C,Normal,Stampede,96,Tackle,White,,30\n"  # the same figure again: a numbered id
)


def unit_bodies(project: Path) -> dict[str, str]:
    """Each unit file without its first line (which names the sheet and its lines)."""
    return {path.name: path.read_text(encoding="utf-8").split("\n", 1)[1]
            for path in sorted((project / "unit_data").glob("*.yaml"))}


@pytest.mark.parametrize("fmt", ["csv", "xlsx"])
def test_import_export_import_gives_the_same_units(capsys, tmp_path: Path, fmt: str) -> None:
    sheet = tmp_path / "figures.csv"
    sheet.write_text(MIXED, encoding="utf-8")
    first, second = tmp_path / "first", tmp_path / "second"
    assert run(capsys, "import", str(sheet), "--out", str(first))[0] == 0
    assert len(unit_bodies(first)) == 4
    code, stdout, _ = run(capsys, "export", fmt, str(first), "--out", str(tmp_path / "sheet"))
    assert code == 0
    assert "4 units (8 rows)" in stdout
    folder = tmp_path / "sheet" / "duel-protocol"
    exported = folder / "duel-protocol.xlsx" if fmt == "xlsx" else folder
    assert run(capsys, "import", str(exported), "--out", str(second))[0] == 0
    assert unit_bodies(second) == unit_bodies(first)
    again = tmp_path / "again"
    run(capsys, "export", fmt, str(first), "--out", str(again))
    assert snapshot(again / "duel-protocol") == snapshot(folder)  # reproducible


def test_exported_cells_never_run_as_formulas(capsys, tmp_path: Path) -> None:
    sheet = tmp_path / "figures.csv"
    sheet.write_text(MIXED, encoding="utf-8")
    run(capsys, "import", str(sheet), "--out", str(tmp_path / "project"))
    run(capsys, "export", "csv", str(tmp_path / "project"), "--out", str(tmp_path / "sheet"))
    with (tmp_path / "sheet" / "duel-protocol" / "units.csv").open(encoding="utf-8", newline="") as handle:
        cells = [cell for row in csv.reader(handle) for cell in row]
    assert "'=HYPERLINK(\"x\")" in cells
    assert "'-Harden" in cells
    assert "'@Swipe" in cells
    assert not [cell for cell in cells if cell[:1] in ("=", "+", "-", "@")]

    from openpyxl import load_workbook

    run(capsys, "export", "xlsx", str(tmp_path / "project"), "--out", str(tmp_path / "book"))
    workbook = load_workbook(tmp_path / "book" / "duel-protocol" / "duel-protocol.xlsx")
    values = [cell.value for row in workbook.worksheets[0].iter_rows() for cell in row]
    assert not [v for v in values if isinstance(v, str) and v[:1] in ("=", "+", "-", "@")]
    assert all(cell.data_type != "f" for row in workbook.worksheets[0].iter_rows() for cell in row)


def test_export_uses_the_column_map_and_names_fields_no_column_holds(capsys, tmp_path: Path) -> None:
    project = tmp_path / "project"
    (project / "unit_data").mkdir(parents=True)
    (project / "duelkit.yaml").write_text("theme: duel-protocol\nname: Mine\n", encoding="utf-8")
    (project / "unit_data" / "a.yaml").write_text(
        "id: a\nname: A\nclass: C\nmp: 2\nupgrades_to: b\nupgrade_to: b\ndisk:\n"
        "- {move: Hit, color: white, size: 88, damage: 30}\n"
        "- {move: Glare, color: purple, size: 8, stars: 1, inflicts: paralysis}\n", encoding="utf-8")
    (project / "unit_data" / "b.yaml").write_text("id: b\nname: [broken\n", encoding="utf-8")
    code, _, stderr = run(capsys, "export", "csv", str(project), "--out", str(tmp_path / "sheet"),
                          "--columns", "name=Figure,mp=MP")
    assert code == 1  # b.yaml could not be read: the sheet is incomplete, and says which file
    assert "b.yaml" in stderr
    assert "upgrade_to (1x)" in stderr  # a misspelt key no column holds; inflicts and upgrades_to have columns
    text = (tmp_path / "sheet" / "duel-protocol" / "units.csv").read_text(encoding="utf-8")
    assert text.splitlines()[0].startswith("id,Figure,class,MP,")
    copy = tmp_path / "copy"
    run(capsys, "import", str(tmp_path / "sheet" / "duel-protocol"), "--out", str(copy),
        "--columns", "name=Figure,mp=MP")
    assert (copy / "unit_data" / "a.yaml").read_text(encoding="utf-8").split("\n", 1)[1] == (
        "id: a\nname: A\nclass: C\nmp: 2\nupgrades_to: b\ndisk:\n"
        "  - {move: Hit, color: white, size: 88, damage: 30}\n"
        "  - {move: Glare, color: purple, size: 8, stars: 1, inflicts: paralysis}\n")


def test_validate_names_the_sheet_cell_until_the_file_is_edited(capsys, tmp_path: Path) -> None:
    import json

    body = ("Metapod,0,UC,Bug,None,48,Harden,White,,0\n"
            "Metapod,0,UC,Bug,None,48,Big Hit,Z-Move,Knocks all away,40\n")
    sheet = write_csv(tmp_path, body)
    project = tmp_path / "project"
    run(capsys, "import", str(sheet), "--out", str(project))
    code, stdout, _ = run(capsys, "validate", str(project))
    assert code == 1
    assert "mp: the number 0 is not allowed" in stdout
    assert "[sheet: figures.csv line 2, column 'Movement']" in stdout
    assert "'z-move'" in stdout
    assert "[sheet: figures.csv line 3, column 'Attack Type']" in stdout

    code, stdout, _ = run(capsys, "validate", str(project), "--format", "json")
    messages = {(p["line"], p["message"].split(" [sheet: ")[-1]) for p in json.loads(stdout)
                if "[sheet:" in p["message"]}
    assert (5, "figures.csv line 2, column 'Movement']") in messages  # line 5 of the YAML: `mp: 0`

    unit = project / "unit_data" / "metapod-uc.yaml"
    unit.write_text(unit.read_text(encoding="utf-8").replace("mp: 0", "mp: 5"), encoding="utf-8")
    _, stdout, _ = run(capsys, "validate", str(project))
    assert "the number 5 is not allowed" in stdout
    assert "[sheet:" not in stdout  # edited by hand: its lines no longer follow the sheet


def test_a_row_per_unit_sheet_points_at_numbered_columns(capsys, tmp_path: Path) -> None:
    header = ("Name,MP,Rarity,Type,Special Ability,Move 1,Size 1,Color 1,Effect 1,Damage 1,"
              "Move 2,Size 2,Color 2,Effect 2,Damage 2\n")
    sheet = write_csv(tmp_path, "Tauros,2,C,Normal,None,Tackle,88,White,,30,Miss,8,Teal,,\n", header=header)
    project = tmp_path / "project"
    run(capsys, "import", str(sheet), "--out", str(project))
    _, stdout, _ = run(capsys, "validate", str(project))
    assert "[sheet: figures.csv line 2, column 'Color 2']" in stdout


def snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


TAUROS_ROW = "Tauros,2,C,Normal,None,96,Tackle,White,,{damage}\n"
EKANS_ROW = "Ekans,3,C,Poison,None,96,Wrap,White,,{damage}\n"


def test_reimport_keeps_hand_edits_and_reports_conflicts(capsys, tmp_path: Path) -> None:
    sheet = write_csv(tmp_path, TAUROS_ROW.format(damage=30) + EKANS_ROW.format(damage=20))
    project = tmp_path / "project"
    assert run(capsys, "import", str(sheet), "--out", str(project))[0] == 0
    tauros, ekans = project / "unit_data" / "tauros-c.yaml", project / "unit_data" / "ekans-c.yaml"
    hand_tauros = tauros.read_text(encoding="utf-8").replace("damage: 30", "damage: 40")
    tauros.write_text(hand_tauros, encoding="utf-8")

    # the sheet did not change for Tauros: the hand edit is kept, quietly
    code, stdout, _ = run(capsys, "import", str(sheet), "--out", str(project))
    assert code == 0
    assert "1 edited by hand and kept" in stdout
    assert tauros.read_text(encoding="utf-8") == hand_tauros

    # now the sheet changes Tauros and Ekans: Ekans is updated, Tauros is a conflict and kept as edited
    sheet.write_text(HEADER + TAUROS_ROW.format(damage=50) + EKANS_ROW.format(damage=60), encoding="utf-8")
    before = snapshot(project)
    code, stdout, _ = run(capsys, "import", str(sheet), "--out", str(project), "--dry-run")
    assert code == 1
    assert "  update: ekans-c" in stdout
    assert "  conflict: tauros-c" in stdout
    assert snapshot(project) == before  # --dry-run writes nothing
    code, _, stderr = run(capsys, "import", str(sheet), "--out", str(project))
    assert code == 1
    assert "conflict:" in stderr
    assert "tauros-c.yaml was edited by hand" in stderr
    assert tauros.read_text(encoding="utf-8") == hand_tauros
    assert "damage: 60" in ekans.read_text(encoding="utf-8")

    # removed from the sheet: listed and kept; with --delete an edited unit is a conflict, not deleted
    sheet.write_text(HEADER + EKANS_ROW.format(damage=60), encoding="utf-8")
    code, stdout, _ = run(capsys, "import", str(sheet), "--out", str(project))
    assert code == 0
    assert "  not in the sheet: tauros-c" in stdout
    assert run(capsys, "import", str(sheet), "--out", str(project), "--delete")[0] == 1
    assert tauros.read_text(encoding="utf-8") == hand_tauros

    # deleting the edited file takes the sheet's version again
    sheet.write_text(HEADER + TAUROS_ROW.format(damage=50) + EKANS_ROW.format(damage=60), encoding="utf-8")
    tauros.unlink()
    assert run(capsys, "import", str(sheet), "--out", str(project))[0] == 0
    assert "damage: 50" in tauros.read_text(encoding="utf-8")


def test_inflicts_is_derived_from_a_status_the_effect_names_with_a_warning(capsys, tmp_path: Path) -> None:
    body = ("Ekans,3,C,Poison,None,40,Wrap,White,,20\n"
            "Ekans,3,C,Poison,None,32,Toxic Fang,Purple,The battle opponent is poisoned,☆\n"
            "Ekans,3,C,Poison,None,24,Glare,Purple,Burns or poisons the battle opponent,☆☆\n")
    sheet = write_csv(tmp_path, body)
    project = tmp_path / "project"
    code, _, stderr = run(capsys, "import", str(sheet), "--out", str(project), "--theme", "chimera")
    assert code == 0
    text = (project / "unit_data" / "ekans-c.yaml").read_text(encoding="utf-8")
    assert "effect: The battle opponent is poisoned, inflicts: poison}" in text
    assert text.count("inflicts") == 1  # two statuses named: nothing guessed
    assert f"{sheet}:3: warning: column 'Attack Value'" in stderr
    assert "imported as `inflicts: poison`" in stderr
    assert f"{sheet}:4: warning:" in stderr
    assert "names several statuses (Burn, Poison): no `inflicts` set" in stderr

    # the derived inflicts is not a loss of the sheet: exported and imported again, the same unit
    code, _, stderr = run(capsys, "export", "csv", str(project), "--out", str(tmp_path / "sheet"))
    assert code == 0
    assert "not in the sheet" not in stderr
    again = tmp_path / "again"
    run(capsys, "import", str(tmp_path / "sheet" / "chimera" / "units.csv"), "--out", str(again), "--theme", "chimera")
    assert unit_bodies(again) == unit_bodies(project)


def test_sheet_export_of_a_game_without_units_is_refused(capsys, tmp_path: Path) -> None:
    code, _, stderr = run(capsys, "export", "xlsx", "--game", "sword-duel", "--out", str(tmp_path / "x"))
    assert code == 2
    assert "`export csv|xlsx` does not apply to sword-duel" in stderr


def test_a_formula_without_a_computed_value_is_reported_not_read_as_empty(tmp_path: Path) -> None:
    # openpyxl stores formulas without computing them, like any program that writes workbooks
    book = write_xlsx(tmp_path / "figures.xlsx", [CANONICAL, ["Tauros", 2, "C", "Normal", None, "=90+6", "Tackle",
                                                              "White", None, 30]])
    result = read_sheet(book)
    assert not result.units
    issue = result.skipped[0].rows[0]
    assert (issue.line, issue.column, issue.value) == (2, "Attack Wheel Size", "=90+6")
    assert issue.reason == "size must be a whole number"


def _rewrite_sheet(source: Path, target: Path, edit: object) -> Path:
    """A copy of the workbook `source` with its first worksheet's XML passed through `edit`."""
    import zipfile

    with zipfile.ZipFile(source) as book, zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as out:
        for info in book.infolist():
            data = book.read(info.filename)
            out.writestr(info.filename, edit(data) if info.filename.endswith("sheet1.xml") else data)  # type: ignore[operator]
    return target


def test_a_workbook_reaching_far_to_the_right_is_refused_at_its_row(capsys, tmp_path: Path) -> None:
    """One stray cell at column XFD with a claimed dimension of the whole grid made openpyxl pad every row
    to 16,384 cells: a 7 KB file ran out of memory. Now the row is named and nothing is written."""
    good = write_xlsx(tmp_path / "good.xlsx", [CANONICAL, ["Tauros", 2, "C", "Normal", None, 96, "Tackle", "White"]])
    far = _rewrite_sheet(good, tmp_path / "far.xlsx", lambda xml: re.sub(
        rb'<dimension ref="[^"]*"', b'<dimension ref="A1:XFD1048576"', xml).replace(
        b"</row>", b'<c r="XFD1" t="inlineStr"><is><t>x</t></is></c></row>', 1))
    code, _, stderr = run(capsys, "import", str(far), "--out", str(tmp_path / "out"))
    assert code == 1
    assert "far.xlsx:1: the row reaches past column 2048" in stderr
    assert not (tmp_path / "out").exists()


def test_a_workbook_claiming_a_huge_grid_imports_its_real_rows(tmp_path: Path) -> None:
    good = write_xlsx(tmp_path / "good.xlsx", [CANONICAL, ["Tauros", 2, "C", "Normal", None, 96, "Tackle", "White"]])
    claim = _rewrite_sheet(good, tmp_path / "claim.xlsx", lambda xml: re.sub(
        rb'<dimension ref="[^"]*"', b'<dimension ref="A1:XFD1048576"', xml))
    assert [unit["name"] for unit in read_sheet(claim).units] == ["Tauros"]


def test_a_zip_bomb_workbook_is_refused_before_it_is_unpacked(capsys, tmp_path: Path, monkeypatch) -> None:
    import toolkit.figure.sheets.read as importer

    monkeypatch.setattr(importer, "MAX_XLSX_UNPACKED", 2**20)  # the real limit is 256 MB; the check is the same
    good = write_xlsx(tmp_path / "good.xlsx", [CANONICAL, ["Tauros", 2, "C", "Normal", None, 96, "Tackle", "White"]])
    bomb = _rewrite_sheet(good, tmp_path / "bomb.xlsx", lambda xml: xml.replace(b"Tauros", b"Tauros" + b"a" * 2**21))
    assert bomb.stat().st_size < 2**16  # a small file ...
    code, _, stderr = run(capsys, "import", str(bomb), "--out", str(tmp_path / "out"))
    assert code == 1  # ... that would unpack to more than the limit
    assert "bomb.xlsx' unpacks to 2 MB, more than the 1 MB" in stderr
    assert not (tmp_path / "out").exists()


def test_a_workbook_without_worksheets_says_so(capsys, tmp_path: Path) -> None:
    import zipfile

    good = write_xlsx(tmp_path / "good.xlsx", [CANONICAL])
    empty = tmp_path / "empty.xlsx"
    with zipfile.ZipFile(good) as book, zipfile.ZipFile(empty, "w") as out:
        for info in book.infolist():
            if "worksheets/" not in info.filename:
                out.writestr(info.filename, book.read(info.filename))
    code, _, stderr = run(capsys, "import", str(empty), "--out", str(tmp_path / "out"))
    assert code == 1
    assert "empty.xlsx' has no worksheet" in stderr
    assert "internal error" not in stderr


@pytest.mark.parametrize(("columns", "why"), [
    ("name=\x1b[31mred", "no control characters"),  # openpyxl refused it deep inside: exit 70
    ("name=Figure,move=figure", "name and move would both be the column 'figure'"),
    ("name=mp", "name and mp would both be the column 'mp'"),  # beside mp's own header
])
def test_export_refuses_a_column_map_it_could_not_write_or_read_back(capsys, tmp_path: Path, columns: str,
                                                                      why: str) -> None:
    project = tmp_path / "project"
    assert main(["new", str(project)]) == 0
    capsys.readouterr()
    for fmt in ("csv", "xlsx"):
        code, _, stderr = run(capsys, "export", fmt, str(project), "--out", str(tmp_path / fmt), "--columns", columns)
        assert code == 2, stderr
        assert why in stderr
        assert not (tmp_path / fmt / "duel-protocol").exists()


def test_import_refuses_one_header_named_for_two_fields(capsys, tmp_path: Path) -> None:
    sheet = write_csv(tmp_path, REST)
    code, _, stderr = run(capsys, "import", str(sheet), "--out", str(tmp_path / "out"),
                          "--columns", "name=Attack Name,move=Attack Name")
    assert code == 2
    assert "name and move would both be the column 'Attack Name'" in stderr
