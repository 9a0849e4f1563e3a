"""Hand-made units and games for the engine tests: every spin outcome is chosen by the test."""

from __future__ import annotations

from toolkit.figure.database import load_board
from toolkit.figure.engine.positions import arrange
from toolkit.figure.engine.rules import RULES_DEFAULT, Rules
from toolkit.figure.engine.setup import compile_game
from toolkit.figure.engine.state import GameState
from toolkit.figure.engine.tables import GameTables
from toolkit.figure.model import Module, Squad, Unit
from toolkit.figure.theme import load_theme

# Segment indices of the standard test disk.
WHITE, GOLD, PURPLE, BLUE, RED = range(5)


def disk(white: int = 50, gold: int = 40, stars: int = 1, inflicts: str | None = None) -> list[dict]:
    purple: dict = {"move": "Hex", "color": "purple", "size": 24, "stars": stars}
    if inflicts:
        purple["inflicts"] = inflicts
    return [
        {"move": "Strike", "color": "white", "size": 24, "damage": white},
        {"move": "Dash", "color": "gold", "size": 24, "damage": gold},
        purple,
        {"move": "Dodge", "color": "blue", "size": 12},
        {"move": "Miss", "color": "red", "size": 12},
    ]


def unit(uid: str, mp: int = 2, **fields) -> Unit:
    data = {"id": uid, "name": uid.upper(), "class": "C", "mp": mp, "disk": fields.pop("disk", disk())}
    data.update(fields)
    return Unit.model_validate(data)


def module(mid: str, effect: dict) -> Module:
    return Module.model_validate({"id": mid, "name": mid, "text": mid, "effect": effect})


def game(theme: str = "duel-protocol", *, a: dict[str, Unit] | None = None, b: dict[str, Unit] | None = None,
         extra: list[Unit] = (), modules_a: list[Module] = (), modules_b: list[Module] = (),
         rules: Rules = RULES_DEFAULT) -> GameTables:
    """Six units a1..a6 for A and b1..b6 for B (replace any by passing them), plus upgrade forms in `extra`."""
    side_a = {f"a{i}": unit(f"a{i}") for i in range(1, 7)} | (a or {})
    side_b = {f"b{i}": unit(f"b{i}") for i in range(1, 7)} | (b or {})
    units = {**{u.id: u for u in side_a.values()}, **{u.id: u for u in side_b.values()}, **{u.id: u for u in extra}}
    squads = (Squad(id="sa", units=tuple(u.id for u in side_a.values()), modules=tuple(m.id for m in modules_a)),
              Squad(id="sb", units=tuple(u.id for u in side_b.values()), modules=tuple(m.id for m in modules_b)))
    modules = {m.id: m for m in (*modules_a, *modules_b)}
    board, _ = load_board()
    assert board is not None
    return compile_game(squads, units, modules, load_theme(theme), board, rules)


def at(g: GameTables, places: dict[str, str], **kw) -> GameState:
    """Labels written without the side prefix: 'a1' is 'A:a1', 'b3' is 'B:b3'."""
    def label(name: str) -> str:
        return f"{name[0].upper()}:{name}"
    converted = {}
    for key in ("statuses", "waits", "forms"):
        if key in kw:
            kw[key] = {label(k): v for k, v in kw[key].items()}
    converted = {label(k): v for k, v in places.items()}
    return arrange(g, converted, **kw)


def slot(state: GameState, name: str) -> int:
    return next(s.index for s in state.game.slots if s.label == f"{name[0].upper()}:{name}")


def node(state: GameState, name: str) -> int:
    return state.game.node_index[name]


def where(state: GameState, name: str) -> str:
    pos = state.pos[slot(state, name)]
    return state.game.node_names[pos] if pos >= 0 else {-1: "hangar", -2: "bay", -3: "removed"}[pos]
