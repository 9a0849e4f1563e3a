"""The CSV importer: grouping, content-based classification of the mislabelled columns, ids, skipped
figures with their CSV lines, and a written project that the normal loader reads."""

from __future__ import annotations

import time
from collections import Counter
from pathlib import Path

import pytest

from toolkit.errors import DuelkitError
from toolkit.figure.database import find_datasets, load_database
from toolkit.figure.sheets.foreign import read_csv, sheet_data
from toolkit.figure.sheets.project import plan_import, write_project
from toolkit.figure.sheets.values import classify_value, slugify
from toolkit.yamlsource import load_yaml_file

HEADER = ("Name,Movement,Rarity,Type,Special Ability,Attack Wheel Size,Attack Name,Attack Type,"
          "Attack Value,Attack Ability,is Gen 1\n")
DATASET = Path(__file__).resolve().parents[2] / ".." / "shared" / "datasets" / "pokemon_duel_characters_v1.csv"


def write_csv(tmp_path: Path, body: str, header: str = HEADER, name: str = "figures.csv") -> Path:
    path = tmp_path / name
    path.write_text(header + body, encoding="utf-8")
    return path


TAUROS = (
    "Tauros,2,C,Normal,None,8,Tackle,White,,30,True\n"
    "Tauros,2,C,Normal,None,60,Miss,Red,,,True\n"
    "Tauros,2,C,Normal,None,28,Kick Away,Purple,The battle opponent gains Wait,☆☆,True\n"
)


def test_consecutive_rows_make_one_figure(tmp_path):
    body = TAUROS + "Ekans,3,C,Poison,None,96,Wrap,White,,20,True\n" + TAUROS
    result = read_csv(write_csv(tmp_path, body))
    assert result.rows_read == 7
    assert [unit["id"] for unit in result.units] == ["tauros-c", "ekans-c", "tauros-c-2"]
    assert [len(unit["disk"]) for unit in result.units] == [3, 1, 3]
    assert list(result.units[0]) == ["id", "name", "class", "mp", "types", "disk"]  # 'None' ability: omitted


def test_mislabelled_columns_are_classified_by_content(tmp_path):
    body = (
        "Mightyena,2,UC,Dark,None,32,Ice Fang,White,\"If this Pokémon is knocked out, it freezes\",40,False\n"
        "Mightyena,2,UC,Dark,None,28,Crunch,White,60,,False\n"  # correctly labelled: number in Attack Value
        "Mightyena,2,UC,Dark,None,24,Taunt,Purple,The opponent must respin,☆☆,False\n"
        "Mightyena,2,UC,Dark,None,12,Protect,Blue,This Pokémon gains Wait,,False\n"
    )
    result = read_csv(write_csv(tmp_path, body))
    disk = result.units[0]["disk"]
    assert disk[0] == {"move": "Ice Fang", "color": "white", "size": 32, "damage": 40,
                       "effect": "If this Pokémon is knocked out, it freezes"}
    assert disk[1] == {"move": "Crunch", "color": "white", "size": 28, "damage": 60}
    assert disk[2] == {"move": "Taunt", "color": "purple", "size": 24, "stars": 2,
                       "effect": "The opponent must respin"}
    assert disk[3] == {"move": "Protect", "color": "blue", "size": 12, "effect": "This Pokémon gains Wait"}
    assert any("'Attack Ability' held a damage number or stars on 2 of 4 rows" in note for note in result.notes)


@pytest.mark.parametrize(("cell", "expected"), [
    ("☆", ("stars", 1)), ("☆☆☆", ("stars", 3)), ("★★", ("stars", 2)), ("☆ ☆", ("stars", 2)),
    ("140", ("damage", 140)), ("0", ("damage", 0)), ("", ("empty", "")),
    ("This Pokémon gains Wait", ("effect", "This Pokémon gains Wait")),
])
def test_cells_are_classified(cell, expected):
    assert classify_value(cell) == expected


@pytest.mark.parametrize("cell", ["??", "☆&star", "&start;☆", "x30", "70++", "x", "-5"])
def test_cells_that_cannot_be_converted(cell):
    assert classify_value(cell)[0] == "bad"


def test_z_move_is_transcribed_and_mp_zero_kept(tmp_path):
    body = (
        "Metapod,0,UC,Bug,Hard Shell - This Pokémon takes no damage,48,Harden,White,,0,True\n"
        "Metapod,0,UC,Bug,Hard Shell - This Pokémon takes no damage,40,Big Hit,Z-Move,Knocks all away,360,True\n"
        "Metapod,0,UC,Bug,Hard Shell - This Pokémon takes no damage,8,Swipe,purple,Poisons the foe,☆,True\n"
    )
    unit = read_csv(write_csv(tmp_path, body)).units[0]
    assert unit["mp"] == 0
    assert unit["subroutine"] == {"name": "Hard Shell", "text": "This Pokémon takes no damage"}
    assert [segment["color"] for segment in unit["disk"]] == ["white", "z-move", "purple"]


