"""One source for every sword-duel rule number: change a constant, and the engine, the data checks, the
linter and every sheet that prints it change with it."""

from __future__ import annotations

import re

import pytest

from tests.figure.test_kit_board_tokens import texts
from toolkit.paths import bundled_root
from toolkit.sword import constants
from toolkit.sword.context import SwordContext
from toolkit.sword.data import load_sword
from toolkit.sword.engine.duel import InvalidBuild, validate_build
from toolkit.sword.kit.build import SWORD_GENERATORS
from toolkit.sword.model import Build
from toolkit.sword.rules.effects import cap


def _words(monkeypatch, **values) -> dict[str, str]:
    """Every word each sheet prints (line breaks undone), by component, with the constants changed."""
    for name, value in values.items():
        monkeypatch.setattr(constants, name, value)
    ctx = SwordContext(load_sword(bundled_root()), "a4")
    return {name: re.sub(r"\s+", " ", " ".join(t for page in generate(ctx).pages for t in texts(page.items)))
            for name, generate in SWORD_GENERATORS}


def _codes(monkeypatch, **values) -> list[tuple[str, str]]:
    for name, value in values.items():
        monkeypatch.setattr(constants, name, value)
    return [(p.code, p.message) for p in load_sword(bundled_root()).problems]


def test_resource_cap_changes_engine_linter_mats_and_quick_reference(monkeypatch) -> None:
    shipped = _words(monkeypatch)
    assert shipped["mats"].count("· cap 3") == 4
    assert "Never below 0, cap 3." in shipped["quick-reference"]
    assert any(code == "L002" and "Koboichi" in message for code, message in _codes(monkeypatch))
    words = _words(monkeypatch, RESOURCE_CAP=4)
    assert words["mats"].count("· cap 4") == 4  # Momentum and Balance, on both players' mats
    assert "Never below 0, cap 4." in words["quick-reference"]
    technique = next(iter(load_sword(bundled_root()).techniques.values()))
    assert cap(technique, "momentum") >= 4
    assert not any(code == "L002" and "Koboichi" in message for code, message in _codes(monkeypatch))


def test_build_rules_change_attribute_sheets_data_checks_and_engine(monkeypatch) -> None:
    assert "Speed + Strength + Defense = 6, each from 1 to 4" in _words(monkeypatch)["attributes"]
    words = _words(monkeypatch, BUILD_TOTAL=7, ATTRIBUTE_MAX=5)
    assert "Share 7 points: Speed + Strength + Defense = 7, each from 1 to 5" in words["attributes"]
    assert "Check: Speed + Strength + Defense = 7" in words["attributes"]
    assert any(code == "T004" and "not 7" in message for code, message in _codes(monkeypatch))
    validate_build(Build(id="x", name="X", speed=5, strength=1, defense=1))
    with pytest.raises(InvalidBuild):
        validate_build(Build(id="y", name="Y", speed=2, strength=2, defense=2))


def test_draft_size_changes_the_data_checks_and_the_linter(monkeypatch) -> None:
    shipped = _codes(monkeypatch)
    assert "L005" in [code for code, _ in shipped]
    assert "T001" not in [code for code, _ in shipped]
    changed = _codes(monkeypatch, DRAFT_SIZE=12)
    assert any(code == "T001" and "exactly 12" in message for code, message in changed)
    assert "L005" not in [code for code, _ in changed]


def test_honor_turn_and_health_change_every_sheet_that_prints_them(monkeypatch) -> None:
    words = _words(monkeypatch, HONOR_TURN=5, START_HEALTH=4)
    assert "Loses the duel from turn 5" in words["cards"]
    assert "Playing Retreat on turn 5 or later" in words["cards"]
    assert "4 Health" in words["cards"]
    assert "Retreat from turn 5" in words["mats"]
    assert "playing Retreat on turn 5 or later" in words["quick-reference"]
    assert "Health 4 4" in words["quick-reference"]


def test_the_kit_asks_the_rules_for_caps_and_initiative(monkeypatch) -> None:
    """The mats' tracks and the initiative tokens come from `effects.cap` / `effects.initiative_bounds`,
    the functions the engine plays by, not from a second reading of the techniques."""
    from toolkit.sword.kit.common import initiative_values, raised_cap
    from toolkit.sword.rules import effects

    ctx = SwordContext(load_sword(bundled_root()), "a4")
    assert raised_cap(ctx, "balance")[0] == max(cap(t, "balance") for t in ctx.db.draft_techniques())
    assert initiative_values(ctx)[-1] == max(effects.initiative_bounds(t)[1] for t in ctx.db.draft_techniques())
    monkeypatch.setattr(effects, "cap", lambda _technique, resource: 9 if resource == "balance" else 3)
    assert raised_cap(ctx, "balance")[0] == 9
    assert initiative_values(ctx) == tuple(range(constants.ATTRIBUTE_MIN, constants.ATTRIBUTE_MAX + 9 + 1))
