"""Each engine ruling is declared once, in `rules.RULINGS` (default, source, alternatives); `Rules` takes its
defaults from there, and the two tables people read (the engine package's docstring, DESIGN.md's list) are
checked against it, so none of them can drift."""

from __future__ import annotations

import re
from dataclasses import fields
from pathlib import Path

import toolkit.figure.engine as engine
from toolkit.figure.engine.rules import RULES_DEFAULT, RULINGS, Rules

ROOT = Path(__file__).resolve().parents[3]


def _shown(value: object) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def _docstring_rows(text: str) -> dict[str, tuple[str, str]]:
    rows = {}
    for line in text.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if line.startswith("|") and len(cells) == 3 and cells[0] not in ("switch", "---"):
            rows[cells[0]] = (cells[1], cells[2])
    return rows


def _design_defaults(text: str) -> dict[str, str]:
    block = text[text.index("- **Rulings** (fields of the frozen `Rules`"):]
    block = block[:block.index("\n- **", 5)]
    return dict(re.findall(r"(\w+)=([\w-]+)", block))


def test_rules_take_every_default_from_the_declarations() -> None:
    assert [f.name for f in fields(Rules)] == list(RULINGS)
    for name, ruling in RULINGS.items():
        assert getattr(RULES_DEFAULT, name) == ruling.default, name
        if ruling.choices:
            assert ruling.default in ruling.choices, name


def test_the_engine_docstring_table_lists_each_ruling_as_declared() -> None:
    rows = _docstring_rows(engine.__doc__ or "")
    assert set(rows) == set(RULINGS)
    for name, ruling in RULINGS.items():
        default, alternative = rows[name]
        assert default.split()[0].rstrip(":") == _shown(ruling.default), name
        for choice in ruling.choices:
            if choice != ruling.default:
                assert choice in alternative, (name, choice)


def test_design_lists_each_ruling_with_its_default() -> None:
    listed = _design_defaults((ROOT / "DESIGN.md").read_text(encoding="utf-8"))
    assert {name: listed.get(name) for name in RULINGS} == {name: _shown(r.default) for name, r in RULINGS.items()}


def test_the_checks_see_a_drifted_table() -> None:
    rows = _docstring_rows("| switch | default | alternative |\n|---|---|---|\n| lockout | off (x) | y |\n")
    assert rows["lockout"][0].split()[0] != _shown(RULINGS["lockout"].default)
    assert _design_defaults("- **Rulings** (fields of the frozen `Rules`: lockout=off\n- **Next**")["lockout"] == "off"
