"""Placement: where units may move and deploy this turn (per-node step tables, each unit's Reach), the
move itself, goal capture, surrounds (the switch `surround_order`), the Repair Bay (first in, first out, a
push-out waits in the Hangar: Wait) and the placements a Purple move or a swap chooses."""

from __future__ import annotations

from toolkit.figure.constants import DEPLOY_COST_MP, FIRST_TURN_MP_PENALTY, REPAIR_BAY_CAPACITY, SQUAD_UNITS, WAIT_TURNS
from toolkit.figure.engine import effects
from toolkit.figure.engine.actions import Action
from toolkit.figure.engine.core import ALL_ZERO, BATTLE, GOAL, LOOSE, MOVE_PHASE, NO_MOVES, StateCore, TurnMoves
from toolkit.figure.engine.tables import BAY, HANGAR, REMOVED, REMOVED_FROM_DUEL, WAY_PATTERN_LIMIT, Reach, bits
from toolkit.figure.model import MoveAllyEffect, MoveSelfEffect, PushOpponentEffect


class Placement(StateCore):
    """Moves, deploys, surrounds, the Repair Bay and Wait."""

    __slots__ = ()

    def destinations(self, slot: int) -> list[int]:
        """Sorted nodes this unit may move to (or deploy to) now, ignoring whose turn it is."""
        found = self._destination_mask(slot, self._passable_mask(slot // SQUAD_UNITS))
        return [n for n in range(len(self.occ)) if found >> n & 1]

    def _passable_mask(self, side: int) -> int:
        """Nodes a unit of `side` may move through: free nodes and passable opposing units (Standby Mode)."""
        masks = self.masks
        free = self.game.full_mask & ~(masks[0] | masks[1])
        passable_codes = self.game.passable_codes
        if passable_codes and masks[1 - side] and any(self.status):
            status, pos = self.status, self.pos
            for s in self.game.side_units[1 - side]:
                if status[s] and status[s] in passable_codes and pos[s] >= 0:  # most units have no status
                    free |= 1 << pos[s]
        return free

    def _destination_mask(self, slot: int, passable: int) -> int:
        pos = self.pos[slot]
        game = self.game
        masks = self.masks
        free = game.full_mask & ~(masks[0] | masks[1])
        if pos == HANGAR:
            if self.wait[slot] > 0:
                return 0
            mp = self.effective_mp(slot) - DEPLOY_COST_MP
            if mp < 0:
                return 0
            found = 0
            for entry in game.entries[slot // SQUAD_UNITS]:
                bit = 1 << entry
                if free & bit:
                    found |= bit
                    if mp > 0:
                        found |= game.reach_mask(entry, mp, passable)
            return found & free
        if pos < 0 or not effects.can_be_selected_to_move(game.status_rules[self.status[slot]]):
            return 0
        if self.tfx[4] == slot:
            passable = game.full_mask  # a move-through module: every node may be passed
        return game.reach_mask(pos, self.effective_mp(slot), passable) & free

    def surrounded(self, slot: int) -> bool:
        """Every node next to this unit holds an opposing unit."""
        return not self.game.nbr_mask[self.pos[slot]] & ~self.masks[1 - slot // SQUAD_UNITS]

    def adjacent_enemies(self, slot: int) -> list[int]:
        """The opposing units next to this one, sorted (asked at every battle decision: one loop, no calls)."""
        near = self.game.nbr_mask[self.pos[slot]] & self.masks[1 - slot // SQUAD_UNITS]
        occ = self.occ
        found = []
        while near:
            low = near & -near
            found.append(occ[low.bit_length() - 1])
            near ^= low
        found.sort()
        return found

    def _compute_moves(self) -> TurnMoves:
        """MOVE actions in (unit, node) order, then WAKE actions (the hot path of every turn): each unit's
        destinations from its node's way (one mask AND and one lookup), its Reach looked up by that mask.
        The same pass notes which units a module may apply to (`TurnMoves.units`)."""
        side = self.player
        game = self.game
        masks = self.masks
        free = game.full_mask & ~(masks[0] | masks[1])
        status = self.status
        passable = (self._passable_mask(side) if game.passable_codes and masks[1 - side] and status != ALL_ZERO
                    else free)
        shut = ~passable  # nodes a move cannot pass through
        pos, form = self.pos, self.form
        tfx = self.tfx
        bonus = tfx[5] - FIRST_TURN_MP_PENALTY if self.turn == 0 else tfx[5]
        through = tfx[4]
        slot_ways = game.slot_ways.get(bonus) or game.make_slot_ways(bonus)
        reaches_of = game._reaches
        actions: list[Action] = []
        wakes: list[Action] | None = None  # lists made only when needed: fewer objects, fewer collections
        reaches: list[Reach] = []
        deploy_mp = deployed = -1  # the last deploy's MP and destinations: Hangar units of a side share them
        field = statused = waiting = stuck = 0
        for bit, slot in game.unit_bits[side]:
            where = pos[slot]
            if where >= 0:
                field |= bit
                if status[slot]:
                    statused |= bit
                    rule = game.status_rules[status[slot]]
                    if effects.wakes_by_spin(rule):
                        wakes = [*(wakes or ()), game.wake_actions[slot]]
                    if not effects.can_be_selected_to_move(rule):
                        stuck |= bit
                        continue
                way = slot_ways[slot][form[slot]][where]
                if way is None or slot == through:  # too long a move for a table, or a move-through module
                    found = self._unusual_move(slot, where, bonus, passable) & free
                else:
                    got = way[1].get(way[0] & shut)
                    if got is None:
                        got = game.learn(where, max(game.move_mp_floor, game.mp[slot][form[slot]] + bonus),
                                         way[0] & shut)
                    found = got & free
            elif where == HANGAR:
                if self.wait[slot] > 0:
                    waiting |= bit
                    continue
                mp = game.mp[slot][form[slot]] + bonus
                if mp != deploy_mp:
                    deploy_mp = mp
                    deployed = self._deploy_mask(max(game.move_mp_floor, mp) - DEPLOY_COST_MP, passable, free)
                found = deployed
            else:
                continue
            reach = reaches_of[slot].get(found) or game.reach_of(slot, found)
            actions += reach[1]  # its actions (an index: a NamedTuple's field by name is a slower look-up)
            reaches.append(reach)
        units = ((field << SQUAD_UNITS | statused) << SQUAD_UNITS | waiting) << SQUAD_UNITS | field & ~stuck
        # TurnMoves(...) without its Python-level __new__: this runs every turn
        return tuple.__new__(TurnMoves, (actions + wakes if wakes else actions, reaches, units))

    def _unusual_move(self, slot: int, where: int, bonus: int, passable: int) -> int:
        """The nodes a field unit reaches (the caller keeps the free ones) on a turn its move-through module lets
        it pass every node, or with too long a move for a step table (a search)."""
        game = self.game
        mp = max(game.move_mp_floor, game.mp[slot][self.form[slot]] + bonus)
        return game.reach_mask(where, mp, game.full_mask if slot == self.tfx[4] else passable)

    def _deploy_mask(self, steps: int, passable: int, free: int) -> int:
        """Where a Hangar unit of the side to move may deploy: a free own entry, then up to `steps` more steps
        (none when it cannot pay the deploy's MP: a 1 MP unit on the first turn). Read from the side's deploy
        way (its entries' ways joined) when only free nodes may be passed, as on most turns."""
        if steps < 0:
            return 0
        game = self.game
        if passable == free:
            ways = game._deploy_ways[self.player]
            need, known = ways[steps] if steps < len(ways) else game.deploy_way(self.player, steps)
            shut = need & ~free
            found = known.get(shut)
            if found is None:
                if len(known) > WAY_PATTERN_LIMIT:
                    known.clear()
                found = known[shut] = self._deploy_reach(steps, passable, free)
            return found & free
        return self._deploy_reach(steps, passable, free) & free

    def _deploy_reach(self, steps: int, passable: int, free: int) -> int:
        """The free entries and the nodes within `steps` of them (occupied ones too: the caller keeps free ones)."""
        game = self.game
        found = 0
        for entry in game.entries[self.player]:
            bit = 1 << entry
            if free & bit:
                found |= bit
                if steps > 0:
                    found |= game.reach_mask(entry, steps, passable)
        return found

    def _surely_moves(self) -> bool:
        """A quick test that is True only when the side to move has a move: a unit that may move next to a free
        node, or a ready Hangar unit and a free entry (False: list the moves to know)."""
        game = self.game
        masks = self.masks
        free = game.full_mask & ~(masks[0] | masks[1])
        side = self.player
        pos, status, nbr = self.pos, self.status, game.nbr_mask
        # every unit has the MP for a step and a deploy (past the first turn, as a rule): no MP to work out
        any_mp = game.surely_mp[self.turn == 0] if self.tfx[5] == 0 else False
        own = masks[side]
        if own and any_mp:  # most turns: the unit on the side's lowest node has a free node next to it
            node = (own & -own).bit_length() - 1
            if nbr[node] & free and not status[self.occ[node]]:
                return True
        for slot in game.side_units[side]:
            where = pos[slot]
            if where >= 0:
                if (nbr[where] & free
                        and (not status[slot] or effects.can_be_selected_to_move(game.status_rules[status[slot]]))
                        and (any_mp or self.effective_mp(slot) >= 1)):
                    return True
            elif (where == HANGAR and self.wait[slot] <= 0 and free & game.entry_balls[side][0]
                  and (any_mp or self.effective_mp(slot) >= DEPLOY_COST_MP)):
                return True
        return False

    def _apply_move(self, slot: int, dest: int) -> None:
        side = self.player  # a move is always of the mover's own unit
        pos, occ, masks = self.pos, self.occ, self.masks
        start = pos[slot]
        if start >= 0:  # lift and put, inline: the hot path of every turn
            occ[start] = -1
            masks[side] = masks[side] & ~(1 << start) | 1 << dest
        else:
            masks[side] |= 1 << dest
        pos[slot] = dest
        occ[dest] = slot
        self.moved = slot
        self.phase = MOVE_PHASE
        game = self.game
        if dest == game.goals[1 - side]:
            self._finish(side, GOAL)
            return
        if self._flags & LOOSE:
            self._after_placement(side, goal=False)  # the move's goal was checked above; a unit pushed onto
        else:                                        # the enemy goal by the opponent never wins by standing there
            near = game.nbr_mask[dest]
            if near and not near & masks[1 - side]:  # no enemy next to dest: nobody to surround or battle
                self._end_turn()
                return
            self._surround_after_move(slot, dest)
        if self.result is not None:
            return
        if (pos[slot] >= 0 and game.nbr_mask[dest] & masks[1 - side]
                and (not self.status[slot] or effects.can_initiate_attack(self.status_rule(slot)))):
            self.phase = BATTLE
        else:
            self._end_turn()

    def _surround_after_move(self, slot: int, dest: int) -> None:
        """`_after_placement`'s surrounds when no unit stood surrounded before this move (not `_loose`): only
        the enemies next to `dest` and the unit that moved can be surrounded now (the move freed its start
        node and took `dest`; nothing else changed), so only they are looked at."""
        side = slot // SQUAD_UNITS
        masks, nbr = self.masks, self.game.nbr_mask
        near = nbr[dest] & masks[1 - side]
        enemies: list[int] = []
        if near:  # one loop over the mask (no comprehension, no `bits` list): every move next to an enemy
            own, occ = masks[side], self.occ
            while near:
                low = near & -near
                node = low.bit_length() - 1
                if not nbr[node] & ~own:
                    enemies.append(occ[node])
                near ^= low
            enemies.sort()
        if self.game.rules.surround_order == "enemies_first":
            for enemy in enemies:
                self._deactivate(enemy)
            if not nbr[dest] & ~masks[1 - side]:
                self._deactivate(slot)
        else:  # simultaneous: both read before anyone is removed
            mover_closed = not nbr[dest] & ~masks[1 - side]
            for enemy in enemies:
                self._deactivate(enemy)
            if mover_closed:
                self._deactivate(slot)

    def _after_placement(self, actor: int, goal: bool = True) -> None:
        """Goal capture by placement when the switch `goal_capture_by` allows it (the game ends at once, before
        any surround; not after a plain move, whose goal is its destination), then surrounds (the switch
        `surround_order`)."""
        if goal:
            self._goal_by_placement(actor)
            if self.result is not None:
                return
        self._flags &= ~LOOSE  # every surrounded unit is removed now
        if self.game.rules.surround_order == "enemies_first":
            for side in (1 - actor, actor):
                for slot in self._surrounded_units(side):
                    self._deactivate(slot)
        else:
            for slot in self._surrounded_units(1 - actor) + self._surrounded_units(actor):
                self._deactivate(slot)

    def _after_moved_by_effect(self, actor: int) -> None:
        """After a swap or a Purple placement: everything `_after_placement` checks when `surround_after` is
        any_position_change; otherwise the goal alone (at once: the placing action is the one that captures),
        and the next surround check looks at every unit, since the effect may have closed a surround nobody
        checked."""
        if self.game.rules.surround_after == "any_position_change":
            self._after_placement(actor)
            return
        self._goal_by_placement(actor)
        self._flags |= LOOSE

    def _goal_by_placement(self, actor: int) -> None:
        """A unit placed on the enemy goal by a swap or a Purple move: by default (owner_action) it wins when
        `actor`, whose action placed it, owns it; with any_placement, whoever placed it."""
        ruling = self.game.rules.goal_capture_by
        if ruling == "owner_action":
            occupant = self.occ[self.game.goals[1 - actor]]
            if occupant >= 0 and occupant // SQUAD_UNITS == actor:
                self._finish(actor, GOAL)
        elif ruling == "any_placement":
            for side in (actor, 1 - actor):
                occupant = self.occ[self.game.goals[1 - side]]
                if occupant >= 0 and occupant // SQUAD_UNITS == side:
                    self._finish(side, GOAL)
                    return

    def _surrounded_units(self, side: int) -> list[int]:
        """Units of `side` whose every neighbour node holds an opposing unit (one snapshot), in slot order."""
        enemy = self.masks[1 - side]
        if enemy.bit_count() < self.game.min_degree:  # too few opposing units to close any node
            return []
        game = self.game
        open_nodes = game.full_mask & ~enemy  # nodes not held by an opposing unit
        near_open = 0  # the nodes next to an open node, a byte of the mask at a time
        for shift, halos in game.halo_bytes:
            near_open |= halos[open_nodes >> shift & 255]
        closed = self.masks[side] & ~near_open
        if not closed:
            return []
        occ = self.occ
        return sorted([occ[node] for node in bits(closed)])

    def _deactivate(self, slot: int) -> None:
        """To the Repair Bay (first in, first out; a push-out returns to the Hangar with Wait), or out of the duel."""
        self._lift(slot)
        removed = self.game.sub_kinds[slot][self.form[slot]] == REMOVED_FROM_DUEL
        self.status[slot] = 0
        self.counter[slot] = 0
        self.segmod[slot] = ()
        if self.game.rules.reset_form_on_deactivation:
            self.form[slot] = 0
        if removed:
            self.pos[slot] = REMOVED
            return
        side = slot // SQUAD_UNITS
        bay = self.bay[side] + (slot,)
        while len(bay) > REPAIR_BAY_CAPACITY:
            out, bay = bay[0], bay[1:]
            self.pos[out] = HANGAR
            self.wait[out] = WAIT_TURNS
        self.bay[side] = bay
        self.pos[slot] = BAY

    def _apply_choice(self, slot: int, node: int) -> None:
        """A Purple move's placement: the chosen unit goes to the chosen free node."""
        actor = self.decider
        self.pending = None
        self._lift(slot)
        self._put(slot, node)
        self._after_moved_by_effect(actor)
        self.decider = self.player
        self._end_turn()

    def _placement_options(self, effect: PushOpponentEffect | MoveSelfEffect | MoveAllyEffect, winner: int,
                           loser: int) -> list[tuple[int, int]]:
        """(unit, free node) pairs a push, a move of the winner or a move of an ally may choose from."""
        game = self.game
        free = game.full_mask & ~(self.masks[0] | self.masks[1])
        options: list[tuple[int, int]] = []
        if isinstance(effect, PushOpponentEffect):
            targets = self.adjacent_enemies(winner) if effect.any_adjacent else [loser]
            for target in targets:
                if self.pos[target] >= 0 and not self._immovable(target):
                    options += [(target, n) for n in bits(game.nbr_mask[self.pos[target]] & free)]
        elif isinstance(effect, MoveSelfEffect):
            if not self._owner_may_move(winner):
                return []
            if effect.beside_opponent:
                if self.pos[loser] >= 0:
                    options = [(winner, n) for n in bits(game.nbr_mask[self.pos[loser]] & free)]
            else:
                start = self.pos[winner]
                found = game.reach_mask(start, effect.steps, free) & free
                if effect.exact:
                    found &= ~game.reach_mask(start, effect.steps - 1, free)
                options = [(winner, n) for n in bits(found)]
        else:
            for ally in self.units_of(winner // SQUAD_UNITS):
                if ally == winner or self.pos[ally] < 0 or not self._owner_may_move(ally):
                    continue
                if effect.types and not game.form_types[ally][self.form[ally]].intersection(effect.types):
                    continue
                options += [(ally, n) for n in bits(game.reach_mask(self.pos[ally], effect.steps, free) & free)]
        return options

    def turn_moves(self) -> TurnMoves:
        """The moves of the side to move as actions and per unit (none outside the phases START to MOVE_PHASE)."""
        moves = self._moves
        if moves is None:
            moves = self._moves = self._compute_moves() if self.phase <= MOVE_PHASE else NO_MOVES
        return moves
