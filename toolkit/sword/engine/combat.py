"""Combat Resolution of spec 002: totals, initiative, evades, simultaneous damage, steals and gains.

`resolve_combat` works on a `Turn`, the engine's mutable scratch for one turn; the engine docstring
lists the rulings applied here.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from toolkit.players import Player
from toolkit.sword import constants
from toolkit.sword.model import Technique
from toolkit.sword.rules.effects import (
    View,
    adjust,
    counted,
    holding,
    holds,
    immune_to_steal,
    initiative,
    is_momentum_based,
    of_kind,
    protected,
)
from toolkit.sword.rules.positions import Move, Range
from toolkit.sword.rules.state import Action, Choice, PlayerState, Resource


@dataclass(slots=True)
class Combatant:
    """One player's working values during a turn (never leaves the engine)."""

    player: Player
    choice: Choice
    technique: Technique
    seat: int  # player.seat, kept here: the engine reads it many times a turn
    kinds: dict[str, tuple[Any, ...]]  # the technique's effects by kind (effects.kinds), looked up once
    attacking: bool = False  # played Attack and the range allows it
    defending: bool = False  # played Defend and the range allows it
    attack: int = 0  # Attack Total
    defense: int = 0  # Defense Total
    bypass_defense: bool = False
    evaded: bool = False
    counter: int = 0  # damage dealt back by a successful evade


@dataclass(slots=True)
class Turn:
    """The scratch state of the turn being resolved: players change in place, the log grows."""

    players: list[PlayerState]
    sides: tuple[Combatant, Combatant]  # indexed by Player.seat
    distance: Range
    entered_close: bool
    log: list[str] | None = field(default_factory=list)  # None: nobody reads the events (a lookahead)

    def view(self, seat: int) -> View:
        """One seat's side of the table as it is now."""
        foe = self.sides[1 - seat]
        return View(self.players[seat], self.players[1 - seat], self.distance, self.sides[seat].choice.move,
                    self.entered_close, foe.attack if foe.attacking else 0)

    def active(self, side: Combatant, kind: str) -> list[Any]:
        """The side's effects of one kind that hold now (its view is built only when the technique has some)."""
        effects = side.kinds.get(kind)
        return holding(effects, self.view(side.seat)) if effects else []

    def foe(self, side: Combatant) -> Combatant:
        """The other player's working values."""
        return self.sides[1 - side.seat]

    def name(self, player: Player) -> str:
        return self.players[player.seat].name

    def change(self, player: Player, resource: Resource, delta: int) -> int:
        """Change a player's resource within 0..cap; returns how much it actually changed."""
        i = 0 if player is Player.A else 1
        before: int = getattr(self.players[i], resource)
        self.players[i] = adjust(self.players[i], self.sides[i].technique, resource, delta)
        after: int = getattr(self.players[i], resource)
        return after - before


@dataclass(frozen=True, slots=True)
class EvadePlan:
    """The outcome of one evade attempt, decided before anything is paid."""

    ok: bool
    text: str
    resource: Resource | None = None
    cost: int = 0
    gain: tuple[tuple[Resource, int], ...] = ()
    counter: int = 0


def resolve_combat(turn: Turn) -> None:
    """Reveal, totals, evades in initiative order, simultaneous damage, then steals and gains."""
    log = turn.log
    if log is not None:
        for side in turn.sides:
            if side.attacking or side.defending:
                log.append(f"{turn.name(side.player)} reveals {side.technique.name}.")
    spends = _totals(turn)
    for side, resources in zip(turn.sides, spends, strict=True):
        for resource in resources:
            spent = -turn.change(side.player, resource, -getattr(turn.players[side.seat], resource))
            if log is not None:
                log.append(f"{turn.name(side.player)} spends all {spent} {resource} ({side.technique.name}).")
    _resolve_evades(turn)
    hits = _deal_damage(turn)
    _after_hits(turn, hits)


