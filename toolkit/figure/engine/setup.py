"""Build a game from two squads of a loaded Database: the compiled tables and the opening state."""

from __future__ import annotations

from collections.abc import Mapping

from toolkit.errors import DuelkitError
from toolkit.figure.constants import SQUAD_UNITS
from toolkit.figure.database import Database
from toolkit.figure.engine.rules import RULES_DEFAULT, Rules
from toolkit.figure.engine.state import GameState
from toolkit.figure.engine.tables import GameTables, Slot, compile_board, data_hash, form_for, upgrade_chain
from toolkit.figure.model import Module, Squad, Unit
from toolkit.figure.rules.board import Board
from toolkit.figure.rules.disk import check_disk
from toolkit.figure.rules.roster import upgrade_stages
from toolkit.figure.rules.status import STATUS_IDS
from toolkit.figure.theme import Theme
from toolkit.players import PLAYERS, Player


class SetupError(DuelkitError):
    """The squads cannot be played: unknown, the wrong size, or units whose data breaks the rules."""


def _squad(database: Database, squad: Squad | str) -> Squad:
    if isinstance(squad, Squad):
        return squad
    entry = database.squads.get(squad)
    if entry is None:
        known = ", ".join(sorted(database.squads)) or "none"
        raise SetupError(f"no squad '{squad}' in theme '{database.theme.id}' (squads: {known})")
    return entry.value


def _modules(modules: Mapping[str, Module], squad: Squad) -> tuple[Module, ...]:
    missing = [m for m in squad.modules if m not in modules]
    if missing:
        raise SetupError(f"squad '{squad.id}' names unknown module(s): {', '.join(missing)}")
    return tuple(modules[m] for m in squad.modules)


def build_game(squad_a: Squad | str, squad_b: Squad | str, database: Database,
               rules: Rules = RULES_DEFAULT) -> GameTables:
    """Compile the board, both squads' units (every upgrade form) and modules into a GameTables."""
    squads = (_squad(database, squad_a), _squad(database, squad_b))
    return compile_game(squads, database.unit_defs(), {mid: e.value for mid, e in database.modules.items()},
                        database.theme, database.board, rules)


def compile_game(squads: tuple[Squad, Squad], units: Mapping[str, Unit], modules: Mapping[str, Module],
                 theme: Theme, board: Board, rules: Rules = RULES_DEFAULT) -> GameTables:
    """A GameTables from plain definitions (what `build_game` does for a loaded Database; tests use it directly)."""
    rules.check()
    units = dict(units)
    try:
        stages = upgrade_stages(units)
    except ValueError as exc:
        raise SetupError(str(exc)) from exc
    slots: list[Slot] = []
    for side, squad in enumerate(squads):
        if len(squad.units) != SQUAD_UNITS or len(set(squad.units)) != SQUAD_UNITS:
            raise SetupError(f"squad '{squad.id}' must list {SQUAD_UNITS} different units")
        for unit_id in squad.units:
            if unit_id not in units:
                raise SetupError(f"squad '{squad.id}' names unknown unit '{unit_id}'")
            chain = upgrade_chain(units, unit_id)
            for unit in chain:
                broken = [f for f in check_disk(unit.disk) if not f.warning]
                if broken:
                    raise SetupError(f"the Data Disk of '{unit.id}' breaks the rules ({broken[0].message}); "
                                     "`duelkit validate` shows what to fix")
            forms = tuple(form_for(unit, stages[unit.id]) for unit in chain)
            slots.append(Slot(len(slots), side, f"{PLAYERS[side].value}:{unit_id}", forms))
    squad_modules = (_modules(modules, squads[0]), _modules(modules, squads[1]))
    names, adj, goals, entries = compile_board(board)
    status_rules = (None, *(theme.status(sid) for sid in STATUS_IDS))
    slot_tuple = tuple(slots)
    return GameTables(theme, rules, board, names, adj, goals, entries, slot_tuple, squad_modules,
                (squads[0].id, squads[1].id), data_hash(theme.id, board, slot_tuple, squad_modules), status_rules)


def new_game(squad_a: Squad | str, squad_b: Squad | str, database: Database, rules: Rules = RULES_DEFAULT,
             first: Player = Player.A) -> GameState:
    """The opening state: every unit in its Hangar, `first` to move."""
    if first not in PLAYERS:
        raise SetupError("first is Player.A or Player.B")
    return GameState.initial(build_game(squad_a, squad_b, database, rules), first)
