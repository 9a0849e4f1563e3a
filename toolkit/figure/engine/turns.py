"""Turn flow: the decision of a turn's first phases, the start of a turn (Wait, Frozen's count,
repetition, System Lockout) and its end (chimera Poison's spins, thawing, Wait, the turn limit)."""

from __future__ import annotations

import itertools
import struct

from toolkit.figure.constants import SQUAD_UNITS
from toolkit.figure.engine import effects
from toolkit.figure.engine.actions import Action
from toolkit.figure.engine.battles import Battles
from toolkit.figure.engine.core import (
    ALL_ZERO,
    CHOICE_PHASE,
    DRAW,
    LOCKOUT,
    LOOKAHEAD,
    NO_TURN_FX,
    PASS_ACTION,
    REPETITION,
    RESPIN_PHASE,
    SHARED,
    SPIN_POISON,
    START,
    SUB,
    TURN_LIMIT,
    UPGRADE_PHASE,
    A,
    B,
    HistoryKey,
    RestFields,
)
from toolkit.figure.engine.tables import BAY, MODULE_KEY_SHIFT, REMOVED, bits

_PACKERS: dict[int, struct.Struct] = {}  # by key length: little-endian 64-bit ints, the same bytes on every machine
STATUSED_OR_WAITING = (1 << 2 * SQUAD_UNITS) - 1  # TurnMoves.units >> SQUAD_UNITS: its sets of units with a status
# and of units waiting in the Hangar


def unpack_key(key: bytes) -> tuple[int, ...]:
    """A history key (`TurnFlow.history_key()`) as `position_key()`'s flat tuple of ints."""
    return struct.unpack(f"<{len(key) // 8}q", key)