def _totals(turn: Turn) -> list[list[Resource]]:
    """Set both Attack Totals, then both Defense Totals, all from the resources before any spending;
    return what each side's bonuses spend."""
    attacks = [_attack(turn, side) if side.attacking else None for side in turn.sides]  # neither sees the other's
    spends: list[list[Resource]] = [[], []]
    log = turn.log
    for side, attack in zip(turn.sides, attacks, strict=True):
        if attack is not None:
            side.attack, parts, spends[side.seat] = attack
            side.bypass_defense = _bypasses_defense(turn, side)
            if log is not None:
                bypass = ", ignores Defense" if side.bypass_defense else ""
                log.append(f"{turn.name(side.player)} Attack Total {side.attack} ({', '.join(parts)}){bypass}.")
    for side in turn.sides:
        if turn.foe(side).attacking:
            side.defense, parts, more = _defense(turn, side)
            spends[side.seat] += more
            if log is not None:
                log.append(f"{turn.name(side.player)} Defense Total {side.defense} ({', '.join(parts)}).")
    return spends


def _technique_bonus(turn: Turn, side: Combatant, kind: str) -> tuple[int, list[Resource]]:
    """An attack_bonus or defense_bonus total of the played technique, and the resources it spends."""
    effects = turn.active(side, kind)
    if not effects:
        return 0, []
    view = turn.view(side.seat)
    halved = bool(turn.active(turn.foe(side), "halve_opponent_momentum_bonus"))
    total, spends = 0, []
    for effect in effects:
        value = effect.amount * (counted(effect.per, view) if effect.per else 1)
        value = value if effect.max is None else min(value, effect.max)
        if halved and is_momentum_based(effect):
            value //= 2
        total += value
        if effect.spend and effect.per in ("momentum", "balance"):
            spends.append(effect.per)
    return total, spends


def _attack(turn: Turn, side: Combatant) -> tuple[int, list[str], list[Resource]]:
    """Attack Total = Strength + position bonuses (Advance, Close Combat) + technique bonuses."""
    strength = turn.players[side.seat].attributes.strength
    total, parts = strength, [f"Strength {strength}"]
    if side.choice.move is Move.ADVANCE:
        total += constants.ADVANCE_ATTACK_BONUS
        parts.append(f"Advance +{constants.ADVANCE_ATTACK_BONUS}")
    if turn.distance is Range.CLOSE:
        total += constants.CLOSE_ATTACK_BONUS
        parts.append(f"Close Combat +{constants.CLOSE_ATTACK_BONUS}")
    bonus, spends = _technique_bonus(turn, side, "attack_bonus")
    if bonus or spends:
        total += bonus
        parts.append(f"{side.technique.name} +{bonus}")
    return total, parts, spends


def _bypasses_defense(turn: Turn, side: Combatant) -> bool:
    """Whether the side's attack ignores Defense (Ai-Uchi; Tsubame Gaeshi at Close with 3 Momentum)."""
    target = turn.foe(side).technique
    return any(not protected(target, effect) for effect in turn.active(side, "bypass_defense"))


def _defense(turn: Turn, side: Combatant) -> tuple[int, list[str], list[Resource]]:
    """Defense Total: 0 for an Insight player or one who cannot defend, else Defense + bonuses."""
    player = turn.players[side.seat]
    if side.choice.action is Action.INSIGHT:
        return 0, ["defenseless while gaining Insight"], []
    if turn.active(side, "cannot_defend"):
        return 0, [f"cannot defend with {side.technique.name}"], []
    total, parts = player.attributes.defense, [f"Defense {player.attributes.defense}"]
    if side.choice.move is Move.RETREAT:
        total += constants.RETREAT_DEFENSE_BONUS
        parts.append(f"Retreat +{constants.RETREAT_DEFENSE_BONUS}")
    spends: list[Resource] = []
    if side.defending:
        bonus, spends = _technique_bonus(turn, side, "defense_bonus")
        if bonus or spends:
            total += bonus
            parts.append(f"{side.technique.name} +{bonus}")
    return total, parts, spends


