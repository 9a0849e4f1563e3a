"""Each rule written once (issue 22, item 4), read from the package's source: the colours that deal
damage, the Data Disk total, the colour orders, and the one way a file is written and locked."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "toolkit"
SOURCES = {path.relative_to(PACKAGE.parent).as_posix(): ast.parse(path.read_text(encoding="utf-8"))
           for path in sorted(PACKAGE.rglob("*.py"))}
# Writing files: output.py is the one writer (the spreadsheet import stages through its write_new_files).
WRITERS = {"toolkit/output.py"}


def _colours(node: ast.AST) -> list[str]:
    return [item.attr for item in getattr(node, "elts", ())
            if isinstance(item, ast.Attribute) and isinstance(item.value, ast.Name) and item.value.id == "Color"]


def test_which_colours_deal_damage_is_written_once() -> None:
    """No list of White and Gold anywhere: every question goes to `Color.deals_damage`."""
    found = [f"{name}:{node.lineno}" for name, tree in SOURCES.items() for node in ast.walk(tree)
             if isinstance(node, (ast.Tuple, ast.List, ast.Set)) and {"WHITE", "GOLD"} <= set(_colours(node))]
    assert found == []


def test_colour_orders_are_declared_once() -> None:
    """Table 2.1's order is `Color`'s own, the kit's legend order is `colors.LEGEND_ORDER`: no other
    hand-written run of colours."""
    found = [f"{name}:{node.lineno}" for name, tree in SOURCES.items() for node in ast.walk(tree)
             if isinstance(node, (ast.Tuple, ast.List)) and len(_colours(node)) >= 3]
    assert found == []


def test_the_disk_total_is_a_constant_only() -> None:
    found = [f"{name}:{node.lineno}" for name, tree in SOURCES.items() for node in ast.walk(tree)
             if isinstance(node, ast.Constant) and node.value == 96 and not isinstance(node.value, bool)
             and name != "toolkit/figure/constants.py"]
    assert found == []


def _writes(tree: ast.AST) -> list[int]:
    lines = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
            mode = next((arg.value for arg in node.args[1:2] if isinstance(arg, ast.Constant)), None)
            # (mkstemp alone writes nothing: cli/common's probe of a folder makes a file and removes it)
            if name in ("write_text", "write_bytes", "fsync", "flock") or (
                    name in ("open", "fdopen") and isinstance(mode, str) and any(c in mode for c in "wax+")):
                lines.append(node.lineno)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names = [alias.name for alias in node.names] + [getattr(node, "module", None) or ""]
            if "fcntl" in names:
                lines.append(node.lineno)
    return lines


def test_files_are_written_and_locked_in_one_place() -> None:
    found = {name: lines for name, tree in SOURCES.items() if name not in WRITERS and (lines := _writes(tree))}
    assert found == {}
    assert _writes(SOURCES["toolkit/output.py"])  # the scan does see a writer
    output = (PACKAGE / "output.py").read_text(encoding="utf-8")
    assert "import fcntl" not in output
    assert "from filelock import" in output
