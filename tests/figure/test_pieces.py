"""Enough pieces: a module deck per side, `copies:` on units and modules, and `build --squads A,B`."""

from __future__ import annotations

from pathlib import Path

import pdfplumber
import pytest

from toolkit.cli import main
from toolkit.figure.database import bundled_dataset, load_database, project_dataset
from toolkit.figure.kit.context import KitContext
from toolkit.figure.kit.schematics import build_schematics
from toolkit.figure.kit.tokens import sections
from toolkit.paths import bundled_root
from toolkit.render.scene import Group, Text


def _texts(items) -> list[str]:
    found = []
    for item in items:
        if isinstance(item, Text):
            found.append(item.text)
        elif isinstance(item, Group):
            found += _texts(item.items)
    return found


def test_each_side_gets_its_own_deck_of_the_modules_its_squad_lists() -> None:
    database = load_database(bundled_dataset(bundled_root(), "duel-protocol"))
    copies = KitContext(database, "a4").module_copies()
    # both bundled squads list Double Chance, Unit Switch, Hurdle Jump and Overdrive Thrusters: one card in
    # each side's deck; a module only one squad lists, or none, is printed once
    for both in ("double-chance", "unit-switch", "hurdle-jump", "overdrive-thrusters"):
        assert copies[both] == 2
    assert copies["x-attack"] == 1
    assert copies["signal-amplifier"] == 1
    assert sum(copies.values()) == 12


@pytest.mark.usefixtures("capsys")  # keeps the commands' output out of the test log
def test_one_squad_means_both_sides_play_it_with_a_deck_each(tmp_path: Path) -> None:
    project = tmp_path / "starter"
    assert main(["new", str(project)]) == 0
    database = load_database(project_dataset(project, "duel-protocol"))
    assert KitContext(database, "a4").module_copies() == {"boost": 2, "quick-step": 2, "second-spin": 2}


@pytest.mark.usefixtures("capsys")  # keeps the commands' output out of the test log
def test_copies_on_a_unit_and_a_module(tmp_path: Path) -> None:
    project = tmp_path / "starter"
    assert main(["new", str(project)]) == 0
    boost = project / "modules" / "boost.yaml"
    boost.write_text(boost.read_text() + "copies: 3\n", encoding="utf-8")
    spark = project / "unit_data" / "spark.yaml"
    spark.write_text(spark.read_text().replace("mp: 2 ", "copies: 2\nmp: 2 "), encoding="utf-8")
    database = load_database(project_dataset(project, "duel-protocol"))
    assert not database.has_errors, database.problems
    context = KitContext(database, "a4")
    assert context.module_copies()["boost"] == 6  # 3 in each side's deck
    fronts = [page for page in build_schematics(context).pages if "Spark" in _texts(page.items)]
    assert sum(_texts(page.items).count("Spark") for page in fronts) == 2
    side_a = sections(context)[0].rows[0][1]
    assert len(side_a) == 7  # six squad units, Spark twice


def test_copies_must_be_a_sensible_number(capsys, base_project: Path) -> None:
    module = base_project / "modules" / "x-attack.yaml"
    module.write_text(module.read_text() + "copies: 0\n", encoding="utf-8")
    assert main(["validate", str(base_project)]) == 1
    assert "copies: the number 0 is not allowed; expected at least 1" in capsys.readouterr().out


@pytest.mark.usefixtures("capsys")  # keeps the commands' output out of the test log
def test_build_squads_chooses_the_sides_on_the_token_sheet(tmp_path: Path) -> None:
    code = main(["build", "--game", "duel-protocol", "--squads", "malfunction-cascade,hydro-conductor",
                 "--out", str(tmp_path)])
    assert code == 0
    with pdfplumber.open(tmp_path / "duel-protocol" / "tokens.pdf") as pdf:
        text = "\n".join(page.extract_text() or "" for page in pdf.pages)
    assert text.index("Operator A — Malfunction Cascade") < text.index("Operator B — Hydro Conductor")


def test_build_squads_refuses_an_unknown_squad_or_several_games(capsys, tmp_path: Path) -> None:
    assert main(["build", "--game", "duel-protocol", "--squads", "hydro-conductr", "--out", str(tmp_path)]) == 2
    assert "no squad 'hydro-conductr' in duel-protocol; did you mean 'hydro-conductor'?" in capsys.readouterr().err
    assert main(["build", "--squads", "hydro-conductor", "--out", str(tmp_path)]) == 2
    assert "choose it with --game" in capsys.readouterr().err
    assert not (tmp_path / "duel-protocol").exists()
