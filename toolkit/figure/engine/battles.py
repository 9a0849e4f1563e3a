"""Battles and spins: self-hit spins, the two battle spins, the committed re-spin, Table 2.1 through
`rules.combat.resolve`, what the winning colour does (a Deactivation, a status, a Purple move's placement),
upgrades, and the chance nodes' spin tables (status, module and subroutine bonuses, lasting losses)."""

from __future__ import annotations

from toolkit.figure.constants import SQUAD_UNITS
from toolkit.figure.engine import effects
from toolkit.figure.engine.actions import CHOOSE, RESPIN, Action
from toolkit.figure.engine.core import (
    CHOICE_PHASE,
    MISS,
    PASS_ACTION,
    RESPIN_PHASE,
    SELF_HIT,
    SPIN_BATTLE,
    SPIN_CONFUSION,
    SPIN_WAKE,
    UPGRADE_PHASE,
)
from toolkit.figure.engine.modules import Modules
from toolkit.figure.engine.tables import SpinTable
from toolkit.figure.model import BoardEffect, Color, MoveAllyEffect, Segment, SwapWithOpponentEffect
from toolkit.figure.rules.combat import Outcome


class Battles(Modules):
    """Battles, their spins, upgrades and Purple placements."""

    __slots__ = ()

    def _spin_table(self) -> SpinTable:
        reason, slot = self.spin  # type: ignore[misc]
        if reason in (SPIN_CONFUSION, SPIN_BATTLE):
            return self._battle_table(slot)
        return self.game.spin_table(slot, self.form[slot], self.status[slot], 0, 0, self.segmod[slot])

    def _battle_table(self, slot: int) -> SpinTable:
        """The disk this unit spins in this battle: status, this turn's module bonuses, lasting losses."""
        tfx = self.tfx
        game = self.game
        damage = tfx[1] if tfx[0] == slot else 0
        if game.auras[slot // SQUAD_UNITS]:
            damage += self._subroutine_damage(slot)
        stars = tfx[3] if tfx[2] == slot else 0
        status, segmod = self.status[slot], self.segmod[slot]
        if damage or stars or status or segmod:
            return game.spin_table(slot, self.form[slot], status, damage, stars, segmod)
        return game.plain_tables[slot][self.form[slot]]  # most spins: the form's own disk

    def _subroutine_damage(self, slot: int) -> int:
        """Damage auras of own field units (type_damage_bonus) on this unit: they depend on the unit's types and
        place, never on the opponent (the spin-table cache is keyed without it)."""
        auras = self.game.auras[slot // SQUAD_UNITS]
        if not auras:
            return 0
        total = 0
        types = self.game.form_types[slot][self.form[slot]]
        for source, form, effect in auras:
            if self.form[source] != form or self.pos[source] < 0 or (effect.others_only and source == slot):
                continue
            if not types.intersection(effect.types):
                continue
            adjacent = self.game.nbr_mask[self.pos[source]] >> self.pos[slot] & 1
            total += effect.adjacent_amount if adjacent and effect.adjacent_amount else effect.amount
        return total

    def _takes_part(self, slot: int) -> bool:
        return self.status[slot] not in self.game.sitting_out_codes

    def _start_battle(self, attacker: int, defender: int) -> None:
        self.battled = (attacker, defender)
        if self.game.rules.attacked_sleeper_spins and effects.cured_when_attacked(self.status_rule(defender)):
            self.status[defender] = 0  # the switch: cured as the attack starts, so it spins normally
            self.counter[defender] = 0
        # (attacker, defender, attacker segment, defender segment, step)
        self.battle = (attacker, defender, MISS, MISS, 0)
        self._battle_continue()

    def _battle_continue(self) -> None:
        """Walk the battle's steps: self-hit spins, the two battle spins, re-spin offers, resolution."""
        att, dfn, aseg, dseg, step = self.battle  # type: ignore[misc]
        order = (dfn, att) if self.game.rules.both_confused == "defender_first" else (att, dfn)
        while True:
            if step == 2 and SELF_HIT in (aseg, dseg):  # independent self-hit spins: both are in
                self._end_by_self_hits(((att, aseg), (dfn, dseg)))
                return
            if step < 2:
                who = order[step]
                step += 1
                if self.status[who] in self.game.confused_codes:  # confused and taking part
                    self.battle = (att, dfn, aseg, dseg, step)
                    self._start_spin(SPIN_CONFUSION, who)
                    return
            elif step == 2:
                step = 3
                if self._takes_part(att):
                    self.battle = (att, dfn, aseg, dseg, step)
                    self._start_spin(SPIN_BATTLE, att)
                    return
            elif step == 3:
                step = 4
                if self._takes_part(dfn):
                    self.battle = (att, dfn, aseg, dseg, step)
                    self._start_spin(SPIN_BATTLE, dfn)
                    return
            elif step == 4:
                step = 5
                if self.tfx[6] >= 0 and self._takes_part(att):  # a re-spin committed in the Module Phase
                    self.battle = (att, dfn, aseg, dseg, step)
                    self.decider = att // SQUAD_UNITS
                    self.phase = RESPIN_PHASE
                    return
            else:
                self.battle = (att, dfn, aseg, dseg, step)
                self.decider = self.player
                self._resolve_battle()
                return

    def _end_by_self_hits(self, spun: tuple[tuple[int, int], ...]) -> None:
        """The battle is cancelled: every confused unit that hit itself is Deactivated."""
        for slot, segment in spun:
            if segment == SELF_HIT:
                self._deactivate(slot)
        self._end_turn()

    def _respin_actions(self) -> list[Action]:
        """The re-spin of the module committed in this turn's Module Phase, for the attacker."""
        return [Action(RESPIN, self.tfx[6], self.battle[0])]  # type: ignore[index]

    def _apply_respin(self, slot: int) -> None:
        """The committed module's one re-spin (already spent when committed); the second result is final."""
        self.tfx = (*self.tfx[:6], -1)
        self.decider = self.player
        self._start_spin(SPIN_BATTLE, slot)

    def _apply_spin(self, outcome: int) -> None:
        """The spin lands on segment `outcome` (a battle spin only notes it: the battle reads it when resolved)."""
        reason, slot = self.spin  # type: ignore[misc]
        if reason == SPIN_BATTLE:
            self.spin = None
            att, dfn, aseg, dseg, step = self.battle  # type: ignore[misc]
            if slot == att:
                aseg = outcome
            else:
                dseg = outcome
            self.battle = (att, dfn, aseg, dseg, step)
            self._battle_continue()
            return
        table = self._spin_table()
        segment = table.segments[outcome]
        self.spin = None
        if reason == SPIN_CONFUSION:
            if not effects.self_hit(segment):
                self._battle_continue()
            elif self.game.rules.both_confused == "independent":
                att, dfn, aseg, dseg, step = self.battle  # type: ignore[misc]
                self.battle = (att, dfn, SELF_HIT if slot == att else aseg, SELF_HIT if slot == dfn else dseg, step)
                self._battle_continue()
            else:
                self._deactivate(slot)
                self._end_turn()
        elif reason == SPIN_WAKE:
            if effects.wake_spin_succeeds(segment):
                self.status[slot] = 0
            self._end_turn()
        else:  # SPIN_POISON
            modifier = effects.end_of_turn_spin_modifier(self.status_rule(slot))
            if segment.color.deals_damage and modifier:
                mods = list(self.segmod[slot] or (0,) * len(table.segments))
                mods[outcome] = max(-1000, mods[outcome] + modifier)
                self.segmod[slot] = tuple(mods)
            self._next_queued()

    def _segment(self, slot: int, index: int) -> Segment:
        if index == MISS:
            return self.game.miss_segment
        return self._battle_table(slot).segments[index]

    def _resolve_battle(self) -> None:
        """Table 2.1 through `toolkit.figure.rules.combat.resolve`, then what the winning colour does."""
        att, dfn, aseg, dseg, _ = self.battle  # type: ignore[misc]
        a_seg, d_seg = self._segment(att, aseg), self._segment(dfn, dseg)
        winner = self.game.resolve(a_seg, d_seg)
        if effects.cured_when_attacked(self.status_rule(dfn)):
            self.status[dfn] = 0  # 'the effect is cured if the unit is attacked' (after counting as a Miss)
            self.counter[dfn] = 0
        self.battle = None
        if winner is Outcome.ATTACKER:
            self._winning_move(att, dfn, a_seg)
        elif winner is Outcome.DEFENDER:
            self._winning_move(dfn, att, d_seg)
        else:
            self._end_turn()

    def _winning_move(self, winner: int, loser: int, segment: Segment) -> None:
        color = segment.color
        if color.deals_damage:
            self._deactivate(loser)
            self.kos[winner] += 1
            if self._upgrade_offered(winner):
                self.pending = winner
                self.decider = winner // SQUAD_UNITS
                self.phase = UPGRADE_PHASE
                return
        elif color is Color.PURPLE:
            if segment.inflicts and self.pos[loser] >= 0:
                self.status[loser] = self.game.status_codes[segment.inflicts]
                self.counter[loser] = 0
            if segment.board_effect is not None and self.pos[winner] >= 0:
                self._board_effect(segment.board_effect, winner, loser)
                return
        self._end_turn()

    def _board_effect(self, effect: BoardEffect, winner: int, loser: int) -> None:
        """A winning Purple move that moves units: swap at once, or offer the winner's owner the choices."""
        side = winner // SQUAD_UNITS
        if isinstance(effect, SwapWithOpponentEffect):
            if self.pos[loser] >= 0 and not self._immovable(loser):
                a, b = self.pos[winner], self.pos[loser]
                self._put(winner, b)
                self._put(loser, a)
                self._after_moved_by_effect(side)
            self._end_turn()
            return
        options = self._placement_options(effect, winner, loser)
        if not options:
            self._end_turn()
            return
        self.pending = (tuple(sorted(options)), isinstance(effect, MoveAllyEffect))  # moving an ally is optional
        self.decider = side
        self.phase = CHOICE_PHASE

    def _choice_actions(self) -> list[Action]:
        assert isinstance(self.pending, tuple)  # (the (unit, node) options, whether passing is allowed)
        options, optional = self.pending
        choices = [Action(CHOOSE, s, n) for s, n in options]
        return [PASS_ACTION, *choices] if optional else choices

    def _upgrade_offered(self, slot: int) -> bool:
        return (self.game.rules.upgrade_offer != "never" and self.pos[slot] >= 0
                and self.form[slot] + 1 < len(self.game.slots[slot].forms))

    def _apply_upgrade(self, slot: int) -> None:
        self.form[slot] += 1
        self.segmod[slot] = ()  # lasting per-segment losses belonged to the old disk
        self.pending = None
        self.decider = self.player
        self._end_turn()
