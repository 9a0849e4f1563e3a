"""Strategic Modules and activated subroutines: which may be played now (tables built once per game,
indexed by the units a module may apply to) and what playing one does."""

from __future__ import annotations

from toolkit.figure.constants import SQUAD_UNITS
from toolkit.figure.engine.actions import SUBROUTINE, Action
from toolkit.figure.engine.core import MOVE_PHASE, SUB
from toolkit.figure.engine.placement import Placement
from toolkit.figure.engine.tables import HANGAR
from toolkit.figure.model import ClearAdjacentStatusEffect, ClearHangarWaitEffect


class Modules(Placement):
    """Modules (the Module Phase) and activated subroutines (once per duel)."""

    __slots__ = ()

    def _module_actions(self) -> list[Action]:
        side = self.player
        kinds = self.game.module_kinds[side]
        used = self.used[side]
        if used == (1 << len(kinds)) - 1:
            return []
        targets = self._module_target_sets(side)
        field, statused, waiting, movable = targets
        key = ((((used << SQUAD_UNITS | field) << SQUAD_UNITS | statused) << SQUAD_UNITS | waiting)
               << SQUAD_UNITS | movable)  # the spent modules and the unit sets, as one int
        listed = self.game.module_lists[side].get(key)
        if listed is None:
            actions: list[Action] = []
            choices = self.game.module_choices[side]
            for index, target in enumerate(self.game.module_targets[side]):
                if not used >> index & 1:
                    actions += choices[index][targets[target]]  # the actions for those units, built once per game
            listed = self.game.module_lists[side][key] = tuple(actions)
        return list(listed)

    def _module_target_sets(self, side: int) -> tuple[int, int, int, int]:
        """The side's units a module may apply to, as bit sets (bit i: the side's unit i): on the field, on the
        field with a status, waiting in the Hangar, on the field and movable by their owner (the order of
        tables.FIELD_UNITS, ...)."""
        pos, wait = self.pos, self.wait
        field = waiting = 0
        for bit, slot in self.game.unit_bits[side]:
            where = pos[slot]
            if where >= 0:
                field |= bit
            elif where == HANGAR and wait[slot] > 0:
                waiting |= bit
        if not any(self.status):  # most turns: no status, so every field unit may be moved by its owner
            return field, 0, waiting, field
        status = self.status
        statused = movable = 0
        for bit, slot in self.game.unit_bits[side]:
            if field & bit:
                if not status[slot]:
                    movable |= bit  # no status: nothing keeps its owner from moving it
                else:
                    statused |= bit
                    if self._owner_may_move(slot):
                        movable |= bit
        return field, statused, waiting, movable

    def _subroutine_actions(self) -> list[Action]:
        """Activated subroutines (once per duel) of own field units: clear an adjacent ally's status, or
        clear a Hangar unit's Wait."""
        game = self.game
        side = self.player
        actions: list[Action] = []
        pos, status, wait = self.pos, self.status, self.wait
        for slot in game.activated_slots[side]:
            if pos[slot] < 0 or self.subs >> slot & 1:
                continue
            kind = game.sub_kinds[slot][self.form[slot]]
            if kind == "clear_adjacent_status":
                if not any(status):
                    continue
                near = game.nbr_mask[pos[slot]]
                actions += [Action(SUBROUTINE, slot, s) for s in self.units_of(side)
                            if status[s] and pos[s] >= 0 and near >> pos[s] & 1]
            elif kind == "clear_hangar_wait":
                if not any(wait):
                    continue
                actions += [Action(SUBROUTINE, slot, s) for s in self.units_of(side)
                            if wait[s] > 0 and pos[s] == HANGAR]
        return actions

    def _apply_module(self, index: int, first: int, second: int) -> None:
        side = self.player
        self.used[side] |= 1 << index
        self.phase = SUB
        kind = self.game.module_kinds[side][index]
        amount = self.game.module_amounts[side][index]
        dmg_slot, dmg, star_slot, stars, through, extra, respin = self.tfx
        if kind == "damage_bonus":
            self.tfx = (first, amount, star_slot, stars, through, extra, respin)
        elif kind == "star_bonus":
            self.tfx = (dmg_slot, dmg, first, amount, through, extra, respin)
        elif kind == "move_through":
            self.tfx = (dmg_slot, dmg, star_slot, stars, first, extra, respin)
        elif kind == "extra_mp":
            self.tfx = (dmg_slot, dmg, star_slot, stars, through, amount, respin)
        elif kind == "respin":  # committed now (specs 000 2.3, 001 1.3): spun after this turn's battle spins
            self.tfx = (dmg_slot, dmg, star_slot, stars, through, extra, index)
        elif kind == "clear_status":
            self.status[first] = 0
            self.counter[first] = 0
        elif kind == "clear_wait":
            self.wait[first] = 0
            self.blocked &= ~(1 << first)
        elif kind == "swap_units":
            a, b = self.pos[first], self.pos[second]
            self._put(first, b)
            self._put(second, a)
            if self.game.rules.surround_after == "any_position_change":
                self._after_placement(side)
            else:
                self._loose = True  # the swap may have closed a surround that nobody checked

    def _apply_subroutine(self, slot: int, target: int) -> None:
        self.subs |= 1 << slot
        effect = self.game.slots[slot].forms[self.form[slot]].sub
        assert isinstance(effect, ClearAdjacentStatusEffect | ClearHangarWaitEffect)  # only these are activated
        if effect.kind == "clear_adjacent_status":
            self.status[target] = 0
            self.counter[target] = 0
        else:  # clear_hangar_wait
            self.wait[target] = 0
            self.blocked &= ~(1 << target)
        if effect.ends_turn:
            self._end_turn()
        else:
            self.phase = MOVE_PHASE
