"""The sword-duel design linter: rules that contradict the core rules, can never trigger, or cost more
than a player can ever hold. Pure: it reads techniques and returns findings; positions are added by the
loader."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from toolkit.sword import constants
from toolkit.sword.model import Condition, EvadeCost, Technique
from toolkit.sword.rules.positions import Move


def base_retreat_loss() -> int:
    """How much Momentum Retreat loses under the core rules."""
    return -constants.MOVE_RESOURCES[Move.RETREAT.value]["momentum"]


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


def cap(technique: Technique, resource: str) -> int:
    """The highest value a resource can reach while this technique is played."""
    raised = [e.cap for e in technique.effects if e.kind == "raise_cap" and e.resource == resource]
    return max([constants.RESOURCE_CAP, *raised])


def _condition_findings(technique: Technique, condition: Condition, where: str, effect: int | None,
                        on_evade: bool = False) -> list[LintFinding]:
    findings = []
    for field, resource in (("momentum_at_least", "momentum"), ("balance_at_least", "balance"),
                            ("momentum_exactly", "momentum"), ("balance_exactly", "balance")):
        value = getattr(condition, field)
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


def lint_technique(technique: Technique) -> list[LintFinding]:
    findings = _evade_findings(technique)
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
        for index, effect in enumerate(card.effects):
            if effect.kind != "evade_surcharge":
                continue
            victims = [other.name for other in techniques if other.id != card.id
                       and isinstance(other.evade.amount, int) and other.evade.resource in ("momentum", "balance")
                       and other.evade.amount <= cap(other, other.evade.resource)
                       < other.evade.amount + effect.amount]
            if victims:
                findings.append(LintFinding(
                    "L002", card.id, f"{card.name}: its +{effect.amount} evade surcharge makes these evades "
                    f"impossible to pay against it under the cap of {constants.RESOURCE_CAP}: {', '.join(victims)}",
                    index, False, "intended? then say so on the card; otherwise cap the surcharge"))
    return findings