def _resolve_evades(turn: Turn) -> None:
    """Evades in initiative order; on a full tie both are decided before either pays."""
    targets = [side for side in turn.sides if turn.foe(side).attacking]
    if not any(side.choice.evade for side in targets):
        return
    keys = [initiative(player) for player in turn.players]
    if turn.log is not None:
        turn.log.append("Initiative: " + ", ".join(
            f"{turn.name(side.player)} {key[0]} (Speed {key[1]} + Balance {key[0] - key[1]})"
            for side, key in zip(turn.sides, keys, strict=True)) + ".")
    targets.sort(key=lambda side: keys[side.seat], reverse=True)
    if len(targets) == 2 and keys[0] == keys[1]:
        groups = [targets]
        if turn.log is not None:
            turn.log.append("Initiative tied on Speed too: evades resolve simultaneously.")
    else:
        groups = [[side] for side in targets]
    for group in groups:
        plans = [(side, _plan_evade(turn, side)) for side in group]
        for side, plan in plans:
            _apply_evade(turn, side, plan)


def _evade_terms(technique: Technique, choice: Choice,
                 view: View) -> tuple[Resource | Literal["either"] | None, int, int, dict[Resource, int]] | str:
    """(resource or 'either' or None for free, amount, counter, gains) of the chosen evade, or why not."""
    if choice.special_evade:
        special = of_kind(technique, "special_evade")[0]
        if not holds(special.when, view):
            return "its special evade's condition is not met"
        return special.resource, special.amount, special.counter, {}
    rule = technique.evade
    if rule.cannot:
        return f"{technique.name} cannot evade"
    if not holds(rule.when, view):
        return f"{technique.name} cannot evade here"
    if rule.free_when is not None and holds(rule.free_when, view):
        return None, 0, rule.counter, dict(rule.gain)
    if rule.resource is None or rule.amount is None:
        return f"{technique.name}'s free evade's condition is not met"
    amount = view.foe.momentum if rule.amount == "opponent_momentum" else rule.amount
    return rule.resource, amount, rule.counter, dict(rule.gain)


def _plan_evade(turn: Turn, side: Combatant) -> EvadePlan | None:
    """Decide one declared evade against the resources as they are now (nothing is paid here)."""
    if not side.choice.evade:
        return None
    attacker = turn.foe(side)
    me = turn.players[side.seat]
    terms = _evade_terms(side.technique, side.choice, turn.view(side.seat))
    if isinstance(terms, str):
        return EvadePlan(False, terms)
    declared, amount, counter, gain = terms
    surcharge = sum(effect.amount for effect in of_kind(attacker.technique, "evade_surcharge"))
    if surcharge:
        amount += surcharge
        declared = declared or "either"
    resource: Resource | None
    if declared == "either":
        resource = side.choice.evade_with or ("momentum" if me.momentum >= amount else "balance")
    else:
        resource = declared
    for bypass in turn.active(attacker, "bypass_evade"):
        if bypass.paid_with in (None, resource) and not protected(side.technique, bypass):
            return EvadePlan(False, f"the evade is bypassed by {attacker.technique.name}")
    if resource is not None and getattr(me, resource) < amount:
        return EvadePlan(False, f"cannot pay {amount} {resource} (has {getattr(me, resource)})")
    text = "for free" if resource is None or amount == 0 else f"paying {amount} {resource}"
    return EvadePlan(True, text, resource, amount, tuple(gain.items()), counter)


