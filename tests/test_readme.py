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


def _rule_rows(text: str) -> list[tuple[str, str, list[str]]]:
    """(rule, keyword, files) of each row of the "Where each rule lives" table."""
    table = text[text.index("### Where each rule lives"):]
    rows = []
    for line in table.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if not line.startswith("|") or len(cells) != 4 or cells[0] in ("rule", "---"):
            continue
        keyword = cells[1].strip("`")
        rows.append((cells[0], keyword, sorted({path for cell in cells[2:] for path in _named_paths(cell)})))
    return rows


def _rows_missing_their_keyword(text: str) -> list[str]:
    return [f"{rule}: {path} lacks '{keyword}'" for rule, keyword, paths in _rule_rows(text) for path in paths
            if not (ROOT / path).is_file() or keyword not in (ROOT / path).read_text(encoding="utf-8")]


def test_every_file_of_a_rule_row_contains_the_rules_keyword() -> None:
    rows = _rule_rows((ROOT / "README.md").read_text(encoding="utf-8"))
    assert len(rows) >= 15
    assert all(keyword and len(paths) >= 2 for _, keyword, paths in rows)  # a module and a test at least
    assert _rows_missing_their_keyword((ROOT / "README.md").read_text(encoding="utf-8")) == []


def test_the_keyword_check_finds_a_row_pointing_at_an_unrelated_file() -> None:
    row = ("### Where each rule lives\n| rule | keyword | module | test |\n|---|---|---|---|\n"
           "| Wait | `WAIT_TURNS` | `toolkit/figure/constants.py` | `tests/test_csvsafe.py` |\n")
    assert _rows_missing_their_keyword(row) == ["Wait: tests/test_csvsafe.py lacks 'WAIT_TURNS'"]


def test_the_check_finds_a_missing_path() -> None:
    assert _named_paths("see `toolkit/nowhere/at_all.py`.") == {"toolkit/nowhere/at_all.py"}
