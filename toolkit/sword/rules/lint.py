"""The sword-duel design linter: rules that contradict the core rules, can never trigger, cost more
than a player can ever hold, or reach values the printed components cannot show. Pure: it reads
techniques and returns findings; positions are added by the loader.

Findings are derived from the engine's own data (caps, evade costs, conditions, protections), not from
a list of card names, so a designer's new technique is linted the same way as the samples.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from toolkit.sword import constants
from toolkit.sword.model import Condition, EvadeCost, Technique
from toolkit.sword.rules.effects import cap, initiative_bounds, of_kind, protected
from toolkit.sword.rules.positions import Move
from toolkit.sword.rules.state import Resource


def base_retreat_loss() -> int:
    """How much Momentum Retreat loses under the core rules."""
    return -constants.MOVE_RESOURCES[Move.RETREAT.value]["momentum"]


RESOURCES: tuple[Resource, ...] = ("momentum", "balance")
# condition fields that need a resource level, and the resource they read
THRESHOLDS: tuple[tuple[str, Resource], ...] = (
    ("momentum_at_least", "momentum"), ("balance_at_least", "balance"),
    ("momentum_exactly", "momentum"), ("balance_exactly", "balance"))
# The draft: remove 1; Challenger picks 1; Defender picks 1, discards 2; Challenger picks 1, discards 1;
# Defender picks 1 and discards the rest. Cards taken before the last "rest":
DRAFT_STEPS_NEED = 1 + 1 + 1 + 2 + 1 + 1 + 1


@dataclass(frozen=True)
class LintFinding:
    code: str
    technique: str  # technique id
    message: str
    effect: int | None = None  # index into effects, None for the evade rule or the whole card
    on_evade: bool = False
    hint: str = ""


@dataclass(frozen=True)
class EvadeOption:
    """One way a technique can evade, as the engine prices it (`combat._evade_terms`, `_plan_evade`)."""

    label: str  # "Nagashi's special evade"
    resource: str | None  # "momentum", "balance", "either", or None for a free evade
    cost: int  # the lowest cost (a cost read from the opponent, like Sen Sen no Sen's, can be 0)
    holdable: dict[str, int] = field(default_factory=dict)  # the most of each resource held when it applies

    def payable(self, surcharge: int = 0, limits: dict[str, int] | None = None) -> bool:
        """Can it ever be paid, with the attacker's surcharge and with the evader's resources limited?
        A surcharge on a free evade costs that much of either resource (engine ruling 9)."""
        resource, cost = self.resource, self.cost + surcharge
        if resource is None and surcharge:
            resource = "either"
        if resource is None:
            return True
        limits = limits or {}
        return any(cost <= min(self.holdable[r], limits.get(r, self.holdable[r])) for r in self.resources(resource))

    @staticmethod
    def resources(resource: str | None) -> tuple[str, ...]:
        return RESOURCES if resource == "either" else () if resource is None else (resource,)


def _holdable(technique: Technique, *conditions: Condition | None) -> dict[str, int]:
    """The most of each resource a player of this technique can hold while all the conditions hold."""
    most: dict[str, int] = {r: cap(technique, r) for r in RESOURCES}
    for condition in conditions:
        if condition is None:
            continue
        for r in RESOURCES:
            exactly = getattr(condition, f"{r}_exactly")
            if exactly is not None:
                most[r] = min(most[r], exactly)
    return most


def evade_options(technique: Technique) -> list[EvadeOption]:
    """Every way the technique can evade: its evade rule (paid or free) and its special evades."""
    rule: EvadeCost = technique.evade
    found: list[EvadeOption] = []
    if not rule.cannot:
        if rule.free_when is not None:
            found.append(EvadeOption(f"{technique.name}'s free evade", None, 0,
                                     _holdable(technique, rule.when, rule.free_when)))
        if rule.resource is not None and rule.amount is not None:
            cost = 0 if rule.amount == "opponent_momentum" else rule.amount
            found.append(EvadeOption(f"{technique.name}'s evade", rule.resource, cost,
                                     _holdable(technique, rule.when)))
    for special in of_kind(technique, "special_evade"):
        found.append(EvadeOption(f"{technique.name}'s special evade", special.resource, special.amount,
                                 _holdable(technique, special.when)))
    return found


def _condition_findings(technique: Technique, condition: Condition, where: str, effect: int | None,
                        on_evade: bool = False) -> list[LintFinding]:
    findings = []
    for key, resource in THRESHOLDS:
        value = getattr(condition, key)
        if value is not None and value > cap(technique, resource):
            findings.append(LintFinding(
                "L002", technique.id, f"{technique.name}: {where} needs {resource.title()} {value}, but it is "
                f"capped at {cap(technique, resource)}: the rule can never apply", effect, on_evade,
                "lower the threshold or raise the cap"))
    return findings


def _evade_findings(technique: Technique) -> list[LintFinding]:
    evade: EvadeCost = technique.evade
    findings: list[LintFinding] = []
    if evade.cannot and (evade.resource or evade.amount is not None or evade.free_when or evade.counter):
        findings.append(LintFinding("L004", technique.id, f"{technique.name}: the card cannot evade, yet its evade "
                                    "rule has a cost, a counter or a free condition", None, True,
                                    "remove either `cannot` or the cost"))
    if isinstance(evade.amount, int) and evade.resource in ("momentum", "balance"):
        limit = cap(technique, evade.resource)
        if evade.amount > limit:
            findings.append(LintFinding(
                "L002", technique.id, f"{technique.name}: its evade costs {evade.amount} "
                f"{evade.resource.title()}, but {evade.resource.title()} is capped at {limit}: it can never be paid",
                None, True, f"make the evade cost at most {limit}, or let this card raise the cap"))
    findings += _condition_findings(technique, evade.when, "its evade", None, True)
    if evade.free_when is not None:
        findings += _condition_findings(technique, evade.free_when, "its free evade", None, True)
    return findings


def _initiative_findings(technique: Technique) -> list[LintFinding]:
    """Initiative is Speed + Balance; the printed tokens must show every value it can take."""
    lowest, highest = initiative_bounds(technique)
    low_token, high_token = min(constants.INITIATIVE_TOKENS), max(constants.INITIATIVE_TOKENS)
    if low_token <= lowest and highest <= high_token:
        return []
    raising = [i for i, e in enumerate(technique.effects) if e.kind == "raise_cap" and e.resource == "balance"]
    return [LintFinding(
        "L003", technique.id, f"{technique.name}: Initiative (Speed + Balance) can reach {constants.ATTRIBUTE_MAX} + "
        f"{cap(technique, 'balance')} = {highest}, but spec 002's initiative tokens go {low_token}-{high_token}",
        raising[0] if raising else None, False,
        f"duelkit's kit prints tokens up to the highest value the drafted techniques allow ({highest} here); a "
        f"kit made to the spec's list needs them too, or a Balance cap of {high_token - constants.ATTRIBUTE_MAX}")]


def lint_technique(technique: Technique) -> list[LintFinding]:
    findings = _evade_findings(technique) + _initiative_findings(technique)
    for index, effect in enumerate(technique.effects):
        if effect.kind == "retreat_momentum_loss" and effect.amount >= base_retreat_loss():
            findings.append(LintFinding(
                "L001", technique.id,
                f"{technique.name}: 'when Retreating, lose only {effect.amount} Momentum instead of all' changes "
                f"nothing: the core rules already make Retreat lose {base_retreat_loss()} Momentum, not all "
                "(the card and the rules contradict each other)", index, False,
                "decide which is meant: make Retreat lose all Momentum in the core rules, or give the card "
                "another special"))
        when = getattr(effect, "when", None)
        if isinstance(when, Condition):
            findings += _condition_findings(technique, when, f"effect {index + 1} ({effect.kind})", index)
    return findings


def lint_draft(techniques: Sequence[Technique]) -> list[LintFinding]:
    """Findings between the cards of one draft deck (two players can meet with any pair)."""
    findings: list[LintFinding] = []
    for card in techniques:
        others = [other for other in techniques if other.id != card.id]
        findings += _surcharge_findings(card, others) + _dead_bypass_findings(card, others)
    return findings


def _surcharge(technique: Technique) -> int:
    return sum(effect.amount for effect in of_kind(technique, "evade_surcharge"))


def _surcharge_findings(card: Technique, others: Sequence[Technique]) -> list[LintFinding]:
    """Evades that can be paid, but never with this card's surcharge added (every evade option counts:
    paid, free and special)."""
    findings = []
    for index, effect in enumerate(card.effects):
        if effect.kind != "evade_surcharge":
            continue
        victims = [option.label for other in others for option in evade_options(other)
                   if option.payable() and not option.payable(effect.amount)]
        if victims:
            findings.append(LintFinding(
                "L002", card.id, f"{card.name}: its +{effect.amount} evade surcharge makes these evades "
                f"impossible to pay against it under the caps: {', '.join(victims)}", index,
                False, "intended? then say so on the card; otherwise cap the surcharge"))
    return findings


def _opponent_limits(card: Technique, when: Condition) -> dict[str, int]:
    """The most the opponent can hold while this card's condition holds ("your Balance exceeds the
    opponent's Momentum by n" leaves the opponent at most cap - n Momentum)."""
    exceed = when.balance_exceeds_opponent_momentum_by
    return {} if exceed is None else {"momentum": cap(card, "balance") - exceed}