def _apply_evade(turn: Turn, side: Combatant, plan: EvadePlan | None) -> None:
    """Pay for a planned evade and take its gains; log failures too."""
    if plan is None:
        return
    log = turn.log
    if not plan.ok:
        if log is not None:
            log.append(f"{turn.name(side.player)} tries to evade with {side.technique.name}, but {plan.text}.")
        return
    if plan.resource is not None:
        turn.change(side.player, plan.resource, -plan.cost)
    gains = [f"gains {turn.change(side.player, resource, amount)} {resource}" for resource, amount in plan.gain]
    side.evaded, side.counter = True, plan.counter
    if log is not None:
        extra = "".join(f", {text}" for text in gains)
        log.append(f"{turn.name(side.player)} evades with {side.technique.name} {plan.text}{extra}.")


def _deal_damage(turn: Turn) -> list[int]:
    """Apply attacks and counters at once; return the damage each player's attack dealt."""
    taken, hits = [0, 0], [0, 0]
    log = turn.log
    for attacker in turn.sides:
        target = turn.foe(attacker)
        if not attacker.attacking:
            continue
        if target.evaded:
            if log is not None:
                log.append(f"{turn.name(attacker.player)}'s attack is evaded.")
        else:
            base = 0 if attacker.bypass_defense else target.defense
            hits[attacker.seat] = max(0, attacker.attack - base)
            taken[target.seat] += hits[attacker.seat]
            if log is not None:
                log.append(f"{turn.name(attacker.player)} hits for {hits[attacker.seat]}.")
        if target.counter:
            taken[attacker.seat] += target.counter
            if log is not None:
                log.append(f"{turn.name(target.player)} counters for {target.counter}.")
        if target.defending:
            counter = _defend_counter(turn, target)
            if counter:
                taken[attacker.seat] += counter
                if log is not None:
                    log.append(f"{turn.name(target.player)} strikes back while defending for {counter}.")
    _take(turn, taken)
    return hits


def _take(turn: Turn, taken: list[int]) -> None:
    """Both players lose the Health they took, at once (never below 0)."""
    log = turn.log
    for index, damage in enumerate(taken):
        if not damage:
            continue
        player = turn.players[index]
        turn.players[index] = PlayerState(player.role, player.attributes, player.techniques, player.momentum,
                                          player.balance, max(0, player.health - damage), player.knows)
        if log is not None:
            log.append(f"{player.name} takes {damage} damage ({turn.players[index].health} Health left).")


def _defend_counter(turn: Turn, side: Combatant) -> int:
    """Koboichi: damage dealt to the attacker by a player who plays Defend."""
    defense = turn.players[side.seat].attributes.defense
    total = 0
    for effect in turn.active(side, "counter_on_defend"):
        if effect.amount is not None:
            total += effect.amount
        elif effect.defense_divisor is not None:
            total += defense // effect.defense_divisor
    return total


def _after_hits(turn: Turn, hits: list[int]) -> None:
    """Steals by attackers that dealt damage, and gains for Defense that prevented damage."""
    log = turn.log
    for attacker in turn.sides:
        target = turn.foe(attacker)
        if hits[attacker.seat] > 0:
            for steal in turn.active(attacker, "steal_on_hit"):
                if immune_to_steal(target.technique, steal.resource):
                    if log is not None:
                        log.append(f"{turn.name(target.player)} is immune to {steal.resource} steals "
                                   f"({target.technique.name}).")
                    continue
                taken = -turn.change(target.player, steal.resource, -steal.amount)
                kept = turn.change(attacker.player, steal.resource, taken)
                if log is not None:
                    log.append(f"{turn.name(attacker.player)} steals {taken} {steal.resource} (keeps {kept}).")
        if attacker.attacking and target.defending and not target.evaded and not attacker.bypass_defense:
            prevented = min(attacker.attack, target.defense)
            for gain in turn.active(target, "gain_prevented"):
                got = turn.change(target.player, gain.resource, min(prevented, gain.max))
                if log is not None:
                    log.append(f"{turn.name(target.player)} gains {got} {gain.resource} from {prevented} "
                               "damage prevented.")
