"""The manual teaches (issue 26): setup, a worked battle, upgrades, surround and Repair Bay examples, the
table rulings read from the engine, the project's own words; and the pieces say whose they are."""

from __future__ import annotations

import re
from dataclasses import fields

import pytest

from toolkit.cli import main
from toolkit.figure.database import Database, bundled_dataset, load_database
from toolkit.figure.engine import rules as engine_rules
from toolkit.figure.engine.rules import RULINGS, Rules, Ruling
from toolkit.figure.kit.board_sheet import build_board
from toolkit.figure.kit.context import KitContext
from toolkit.figure.kit.manual import Bullets, Figure, Manual, Para, Table, build_manual
from toolkit.figure.kit.manual_pages import build_manual_pages
from toolkit.figure.kit.module_cards import build_modules
from toolkit.figure.kit.squad_sheet import build_squad_sheets
from toolkit.figure.rules.disk import d10_pair_to_roll, range_label, ranges
from toolkit.paths import bundled_root
from toolkit.players import Player
from toolkit.registry import discover
from toolkit.render.scene import Group, Reuse, Shape, Text


def _texts(items: list[Shape] | tuple[Shape, ...]) -> list[str]:
    found: list[str] = []
    for item in items:
        if isinstance(item, Text):
            found.append(item.text)
        elif isinstance(item, (Group, Reuse)):
            found += _texts(item.items)
    return found


def _words(manual: Manual, skip: tuple[str, ...] = ("modules",)) -> str:
    parts: list[str] = []
    for section in (*manual.sections, *manual.quick):
        if section.id in skip:
            continue
        parts.append(section.title)
        for block in section.blocks:
            if isinstance(block, Para):
                parts.append(block.text)
            elif isinstance(block, Bullets):
                parts += block.items
            elif isinstance(block, Table):
                parts += [*block.header, *(cell for row in block.rows for cell in row)]
            elif isinstance(block, Figure):
                parts.append(block.caption)
    return "\n".join(parts)


@pytest.fixture(scope="module")
def duel() -> Database:
    return load_database(bundled_dataset(bundled_root(), "duel-protocol"))


@pytest.fixture(scope="module")
def bots(tmp_path_factory: pytest.TempPathFactory) -> Database:
    project = tmp_path_factory.mktemp("bots") / "bots"
    assert main(["new", str(project)]) == 0
    (project / "duelkit.yaml").write_text("theme: duel-protocol\nterms: {unit: Bot, units: Bots}\n")
    found, problems = discover(project)
    assert not problems
    game, where = found[0]
    database: Database = game.load(where).database  # type: ignore[attr-defined]
    assert not database.has_errors, database.problems
    assert database.theme.terms.unit == "Bot"
    return database


def test_the_first_turn_deploy_line_follows_the_engine_ruling(duel: Database, monkeypatch) -> None:
    from toolkit.figure.kit import manual_teach

    for min_mp, says in ((0, "cannot deploy on that move"), (1, "can still deploy")):
        monkeypatch.setattr(manual_teach, "RULES_DEFAULT", Rules(min_mp=min_mp))
        assert says in _words(build_manual(duel))


def test_with_unit_bot_the_manual_never_says_unit(bots: Database) -> None:
    text = _words(build_manual(bots))
    assert re.findall(r"\bunits?\b", text, re.IGNORECASE) == []
    assert text.count("Bot") > 20


def test_the_setup_says_every_unit_starts_in_the_hangar_and_who_goes_first(duel: Database) -> None:
    manual = build_manual(duel)
    assert manual.sections[0].id == "setup"
    setup = _words(Manual("", "", "", (manual.sections[0],), ()))
    assert "Every Unit starts in its Hangar" in setup
    assert "1-50 Operator A goes first, 51-100 Operator B" in setup  # a spinner shows a wedge, not a number
    assert "spin any" not in setup
    text = _words(manual)
    assert "Strategic Module phase" in text
    assert "strategic Strategic" not in text
    assert not re.search(r"(\b\w+\b) \1\b", text.replace("Data Disk", "")), re.search(r"(\b\w+\b) \1\b", text)


def test_the_worked_battle_reads_real_ranges_and_the_matrix(duel: Database) -> None:
    context = KitContext(duel, "a4")
    sides = context.squads_by_side()
    manual = build_manual(duel, sides)
    battle = next(section for section in manual.sections if section.id == "battle")
    example = next(block.text for block in battle.blocks if isinstance(block, Para))
    attacker = duel.units[sides[Player.A].units[0]].value  # type: ignore[union-attr]
    defender = duel.units[sides[Player.B].units[0]].value  # type: ignore[union-attr]
    assert attacker.name in example
    assert defender.name in example
    tens, ones, read = re.search(r"(\d) on the tens die and (\d) on the ones die read (\d\d)", example).groups()  # type: ignore[union-attr]
    roll = d10_pair_to_roll(int(tens), int(ones))
    assert roll == int(read)
    low, high = next((low, high) for low, high in ranges(defender.disk) if low <= roll <= high)
    assert f"{defender.name}'s {range_label(low, high)} range" in example
    assert "Higher Damage Wins" in example or "Wins" in example or "Draw" in example