def _bypass_matters(card: Technique, bypass: Any, option: EvadeOption, limits: dict[str, int]) -> bool:
    """Could this bypass ever stop this evade that would otherwise be paid?"""
    surcharge = _surcharge(card)
    resource = option.resource if option.resource is not None or not surcharge else "either"
    if resource is None:  # a free evade: only a bypass of every evade stops it
        return bypass.paid_with is None
    covered = [r for r in EvadeOption.resources(resource) if bypass.paid_with in (None, r)]
    cost = option.cost + surcharge
    return any(cost <= min(option.holdable[r], limits.get(r, option.holdable[r])) for r in covered)


def _dead_bypass_findings(card: Technique, others: Sequence[Technique]) -> list[LintFinding]:
    """A bypass whose condition leaves the opponent too poor to pay any evade it bypasses: dead rule."""
    findings = []
    for index, effect in enumerate(card.effects):
        if effect.kind != "bypass_evade" or not others:
            continue
        limits = _opponent_limits(card, effect.when)
        exposed = [other for other in others if not protected(other, effect)]
        if any(_bypass_matters(card, effect, option, limits) for other in exposed for option in evade_options(other)):
            continue
        what = f"{effect.paid_with.title()}-paid evades" if effect.paid_with else "evades"
        costs = [f"{option.label} {option.cost + _surcharge(card)}" for other in exposed
                 for option in evade_options(other)
                 if set(EvadeOption.resources(option.resource)) & ({effect.paid_with} if effect.paid_with
                                                                  else set(RESOURCES))]
        shielded = [other.name for other in others if protected(other, effect)]
        held = "; ".join(f"the opponent holds at most {value} {r.title()}" if value >= 0
                         else "the condition can never hold" for r, value in limits.items())
        reason = ", ".join(part for part in (
            f"those in the deck cost more ({', '.join(costs)})" if costs else "",
            f"{', '.join(shielded)} {'is' if len(shielded) == 1 else 'are'} protected" if shielded else "") if part)
        findings.append(LintFinding(
            "L001", card.id, f"{card.name}: effect {index + 1} (bypass {what}) can never change an outcome: "
            f"while its condition holds {held or 'no such evade can be paid'}"
            f"{'; ' + reason if reason else ''}", index, False,
            "a dead rule: loosen the condition or let the bypass cover other evades"))
    return findings
