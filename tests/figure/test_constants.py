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
    ("DEPLOY_COST_MP", 2, "costs 2 MP", "deploy (2 MP)"),
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
