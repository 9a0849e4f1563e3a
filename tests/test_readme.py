"""The README's Layout section and its "where each rule lives" table name real paths."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PATH = re.compile(r"(?<![\w/])((?:toolkit|tests|bench|scripts)/[\w./-]*)")


def _named_paths(text: str) -> set[str]:
    return {match.rstrip(".,") for match in PATH.findall(text)}


def test_every_path_the_readme_names_exists() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    named = _named_paths(text)
    assert len(named) > 30  # the layout section and the rule table
    missing = sorted(path for path in named if not (ROOT / path).exists())
    assert not missing, f"README.md names paths that do not exist: {missing}"


def test_every_path_design_names_exists() -> None:
    named = _named_paths((ROOT / "DESIGN.md").read_text(encoding="utf-8"))
    missing = sorted(path for path in named if not (ROOT / path).exists())
    assert not missing, f"DESIGN.md names paths that do not exist: {missing}"


def test_the_rule_table_covers_the_rules_the_issue_lists() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    table = text[text.index("### Where each rule lives"):]
    for rule in ("priority matrix", "Repair Bay", "Wait", "surround", "status", "Data Disk ranges",
                 "crop marks and bleed", "honor rule", "position (range) tables"):
        assert rule in table, rule


def test_the_check_finds_a_missing_path() -> None:
    assert _named_paths("see `toolkit/nowhere/at_all.py`.") == {"toolkit/nowhere/at_all.py"}