def test_table_rulings_list_every_engine_switch_from_its_data(duel: Database, monkeypatch) -> None:
    manual = build_manual(duel)
    rulings = next(section for section in manual.sections if section.id == "rulings")
    table = next(block for block in rulings.blocks if isinstance(block, Table))
    assert len(table.rows) == len(fields(Rules))
    monkeypatch.setitem(RULINGS, "turn_limit", Ruling(300, "a source only this test writes", "none"))
    changed = next(section for section in build_manual(duel).sections if section.id == "rulings")
    rows = next(block for block in changed.blocks if isinstance(block, Table)).rows
    assert ("Turn limit", "300", "a source only this test writes", "none") in rows
    assert engine_rules.RULES_DEFAULT.turn_limit == 300


def test_surround_and_repair_examples_use_board_names_and_the_squad(duel: Database) -> None:
    text = _words(build_manual(duel))
    goal = duel.board.goal(Player.B)
    assert f"B's Goal Point ({goal})" in text
    assert "leaves for A's Hangar with a Wait 1 marker" in text


def test_the_d10_table_is_printed_once_in_a_kit(duel: Database) -> None:
    context = KitContext(duel, "a4")
    manual_text = [text for page in build_manual_pages(context).pages for text in _texts(page.items)]
    assert "tens \\ ones" not in manual_text  # the kit's d10 sheet has it
    assert any("d10 sheet" in text for text in manual_text)
    reference = build_manual(duel)  # `duelkit reference`: no d10 sheet beside it, so the manual keeps it
    assert any(isinstance(block, Table) and block.header[0] == "tens \\ ones"
               for section in reference.sections for block in section.blocks)


def test_a_squad_sheet_per_side_lists_its_units_and_modules(duel: Database) -> None:
    context = KitContext(duel, "a4")
    component = build_squad_sheets(context)
    assert [slug for slug, _ in component.pieces] == ["squad-a", "squad-b"]
    for (side, squad), page in zip(context.squads_by_side().items(), component.pages, strict=True):
        words = _texts(page.items)
        assert side.value in words
        assert squad.name in words  # type: ignore[union-attr]
        for unit_id in squad.units:  # type: ignore[union-attr]
            assert duel.units[unit_id].value.name in words
        for module_id in squad.modules:  # type: ignore[union-attr]
            assert duel.modules[module_id].value.name in words
    assert not component.warnings


def test_module_cards_carry_their_side_and_squad(duel: Database) -> None:
    context = KitContext(duel, "a4")
    pieces = dict(build_modules(context).pieces)
    sides = context.squads_by_side()
    for side, squad in sides.items():
        for module_id in squad.modules:  # type: ignore[union-attr]
            words = _texts(pieces[f"module-{side.value.lower()}-{module_id}"].items)
            assert side.value in words
            assert f"{side.value} · {squad.name}" in words  # type: ignore[union-attr]


def test_board_node_labels_are_the_names_play_uses(duel: Database) -> None:
    board = build_board(KitContext(duel, "a4"))
    words = {text for _, piece in board.pieces for text in _texts(piece.items)}
    assert set(duel.board.nodes) <= words


def test_a_project_manual_in_chimera_words() -> None:
    database = load_database(bundled_dataset(bundled_root(), "chimera"))
    text = _words(build_manual(database))
    assert "Bench" in text
    assert "Hangar" not in text
    assert not re.search(r"\bunits?\b", text)  # chimera says Robot Unit(s)


def test_a_token_names_its_unit_even_when_the_name_is_long(duel: Database) -> None:
    from toolkit.figure.kit.tokens import abbreviate, designation, short_name, unit_token

    context = KitContext(duel, "a4")
    unit = next(entry.value for entry in duel.units.values())
    long = unit.model_copy(update={"name": f"Storm Thunderhead Conductor-Class Unit {designation(unit)}"})
    words = _texts(unit_token(context, long, Player.A).piece.art)
    name = short_name(long, duel.theme.terms.unit)
    assert name not in words  # too long for one line inside the ring
    assert abbreviate(name) in words  # so its short form is printed instead of nothing
    assert designation(long) in words


def test_articles_follow_the_project_words(duel: Database) -> None:
    text = _words(build_manual(duel))
    assert "an Operator" in text  # duel-protocol's word for "player"
    assert not re.findall(r"\ba [AEIO]\w+", text)
    assert "a Unit" in text
    assert "an Unit" not in text


def test_the_manual_says_what_a_battle_draw_does(duel: Database) -> None:
    assert "A draw: nothing happens; both units stay where they are" in _words(build_manual(duel)).replace(
        "Units", "units")


def test_the_quick_reference_says_only_deploying_costs_an_mp(duel: Database) -> None:
    """"Move or deploy (1 MP)" read as if every move cost 1 MP; the turn card names where the cost lies."""
    turn = next(section for section in build_manual(duel).quick if section.title == "Turn")
    steps = [item for block in turn.blocks if isinstance(block, Bullets) for item in block.items]
    move = next(step for step in steps if step.startswith("Move"))
    assert "Entry Point costs 1 MP" in move
    assert "deploy" in move
    assert steps[-1] == "Battle (optional)"
