"""What each step of a game did, in words, for people playing along on the paper kit (`duelkit play`).

A spin is told with its number 1-96 (the number on the printed Data Disk and the d10 table), the segment
it landed on and every bonus behind a damage or star value (an aura's +20, a module's +30, a status's
-20). A battle's result is told in words (who beat whom, a knockout, a Purple effect, a wash, a draw, a
confused unit hitting itself), and so is everything a step changed on the board: a unit Deactivated or
surrounded, pushed or swapped to another point, a status gained or lost, an upgrade. The changes are
read by comparing the state before and after the step, so nothing here repeats a rule of the engine.
"""

from __future__ import annotations

from toolkit.figure.constants import SQUAD_UNITS
from toolkit.figure.engine import effects
from toolkit.figure.engine.actions import ATTACK, MOVE, Action
from toolkit.figure.engine.render_text import node_label, safe, tag, unit_name
from toolkit.figure.engine.state import SPIN_BATTLE, SPIN_CONFUSION, SPIN_POISON, SPIN_WAKE, GameState
from toolkit.figure.engine.tables import BAY, HANGAR, REMOVED
from toolkit.figure.model import Color, Segment
from toolkit.figure.rules.combat import Outcome, resolve

SPIN_WHY = {SPIN_BATTLE: "battle", SPIN_CONFUSION: "confusion check", SPIN_WAKE: "wake-up", SPIN_POISON: "end of turn"}


def segment_text(state: GameState, segment: Segment) -> str:
    """'Strike, White 50' / 'Hex, Purple **' / 'Dodge, Blue' in the theme's colour words."""
    color = safe(state.game.theme.colors[segment.color], 30)
    value = f" {segment.damage}" if segment.damage is not None else (
        f" {'*' * segment.stars}" if segment.stars else "")
    return f"{safe(segment.move, 40)}, {color}{value}"


def bonuses(state: GameState, slot: int, index: int, segment: Segment) -> str:
    """The parts behind a battle spin's damage or stars, against the printed disk: ' (printed 50, +20 Hydro
    Boost aura)'; '' when the value is the printed one."""
    printed = state.form_of(slot).disk[index]
    game = state.game
    terms = game.theme.terms
    side = slot // SQUAD_UNITS
    dmg_slot, dmg, star_slot, stars = state.tfx[:4]
    parts: list[str] = []
    if segment.damage is not None and printed.damage is not None:
        known = 0
        if dmg_slot == slot and dmg:
            parts.append(f"{dmg:+d} {_module_named(state, side, 'damage_bonus', terms.module)}")
            known += dmg
        rule = state.status_rule(slot)
        if rule is not None and rule.damage_modifier:
            parts.append(f"{rule.damage_modifier:+d} {safe(game.theme.statuses.get(rule.id, rule.id), 30)}")
            known += rule.damage_modifier
        lasting = state.segmod[slot][index] if state.segmod[slot] else 0
        if lasting:
            parts.append(f"{lasting:+d} lasting")
            known += lasting
        aura = segment.damage - printed.damage - known
        if segment.damage > 0 and aura:
            parts.append(f"{aura:+d} {_aura_names(state, slot)}")
        elif segment.damage == 0 and printed.damage + known < 0:
            parts.append("never below 0")
        return f" (printed {printed.damage}, {', '.join(parts)})" if parts else ""
    if segment.stars is not None and printed.stars is not None and star_slot == slot and stars:
        name = _module_named(state, side, "star_bonus", terms.module)
        return f" (printed {'*' * printed.stars}, +{stars} {'star' if stars == 1 else 'stars'} {name})"
    return ""


def _module_named(state: GameState, side: int, kind: str, word: str) -> str:
    """The spent module of this kind (the turn's bonus came from one of them), or the theme's word."""
    names = [safe(m.name, 40) for i, m in enumerate(state.game.modules[side])
             if m.effect.kind == kind and state.used[side] >> i & 1]
    return names[0] if len(names) == 1 else word