def test_subroutine_without_separator_keeps_the_whole_text(tmp_path):
    body = "Eevee,2,C,Normal,Adaptable,96,Tackle,White,,30,True\n"
    unit = read_csv(write_csv(tmp_path, body)).units[0]
    assert unit["subroutine"] == {"name": "Adaptable", "text": "Adaptable"}


def test_types_are_slugs_of_each_part(tmp_path):
    body = "Dialga,2,EX,Steel / Dragon,None,96,Roar,White,,140,False\n"
    assert read_csv(write_csv(tmp_path, body)).units[0]["types"] == ["steel", "dragon"]


def test_same_name_and_class_get_numbered_ids(tmp_path):
    deoxys = "Deoxys,2,EX,Psychic,{ability},96,Psycho Boost,White,,100,False\n"
    body = deoxys.format(ability="None") + deoxys.format(ability="Speed - Moves fast") + deoxys.format(
        ability="None")
    result = read_csv(write_csv(tmp_path, body))
    assert [unit["id"] for unit in result.units] == ["deoxys-ex", "deoxys-ex-2", "deoxys-ex-3"]
    assert any("deoxys-ex-2, deoxys-ex-3" in note for note in result.notes)


def test_accented_names_are_slugged(tmp_path):
    body = "Flabébé,3,C,Fairy,None,96,Tackle,White,,20,False\nNidoran♂,2,C,Poison,None,96,Peck,White,,20,True\n"
    result = read_csv(write_csv(tmp_path, body))
    assert [unit["id"] for unit in result.units] == ["flabebe-c", "nidoran-m-c"]
    assert result.units[0]["name"] == "Flabébé"
    assert slugify("  Mr. Mime -- Galar ") == "mr-mime-galar"


def test_bad_size_skips_the_figure_with_its_csv_line(tmp_path):
    celebi = "Celebi,3,EX,\"Psychic / Grass\",\"Backtrack - Moves to the bench.\nThen it rests.\","
    body = (
        "Tauros,2,C,Normal,None,8,Tackle,White,,30,True\n"  # line 2
        + celebi + "48,Leaf,White,,40,False\n"
        + celebi + ",Back,Blue,Moves away now,,False\n"
        + celebi + "4x,Miss,,,??,False\n"
    )
    result = read_csv(write_csv(tmp_path, body))
    assert [unit["id"] for unit in result.units] == ["tauros-c"]
    (skipped,) = result.skipped
    assert (skipped.name, skipped.id, skipped.lines) == ("Celebi", "celebi-ex", (3, 7))
    issues = [(issue.line, issue.column, issue.value) for issue in skipped.rows]
    # Each Celebi record spans two lines (a quoted newline), so the rows start on lines 3, 5 and 7.
    assert issues == [(5, "Attack Wheel Size", ""), (7, "Attack Type", ""), (7, "Attack Wheel Size", "4x"),
                      (7, "Attack Ability", "??")]
    assert all(issue.reason for issue in skipped.rows)


def test_missing_header_column_is_an_error(tmp_path):
    header = "Name,Movement,Rarity,Type,Attack Wheel Size,Attack Name,Attack Type,Attack Value\n"
    with pytest.raises(DuelkitError, match="'Special Ability', 'Attack Ability'"):
        read_csv(write_csv(tmp_path, "Tauros,2,C,Normal,8,Tackle,White,30\n", header=header))


def test_header_with_bom_and_odd_spacing_is_accepted(tmp_path):
    path = tmp_path / "bom.csv"
    path.write_bytes(("\ufeff" + HEADER.replace("Attack Type", " attack  type ") + TAUROS).encode("utf-8"))
    assert len(read_csv(path).units) == 1


def test_undecodable_or_empty_file_is_an_error(tmp_path):
    bad = tmp_path / "latin1.csv"
    bad.write_bytes((HEADER + "Flabébé,3,C,Fairy,None,96,Tackle,White,,20,False\n").encode("latin-1"))
    with pytest.raises(DuelkitError, match=r"not UTF-8 text.*line 2"):
        read_csv(bad)
    empty = tmp_path / "empty.csv"
    empty.write_text("\n\n", encoding="utf-8")
    with pytest.raises(DuelkitError, match="empty"):
        read_csv(empty)
    with pytest.raises(DuelkitError, match="cannot read"):
        read_csv(tmp_path / "missing.csv")


def test_written_project_round_trips_through_the_loader(tmp_path):
    body = TAUROS + (
        "Dialga,2,EX,Steel / Dragon,\"Time Distortion - Cannot enter: the field, ever #1\",40,Roar: of Time,"
        "White,\"Return the opponent, [all] of it {x}\",140,False\n"
        "Dialga,2,EX,Steel / Dragon,\"Time Distortion - Cannot enter: the field, ever #1\",56,yes,Red,,,False\n"
    )
    result = read_csv(write_csv(tmp_path, body))
    out = tmp_path / "project"
    written = write_project(result, out)
    assert written == [out / "duelkit.yaml", out / "import-map.json", out / "unit_data" / "tauros-c.yaml",
                       out / "unit_data" / "dialga-ex.yaml"]
    for unit, path in zip(result.units, written[2:], strict=True):
        loaded = load_yaml_file(path)
        assert loaded.problems == []
        assert loaded.data == unit
    datasets, problems = find_datasets(out)
    database = load_database(datasets[0])
    # an imported ability is text only: the engine reports it as not simulated (N001, a warning)
    assert problems == []
    assert [p for p in database.problems if p.code != "N001"] == []
    assert {p.severity.value for p in database.problems} <= {"warning"}
    assert sorted(database.units) == ["dialga-ex", "tauros-c"]
    assert (out / "unit_data" / "tauros-c.yaml").stat().st_mode & 0o777 == 0o644