class TurnFlow(Battles):
    """A turn's start, its first decision and its end."""

    __slots__ = ()

    def _turn_actions(self, phase: int) -> list[Action]:
        """Modules (START), subroutines (START, SUB) and the move, or PASS when nothing can move."""
        game, side = self.game, self.player
        listed = self._moves
        if listed is None:
            listed = self._moves = self._compute_moves()
        moves, _, units = listed  # (unpacked: a NamedTuple's fields by name are slower look-ups)
        modules: tuple[Action, ...] = ()
        if phase == START:
            used = self.used[side]
            if used != game.all_used[side]:  # a module may be played: its actions are kept per (spent, units)
                kept = game.module_lists[side].get(used << MODULE_KEY_SHIFT | units & game.module_units[side][used])
                # (None: not listed yet; an empty tuple is kept too, for the many turns no module applies)
                modules = self._module_actions(units) if kept is None else kept
        # an activated subroutine needs an own unit with a status or one waiting in the Hangar
        subroutines = (self._subroutine_actions() if phase <= SUB and game.activated_slots[side]
                       and units >> SQUAD_UNITS & STATUSED_OR_WAITING else ())
        if modules or subroutines:
            return [*modules, *subroutines, *moves] if moves else [*modules, *subroutines, PASS_ACTION]
        return moves if moves else [PASS_ACTION]  # no move is possible (only after a module or subroutine)

    def _begin_turn(self) -> None:
        """Start of a turn: Wait bookkeeping, Frozen's turn count, repetition, then System Lockout."""
        player = self.player
        game = self.game
        rules = game.rules
        wait, status = self.wait, self.status
        blocked = 0
        if wait != ALL_ZERO:
            counted = game.side_units[player] if rules.wait_counts == "owner_turns" else range(len(wait))
            for slot in counted:
                if wait[slot] > 0:
                    blocked |= 1 << slot
        self.blocked = blocked
        thawing = game.thawing_codes
        if thawing and status != ALL_ZERO:  # most turns no unit has a status: skip the loop
            pos = self.pos
            for slot in game.side_units[player]:
                if status[slot] and status[slot] in thawing and pos[slot] >= 0:
                    self.counter[slot] += 1
        self.phase = START
        self.tfx = NO_TURN_FX
        self.moved = -1
        self.battled = ()
        self.battle = None
        self.spin = None
        self._legal = self._moves = None  # derived from the position, which changed (or was arranged by hand)
        key = self._key = self._history_key()
        if self._flags & SHARED:
            self.history = dict(self.history)
            self._unhashed = self._unhashed[:]
            self._flags &= ~SHARED
        history = self.history
        seen = history[key] = history.get(key, 0) + 1
        self._unhashed.append(key)
        if seen >= rules.repetition_limit:
            self._finish(DRAW, REPETITION)
            return
        if rules.lockout == "off":
            return
        if self._flags & LOOKAHEAD:  # a look ahead may never ask for the moves: list them only when unsure
            if not self._surely_moves() and not self.turn_moves().actions:
                self._finish(1 - player, LOCKOUT)  # modules are not counted
            return
        moves = self._moves = self._compute_moves()  # the state a game is played on: its player asks next
        if moves[0]:  # its actions
            self._legal = self._turn_actions(START)
        else:
            self._finish(1 - player, LOCKOUT)

    def _end_turn(self) -> None:
        """End of the turn: chimera Poison spins for units that did not battle, then the next turn."""
        if self.result is not None:
            return
        status = self.status
        spinning = self.game.end_spin_codes
        if not spinning or status == ALL_ZERO:  # most turns: no status to spin
            self._finish_turn()
            return
        pos, battled = self.pos, self.battled
        queue: tuple[int, ...] = ()
        for slot in self.units_of(self.player):  # a loop: no comprehension's frame on a turn that has none to spin
            if status[slot] and status[slot] in spinning and pos[slot] >= 0 and slot not in battled:
                queue += (slot,)
        self.queue = queue
        if queue:
            self._next_queued()
        else:  # most turns with a status: nobody of the side to move spins
            self._finish_turn()

    def _next_queued(self) -> None:
        if self.queue:
            slot, self.queue = self.queue[0], self.queue[1:]
            if self.pos[slot] >= 0:
                self._start_spin(SPIN_POISON, slot)
                return
            self._next_queued()
            return
        self._finish_turn()

    def _finish_turn(self) -> None:
        player = self.player
        rules = self.game.rules
        status = self.status
        thawing = self.game.thawing_codes
        for slot in self.units_of(player) if thawing and status != ALL_ZERO else ():  # most turns no unit has a status
            if not status[slot] or status[slot] not in thawing:
                continue
            turns = effects.thaw_turns(self.status_rule(slot))
            if turns is not None and self.pos[slot] >= 0 and self.counter[slot] >= turns:
                status[slot] = 0
                self.counter[slot] = 0
        if self.blocked:
            wait = self.wait
            for slot in bits(self.blocked):
                if wait[slot] > 0:
                    wait[slot] -= 1
        self.turn += 1
        self.player = 1 - player
        self.decider = self.player
        if self.turn >= rules.turn_limit:
            self._finish(self._turn_limit_winner(), TURN_LIMIT)
            return
        self._begin_turn()

    def _turn_limit_winner(self) -> int:
        if self.game.rules.turn_limit_result == "draw":
            return DRAW
        left = [sum(1 for s in self.units_of(side) if self.pos[s] not in (BAY, REMOVED)) for side in (A, B)]
        return DRAW if left[0] == left[1] else (A if left[0] > left[1] else B)

    def _apply_pass(self) -> None:
        phase = self.phase
        if phase == RESPIN_PHASE:
            self._battle_continue()
        elif phase in (UPGRADE_PHASE, CHOICE_PHASE):
            self.pending = None
            self.decider = self.player
            self._end_turn()
        else:
            self._end_turn()

    def position_key(self) -> tuple[int, ...]:
        """What makes two positions the same for repetition (with the same player to move): a flat tuple of ints."""
        head, rest = self.history_key()
        return unpack_key(head + rest)

    def history_key(self) -> HistoryKey:
        """`position_key()` packed as the history keeps it (little-endian 64-bit ints, in two parts: `HistoryKey`):
        equal keys, equal bytes."""
        key = self._key
        return key if key is not None else self._history_key()

    def _history_key(self) -> HistoryKey:
        """Packed in two parts: the player and the positions, which change every turn, then the rest (statuses,
        counters, Wait, forms, knock-outs, modules, subroutines, the Repair Bays, lasting losses), which changes
        on few turns: its bytes are kept with a copy of the values they were packed from and reused while the
        values are equal. Compared, not tracked, so a write from anywhere (a hand-built position too) shows."""
        rest = (self.status, self.counter, self.wait, self.form, self.kos, self.used, self.subs, self.bay,
                self.segmod)
        kept = self._rest
        if kept is None or kept[0] != rest:
            kept = self._rest = self._pack_rest(rest)
        return (self.game.key_head.pack(self.player, *self.pos), kept[1])

    @staticmethod
    def _pack_rest(rest: RestFields) -> tuple[RestFields, bytes]:
        """The rest of the key (see `_history_key`) packed, with a copy of the values it was packed from."""
        status, counter, wait, form, kos, used, subs, bay, segmod = rest
        bay_a, bay_b = bay
        values = (*status, *counter, *wait, *form, *kos, *used, subs, len(bay_a), *bay_a, len(bay_b), *bay_b)
        if any(segmod):
            values += tuple(itertools.chain.from_iterable([(len(m), *m) for m in segmod]))  # a list: no generator
        copied = (status.copy(), counter.copy(), wait.copy(), form.copy(), kos.copy(), used.copy(), subs,
                  bay.copy(), segmod.copy())
        return copied, _packer(len(values)).pack(*values)


def _packer(count: int) -> struct.Struct:
    """`count` little-endian 64-bit ints: the same bytes on every machine."""
    packer = _PACKERS.get(count)
    if packer is None:
        packer = _PACKERS[count] = struct.Struct(f"<{count}q")
    return packer