def _aura_names(state: GameState, slot: int) -> str:
    """'Hydro Boost aura': the damage subroutines of the unit's own side on the field (the amount is the engine's)."""
    names = []
    for source, form, _ in state.game.auras[slot // SQUAD_UNITS]:
        unit = state.game.slots[source].forms[form].unit
        if state.form[source] == form and state.pos[source] >= 0 and unit.subroutine is not None:
            names.append(safe(unit.subroutine.name, 40))
    return (" + ".join(dict.fromkeys(names)) + " aura") if names else "aura"


class Narrator:
    """Tells a game step by step; keeps the battle's spins seen so far to tell its result."""

    def __init__(self) -> None:
        self.spun: dict[int, Segment] = {}
        self.cancelled = False

    def step(self, before: GameState, step: Action | int, after: GameState, number: int | None = None) -> list[str]:
        """Lines for one step: `before` is a copy of the state the step was applied to, `after` the state now.
        `number` is the spin's 1-96 number at a chance node."""
        lines: list[str] = []
        if isinstance(step, Action) and step.kind == ATTACK:
            self.spun = {}
            self.cancelled = False
        if not isinstance(step, Action):
            lines += self._spin(before, step, number)
        if before.battle is not None and after.battle is None and not self.cancelled:
            lines.append(self._battle_result(before))
        lines += changes(before, step, after)
        return lines

    def _spin(self, state: GameState, outcome: int, number: int | None) -> list[str]:
        reason, slot = state.spin  # type: ignore[misc]
        segment = state._spin_table().segments[outcome]
        shown = f"spin {number}" if number is not None else "spin"
        text = f"  {shown} ({unit_name(state, slot)}, {SPIN_WHY[reason]}): {segment_text(state, segment)}"
        if reason == SPIN_BATTLE:
            self.spun[slot] = segment
            text += bonuses(state, slot, outcome, segment)
        elif reason == SPIN_CONFUSION:
            if effects.self_hit(segment):
                self.cancelled = True
                text += bonuses(state, slot, outcome, segment)
                text += f": {tag(slot)} is confused and hits itself; the battle is cancelled"
            else:
                text += f": no self-hit, {tag(slot)} battles"
        elif reason == SPIN_WAKE:
            text += ": it wakes up" if effects.wake_spin_succeeds(segment) else ": it stays asleep"
        else:  # chimera Poison: a White/Gold result loses damage for good
            loss = effects.end_of_turn_spin_modifier(state.status_rule(slot))
            if loss and segment.color.deals_damage:
                text += f": that segment loses {-loss} damage for good"
        return [text]

    def _battle_result(self, before: GameState) -> str:
        att, dfn = before.battle[0], before.battle[1]  # type: ignore[index]
        miss = before.game.miss_segment
        a_seg, d_seg = self.spun.get(att, miss), self.spun.get(dfn, miss)
        winner = resolve(a_seg, d_seg)
        if winner is Outcome.DRAW:
            return f"  battle: {tag(att)} and {tag(dfn)} draw; nothing happens"
        win, lose, w_seg, l_seg = (att, dfn, a_seg, d_seg) if winner is Outcome.ATTACKER else (dfn, att, d_seg, a_seg)
        beats = f"  battle: {tag(win)}'s {safe(w_seg.move, 40)} beats {tag(lose)}'s {safe(l_seg.move, 40)}"
        if w_seg.color.deals_damage:
            return f"{beats}: a knockout"
        if w_seg.color is Color.PURPLE:
            said = f": the Purple effect applies{': ' + safe(w_seg.effect, 120) if w_seg.effect else ''}"
            return beats + said
        return f"{beats}: a wash, nothing happens"


def changes(before: GameState, step: Action | int, after: GameState) -> list[str]:
    """What the step changed besides the move itself: Deactivations, placements, statuses, upgrades."""
    game = after.game
    terms = game.theme.terms
    statuses = game.theme.statuses
    moved = step.unit if isinstance(step, Action) and step.kind == MOVE else -1
    lines = []
    for slot in range(len(after.pos)):
        was, now = before.pos[slot], after.pos[slot]
        name = unit_name(after, slot)
        if was >= 0 and now == BAY:
            how = "is Deactivated" if before.battle is not None else "is surrounded and Deactivated"
            lines.append(f"  {name} {how}: to the {terms.repair_bay}")
        elif was >= 0 and now == REMOVED:
            lines.append(f"  {name} is Deactivated and removed from the duel")
        elif was == BAY and now == HANGAR:
            lines.append(f"  {name} is pushed out of the {terms.repair_bay} to the {terms.hangar} "
                         f"({terms.wait} {after.wait[slot]})")
        elif was >= 0 and now >= 0 and was != now and slot != moved:
            lines.append(f"  {name} goes from {node_label(game, was)} to {node_label(game, now)}")
        if now >= 0 and was >= 0 and before.status[slot] != after.status[slot]:
            old, new = before.status_rule(slot), after.status_rule(slot)
            if old is not None:
                lines.append(f"  {name} is no longer under {safe(statuses.get(old.id, old.id), 30)}")
            if new is not None:
                lines.append(f"  {name} now has {safe(statuses.get(new.id, new.id), 30)}")
        if after.form[slot] > before.form[slot] and now >= 0:
            lines.append(f"  {tag(slot)} upgrades to {safe(after.form_of(slot).unit.id, 40)}")
    return lines