def test_write_refuses_a_folder_that_is_not_an_import(tmp_path):
    result = read_csv(write_csv(tmp_path, TAUROS))
    other = tmp_path / "other"
    other.mkdir()
    (other / "notes.txt").write_text("mine", encoding="utf-8")
    with pytest.raises(DuelkitError, match="not empty"):
        write_project(result, other)
    handmade = tmp_path / "handmade"
    (handmade / "unit_data").mkdir(parents=True)
    (handmade / "duelkit.yaml").write_text("theme: chimera\n", encoding="utf-8")
    with pytest.raises(DuelkitError, match="a project of 'chimera', not 'duel-protocol'"):
        write_project(result, handmade)
    assert sorted(p.name for p in handmade.rglob("*")) == ["duelkit.yaml", "unit_data"]
    # a hand-made project of the sheet's game is updated: its units added, its duelkit.yaml left as it was
    (handmade / "duelkit.yaml").write_text("theme: duel-protocol\n", encoding="utf-8")
    write_project(result, handmade)
    assert (handmade / "duelkit.yaml").read_text(encoding="utf-8") == "theme: duel-protocol\n"
    assert (handmade / "unit_data" / "tauros-c.yaml").is_file()
    with pytest.raises(DuelkitError, match="unknown theme"):
        write_project(result, tmp_path / "new", theme="nope")
    assert not (tmp_path / "new").exists()


def test_write_refuses_ids_that_are_not_slugs(tmp_path):
    result = read_csv(write_csv(tmp_path, TAUROS))
    result.units[0]["id"] = "../escape"
    with pytest.raises(DuelkitError, match="not a slug"):
        write_project(result, tmp_path / "out")
    assert not (tmp_path / "out").exists()


def test_reimport_lists_units_not_in_the_sheet_and_deletes_them_only_when_asked(tmp_path):
    out = tmp_path / "project"
    write_project(read_csv(write_csv(tmp_path, TAUROS + "Ekans,3,C,Poison,None,96,Wrap,White,,20,True\n")), out)
    (out / "unit_data" / "mine.yaml").write_text("id: mine\n", encoding="utf-8")
    second = read_csv(write_csv(tmp_path, TAUROS, name="second.csv"))
    plan = plan_import(sheet_data(second), out, "duel-protocol")
    assert plan.removed == ["ekans-c", "mine"]  # listed
    assert not plan.changed  # and nothing else differs
    write_project(second, out)
    assert sorted(p.name for p in (out / "unit_data").iterdir()) == ["ekans-c.yaml", "mine.yaml", "tauros-c.yaml"]
    (out / "unit_data" / "tauros-c.yaml").unlink()  # so that the import writes something
    write_project(second, out, delete=True)
    assert sorted(p.name for p in (out / "unit_data").iterdir()) == ["tauros-c.yaml"]
    assert "second.csv" in (out / "import-map.json").read_text(encoding="utf-8")


@pytest.mark.skipif(not DATASET.is_file(), reason=f"dataset not present at {DATASET}")
def test_real_dataset_imports_and_loads(tmp_path):
    result = read_csv(DATASET)
    assert result.rows_read == 2701
    assert 580 <= result.figures <= 600
    assert result.skipped
    assert len(result.units) >= 575  # damage such as '60x' is kept (with a damage_note), not skipped
    assert {unit["id"] for unit in result.units} >= {"deoxys-ex-2", "dialga-ex"}
    reasons = {issue.column: issue.value for figure in result.skipped for issue in figure.rows}
    assert reasons["Attack Type"] == ""
    assert reasons["Attack Wheel Size"] == ""

    out = tmp_path / "imported"
    written = write_project(result, out)
    assert len(written) == len(result.units) + 3  # duelkit.yaml, import-map.json, skipped.csv and the units
    assert all(load_yaml_file(path).data == unit for unit, path in zip(result.units, written[3:], strict=True))
    datasets, problems = find_datasets(out)
    assert problems == []
    started = time.perf_counter()
    database = load_database(datasets[0])
    elapsed = time.perf_counter() - started
    codes = Counter(problem.code for problem in database.problems)
    assert codes["S004"]
    assert codes["D001"]
    assert not [code for code in codes if code.startswith("Y")]  # every file we wrote is valid YAML
    messages = [problem.message for problem in database.problems if problem.code == "S004"]
    assert any("'z-move'" in message for message in messages)
    assert any(message.startswith("mp:") for message in messages)
    assert elapsed < 30
