"""Status effects (System Malfunctions) of both theme variants, as rules the code can apply.

`spec000` follows spec 000 Table 2.2 (duel-protocol); `spec001` follows spec 001 Table 2.2 (chimera).
A theme selects a variant and gives each status its printed name; the behaviour lives here.
One status at a time: a new one replaces the old; all are cleared on Deactivation.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

from toolkit.figure.model import Segment
from toolkit.figure.rules.disk import Disk, largest_non_miss, with_damage_bonus, with_miss_replacing

STATUS_IDS = ("poison", "noxious", "paralysis", "burn", "confusion", "sleep", "frozen")


class SelfHit(str, Enum):
    """How a confused unit may hit itself."""

    NONE = "none"
    EXTRA_SPIN = "extra_spin"  # spec000: spun an additional time; an attack result hits itself
    BEFORE_BATTLE = "before_battle"  # spec001: spin first; on White/Gold it hits itself, battle cancelled


@dataclass(frozen=True)
class StatusRule:
    id: str
    damage_modifier: int = 0  # to every White/Gold segment, in every battle
    spun_damage_modifier: int = 0  # to the White/Gold segment spun at end of a turn without battle
    miss_replaces_largest: bool = False
    self_hit: SelfHit = SelfHit.NONE
    can_battle: bool = True
    can_move: bool = True
    can_be_passed: bool = False
    cured_when_attacked: bool = False
    wake_by_spin: bool = False
    cured_after_own_turns: int | None = None


VARIANTS: dict[str, dict[str, StatusRule]] = {
    "spec000": {
        rule.id: rule
        for rule in (
            StatusRule("poison", damage_modifier=-20),
            StatusRule("noxious", damage_modifier=-40),
            StatusRule("paralysis", miss_replaces_largest=True),
            StatusRule("burn", damage_modifier=-20),
            StatusRule("confusion", self_hit=SelfHit.EXTRA_SPIN),
            StatusRule("sleep", can_battle=False, can_be_passed=True, cured_when_attacked=True),
            StatusRule("frozen", can_battle=False, can_move=False, cured_when_attacked=True),
        )
    },
    "spec001": {
        rule.id: rule
        for rule in (
            StatusRule("poison", spun_damage_modifier=-20),
            StatusRule("noxious", spun_damage_modifier=-40),
            StatusRule("paralysis", miss_replaces_largest=True),
            StatusRule("burn", damage_modifier=-20),
            StatusRule("confusion", self_hit=SelfHit.BEFORE_BATTLE),
            StatusRule("sleep", can_battle=False, can_move=False, wake_by_spin=True),
            StatusRule("frozen", can_battle=False, can_move=False, cured_after_own_turns=3),
        )
    },
}


def status_rule(variant: str, status_id: str) -> StatusRule:
    try:
        return VARIANTS[variant][status_id]
    except KeyError as exc:
        raise ValueError(f"no status '{status_id}' in variant '{variant}'") from exc


def battle_disk(disk: Sequence[Segment], rule: StatusRule | None, miss_name: str = "Miss") -> Disk:
    """The disk a unit with this status spins in battle (static modifiers only)."""
    result: Disk = tuple(disk)
    if rule is None:
        return result
    if rule.damage_modifier:
        result = with_damage_bonus(result, rule.damage_modifier)
    if rule.miss_replaces_largest:
        index = largest_non_miss(result)
        if index is not None:
            result = with_miss_replacing(result, index, miss_name)
    return result


def poison_tick(disk: Sequence[Segment], rule: StatusRule, spun_index: int) -> Disk:
    """spec001 Poison/Noxious: the White/Gold segment spun at end of turn loses damage for good."""
    segment = disk[spun_index]
    if not rule.spun_damage_modifier or segment.damage is None:
        return tuple(disk)
    reduced = segment.model_copy(update={"damage": max(0, segment.damage + rule.spun_damage_modifier)})
    return tuple(reduced if i == spun_index else s for i, s in enumerate(disk))
