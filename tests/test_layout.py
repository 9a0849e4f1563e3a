"""The layout's dependency rules, read from every module's imports (including imports inside functions).

- rules, analysis and engines are pure: they never import the renderer, a kit or the command line;
- the renderer imports no game;
- shared modules (everything outside `toolkit/figure/` and `toolkit/sword/`, except the registry) neither
  import a game nor name one: the command line reaches games through `toolkit.registry`;
- the two games never import each other.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "toolkit"
GAME_IDS = ("duel-protocol", "chimera", "sword-duel")
PURE = ("toolkit.figure.rules", "toolkit.figure.analysis", "toolkit.figure.engine", "toolkit.sword.rules",
        "toolkit.sword.engine")
PRESENTATION = ("toolkit.render", "toolkit.kit", "toolkit.figure.kit", "toolkit.sword.kit", "toolkit.cli")
GAMES = ("toolkit.figure", "toolkit.sword")


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {_module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}


def _imports(path: Path) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
    return {name for name in found if name.split(".")[0] == "toolkit"}


def _inside(module: str, packages: tuple[str, ...]) -> bool:
    return any(module == package or module.startswith(package + ".") for package in packages)


def _string_literals(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                  if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef) and node.body
                  and isinstance(node.body[0], ast.Expr) and isinstance(node.body[0].value, ast.Constant)}
    return [node.value for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings]


def test_the_rule_finds_the_modules() -> None:
    assert "toolkit.figure.rules.combat" in MODULES
    assert "toolkit.sword.engine.duel" in MODULES
    assert _inside("toolkit.kit.cards", PRESENTATION)
    assert not _inside("toolkit.kitchen", PRESENTATION)


@pytest.mark.parametrize("module", [m for m in MODULES if _inside(m, PURE)])
def test_rules_and_engines_never_import_render_kit_or_cli(module: str) -> None:
    bad = sorted(name for name in _imports(MODULES[module]) if _inside(name, PRESENTATION))
    assert not bad, f"{module} imports {bad}"


@pytest.mark.parametrize("module", [m for m in MODULES if _inside(m, ("toolkit.render",))])
def test_render_imports_no_game(module: str) -> None:
    bad = sorted(name for name in _imports(MODULES[module])
                 if _inside(name, (*GAMES, "toolkit.registry", "toolkit.game", "toolkit.kit", "toolkit.cli")))
    assert not bad, f"{module} imports {bad}"


SHARED = [m for m in MODULES if not _inside(m, GAMES) and m != "toolkit.registry"]


@pytest.mark.parametrize("module", SHARED)
def test_shared_modules_neither_import_nor_name_a_game(module: str) -> None:
    path = MODULES[module]
    bad = sorted(name for name in _imports(path) if _inside(name, GAMES))
    assert not bad, f"{module} imports {bad}; reach a game through toolkit.registry"
    named = sorted({game for text in _string_literals(path) for game in GAME_IDS if game in text})
    assert not named, f"{module} names {named}; ask the game's adapter instead"


@pytest.mark.parametrize(("own", "other"), [("toolkit.figure", "toolkit.sword"), ("toolkit.sword", "toolkit.figure")])
def test_the_games_never_import_each_other(own: str, other: str) -> None:
    for module in (m for m in MODULES if _inside(m, (own,))):
        bad = sorted(name for name in _imports(MODULES[module]) if _inside(name, (other,)))
        assert not bad, f"{module} imports {bad}"



def test_no_module_is_over_600_lines() -> None:
    """One job per module: the engine's GameState is split along its sections (toolkit/figure/engine)."""
    long = {f"{path.relative_to(PACKAGE.parent).as_posix()}": len(path.read_text(encoding="utf-8").splitlines())
            for path in MODULES.values()}
    over = {name: count for name, count in long.items() if count > 600}
    assert over == {}
    assert long["toolkit/figure/engine/state.py"] < 600
