"""One source for every rule number: change a constant and every sheet that shows it changes with it."""

from __future__ import annotations

import re

import pytest

from tests.figure.test_kit_board_tokens import _db, flatten, texts
from toolkit.figure import constants
from toolkit.figure.kit.board_sheet import board_drawing
from toolkit.figure.kit.context import KitContext
from toolkit.figure.kit.manual import build_manual
from toolkit.figure.kit.manual_pages import build_manual_pages, build_quick_reference
from toolkit.figure.model import Color
from toolkit.figure.rules import combat
from toolkit.render.scene import Circle, Group, Polygon


def _words(component) -> str:
    """Every word printed on a component's pages, in order, with line breaks undone."""
    return re.sub(r"\s+", " ", " ".join(word for page in component.pages for word in texts(page.items)))


def _sheets(monkeypatch, **values) -> tuple[str, str, KitContext]:
    for name, value in values.items():
        monkeypatch.setattr(constants, name, value)
    ctx = KitContext(_db("duel-protocol"), "a4")
    return _words(build_manual_pages(ctx)), _words(build_quick_reference(ctx)), ctx


def _zone_slots(ctx: KitContext) -> list[tuple[int, int]]:
    """(circles, circles marked '+') of each player's zone strip on the board sheet."""
    zones = [item for item in board_drawing(ctx).items if isinstance(item, Group)
             and sum(isinstance(shape, Circle) for shape in item.items) > 4]
    counts = []
    for zone in zones:
        shapes = [shape for shape, _, _ in flatten([zone])]
        counts.append((sum(isinstance(s, Circle) for s in shapes),
                       sum(isinstance(s, Polygon) and len(s.points) == 12 for s in shapes)))
    return counts


def test_the_printed_numbers_as_shipped(monkeypatch) -> None:
    manual, quick, ctx = _sheets(monkeypatch)
    assert "which holds 2. • A third arrival" in manual
    assert "holds 2; the third pushes" in quick
    assert "has 6 places" in manual
    assert _zone_slots(ctx) == [(8, 2), (8, 2)]


def test_repair_bay_capacity_changes_manual_quick_reference_and_board(monkeypatch) -> None:
    manual, quick, ctx = _sheets(monkeypatch, REPAIR_BAY_CAPACITY=3)
    assert "which holds 3. • A fourth arrival" in manual
    assert "holds 3; the fourth pushes the oldest out" in quick
    assert _zone_slots(ctx) == [(9, 3), (9, 3)]  # 6 Hangar places and 3 Repair Bay places, marked '+'


def test_hangar_slots_change_manual_and_board(monkeypatch) -> None:
    manual, _, ctx = _sheets(monkeypatch, HANGAR_SLOTS=7)
    assert "has 7 places" in manual
    assert _zone_slots(ctx) == [(9, 2), (9, 2)]


@pytest.mark.parametrize(("name", "value", "manual_text", "quick_text"), [
    ("WAIT_TURNS", 2, "Wait 2: it cannot", "Wait 2."),
    ("FIRST_TURN_MP_PENALTY", 2, "has 2 MP less", "MP - 2"),
    ("CLOCK_MINUTES", 7, "a 7-minute clock", "(7 min)"),
    ("DEPLOY_COST_MP", 2, "costs 2 MP", "Point costs 2 MP)"),
])
def test_every_printed_turn_number_comes_from_the_constants(monkeypatch, name, value, manual_text, quick_text) -> None:
    manual, quick, _ = _sheets(monkeypatch, **{name: value})
    assert manual_text in manual
    assert quick_text in quick


def _quick_matrix_cell(attacker: Color, defender: Color) -> str:
    table = next(block for section in build_manual(_db("duel-protocol")).quick if section.id == "q-matrix"
                 for block in section.blocks)
    order = (Color.RED, Color.WHITE, Color.PURPLE, Color.GOLD, Color.BLUE)
    return table.rows[order.index(attacker)][1 + order.index(defender)]


def test_priority_order_changes_the_combat_code_the_sentence_and_the_matrices(monkeypatch) -> None:
    manual, quick, _ = _sheets(monkeypatch)
    assert "Priority: Blue (" in manual
    assert _quick_matrix_cell(Color.BLUE, Color.GOLD) == "Attacker Wins"
    swapped = (Color.GOLD, Color.BLUE, Color.PURPLE, Color.WHITE, Color.RED)
    new_manual, new_quick, _ = _sheets(monkeypatch, PRIORITY_ORDER=swapped)
    assert combat.matchup_rule(Color.BLUE, Color.GOLD) is combat.Rule.DEFENDER_WINS
    assert "Priority: Gold (" in new_manual
    assert _quick_matrix_cell(Color.BLUE, Color.GOLD) == "Defender Wins"
    assert new_quick != quick


def test_disk_total_changes_the_checks_the_manual_and_the_d10_sheet(monkeypatch) -> None:
    from toolkit.figure.kit.d10_sheet import build_d10
    from toolkit.figure.rules.disk import check_disk, d10_pair_to_roll

    manual, quick, ctx = _sheets(monkeypatch, DISK_TOTAL=100)
    assert "a number 1-100" in manual
    assert "01-100; 101-100 roll again" in quick
    assert d10_pair_to_roll(9, 8) == 98  # no longer 'roll again'
    unit = next(iter(ctx.db.units.values())).value
    assert [f.code for f in check_disk(unit.disk)] == ["D001"]  # a 96 disk is now short
    assert "a roll from 01 to 100" in _words(build_d10(ctx))


def test_squad_limits_change_the_squad_check_and_the_manual(monkeypatch) -> None:
    from toolkit.figure.rules.roster import squad_findings

    manual, _, ctx = _sheets(monkeypatch, SQUAD_MAX_MODULES=2, SQUAD_UNITS=5)
    assert "a squad is 5 Units and up to 2 different" in manual  # the theme's word for units
    squad = next(entry.value for entry in ctx.db.squads.values() if len(entry.value.modules) > 2)
    codes = {f.code for f in squad_findings(squad, set(squad.units), set(squad.modules))}
    assert codes == {"X006", "X009"}


def test_only_white_and_gold_deal_damage() -> None:
    assert {color for color in Color if color.deals_damage} == {Color.WHITE, Color.GOLD}
    assert combat.matchup_rule(Color.WHITE, Color.GOLD) is combat.Rule.HIGHER_DAMAGE
    assert combat.matchup_rule(Color.PURPLE, Color.PURPLE) is combat.Rule.HIGHER_STARS
