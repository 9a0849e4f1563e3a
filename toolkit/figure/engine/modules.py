"""Strategic Modules and activated subroutines: which may be played now (tables built once per game,
indexed by the units a module may apply to) and what playing one does."""

from __future__ import annotations

from toolkit.figure.constants import SQUAD_UNITS
from toolkit.figure.engine.actions import SUBROUTINE, Action
from toolkit.figure.engine.core import MOVE_PHASE, SUB, TurnMoves
from toolkit.figure.engine.placement import Placement
from toolkit.figure.engine.tables import HANGAR, MODULE_KEY_SHIFT, bits
from toolkit.figure.model import ClearAdjacentStatusEffect, ClearHangarWaitEffect


class Modules(Placement):
    """Modules (the Module Phase) and activated subroutines (once per duel)."""

    __slots__ = ()

    def _module_actions(self, units: int) -> tuple[Action, ...]:
        """The modules the side may play, for `units` (the unit sets `TurnMoves.units` packs): kept per (spent
        modules, the unit sets those left read) in one int, as the same few recur all game."""
        side = self.player
        kinds = self.game.module_kinds[side]
        used = self.used[side]
        if used == (1 << len(kinds)) - 1:
            return ()
        key = used << MODULE_KEY_SHIFT | units & self.game.module_units[side][used]  # only the sets its modules read
        listed = self.game.module_lists[side].get(key)
        if listed is None:
            mask = (1 << SQUAD_UNITS) - 1
            targets = [units >> (3 - kind) * SQUAD_UNITS & mask for kind in range(4)]  # FIELD_UNITS, ... in order
            actions: list[Action] = []
            choices = self.game.module_choices[side]
            for index, target in enumerate(self.game.module_targets[side]):
                if not used >> index & 1:
                    actions += choices[index][targets[target]]  # the actions for those units, built once per game
            listed = self.game.module_lists[side][key] = tuple(actions)
        return listed

    def _subroutine_actions(self) -> list[Action]:
        """Activated subroutines (once per duel) of own field units: clear an adjacent ally's status, or
        clear a Hangar unit's Wait."""
        game = self.game
        side = self.player
        actions: list[Action] = []
        if self.subs & game.activated_bits[side] == game.activated_bits[side]:
            return actions  # each spent already (once per duel)
        pos, status, wait = self.pos, self.status, self.wait
        for slot in game.activated_slots[side]:
            if pos[slot] < 0 or self.subs >> slot & 1:
                continue
            kind = game.sub_kinds[slot][self.form[slot]]
            if kind == "clear_adjacent_status":
                near = game.nbr_mask[pos[slot]] & self.masks[side]  # the allies next to it
                if near and any(status):
                    occ = self.occ
                    actions += [Action(SUBROUTINE, slot, s) for s in sorted([occ[node] for node in bits(near)])
                                if status[s]]
            elif kind == "clear_hangar_wait" and any(wait):
                actions += [Action(SUBROUTINE, slot, s) for s in self.units_of(side)
                            if wait[s] > 0 and pos[s] == HANGAR]
        return actions

    def _apply_module(self, index: int, first: int, second: int, moves: TurnMoves | None = None) -> None:
        """Play a module. `moves`, the turn's moves listed before it, are kept when the module changes no unit's
        place, status, MP or passage (a damage or star bonus, a committed re-spin): the subroutine phase and the
        move that follow list the same moves."""
        side = self.player
        self.used[side] |= 1 << index
        self.phase = SUB
        kind = self.game.module_kinds[side][index]
        amount = self.game.module_amounts[side][index]
        dmg_slot, dmg, star_slot, stars, through, extra, respin = self.tfx
        if kind == "damage_bonus":
            self.tfx = (first, amount, star_slot, stars, through, extra, respin)
            self._moves = moves
        elif kind == "star_bonus":
            self.tfx = (dmg_slot, dmg, first, amount, through, extra, respin)
            self._moves = moves
        elif kind == "move_through":
            self.tfx = (dmg_slot, dmg, star_slot, stars, first, extra, respin)
        elif kind == "extra_mp":
            self.tfx = (dmg_slot, dmg, star_slot, stars, through, amount, respin)
        elif kind == "respin":  # committed now (specs 000 2.3, 001 1.3): spun after this turn's battle spins
            self.tfx = (dmg_slot, dmg, star_slot, stars, through, extra, index)
            self._moves = moves
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
            self._after_moved_by_effect(side)

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
