"""Set up a position by hand (a puzzle, a test, a what-if): units on nodes, in the Bay, with statuses."""

from __future__ import annotations

from collections.abc import Mapping

from toolkit.figure.constants import SQUAD_UNITS
from toolkit.figure.engine.core import LOOSE
from toolkit.figure.engine.setup import SetupError
from toolkit.figure.engine.state import GameState
from toolkit.figure.engine.tables import BAY, HANGAR, REMOVED, GameTables
from toolkit.players import Player

ZONES = {"hangar": HANGAR, "bay": BAY, "removed": REMOVED}


def arrange(game: GameTables, places: Mapping[str, str], *, to_move: Player = Player.A, turn: int = 1,
            statuses: Mapping[str, str] | None = None, waits: Mapping[str, int] | None = None,
            forms: Mapping[str, int] | None = None, used_modules: Mapping[Player, tuple[int, ...]] | None = None,
            ) -> GameState:
    """A state at the start of `to_move`'s turn. `places` maps unit labels ("A:sq-7") to node names or
    "hangar", "bay", "removed" (unnamed units stay in the Hangar); Bay order is the order given."""
    state = GameState.initial(game, to_move)
    labels = {slot.label: slot.index for slot in game.slots}

    def slot_of(label: str) -> int:
        if label not in labels:
            raise SetupError(f"no unit '{label}' in this game (units: {', '.join(labels)})")
        return labels[label]

    bays: list[list[int]] = [[], []]
    for label, where in places.items():
        slot = slot_of(label)
        if where in ZONES:
            state.pos[slot] = ZONES[where]
            if where == "bay":
                bays[slot // SQUAD_UNITS].append(slot)
            continue
        if where not in game.node_index:
            raise SetupError(f"no node '{where}' on the board")
        node = game.node_index[where]
        if state.occ[node] >= 0:
            raise SetupError(f"two units on node '{where}'")
        state._put(slot, node)
    state.bay = [tuple(bays[0]), tuple(bays[1])]
    for label, status in (statuses or {}).items():
        state.status[slot_of(label)] = game.status_codes[status]
    for label, count in (waits or {}).items():
        state.wait[slot_of(label)] = count
    for label, form in (forms or {}).items():
        state.form[slot_of(label)] = form
    for player, indices in (used_modules or {}).items():
        for index in indices:
            state.used[player.seat] |= 1 << index
    state.turn = turn
    state.player = state.decider = to_move.seat
    state._forget_history()
    state.result = None
    state._legal = None
    state._flags |= LOOSE  # a unit may have been placed surrounded: the next surround check looks at every unit
    state._begin_turn()
    return state
