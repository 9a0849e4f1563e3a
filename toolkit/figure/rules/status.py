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
from toolkit.figure.rules.disk import Disk, largest_non_miss, with_miss_replacing, with_modifiers

STATUS_IDS = ("poison", "noxious", "paralysis", "burn", "confusion", "sleep", "frozen")


class SelfHit(str, Enum):
    """How a confused unit may hit itself."""

    NONE = "none"
    EXTRA_SPIN = "extra_spin"  # spec000: spun an additional time; an attack result hits itself
    BEFORE_BATTLE = "before_battle"  # spec001: spin first; on White/Gold it hits itself, battle cancelled


@dataclass(frozen=True)
class StatusRule:
    """What one status does, as plain fields any engine can read (odds, manual, board game)."""

    id: str
    damage_modifier: int = 0  # to every White/Gold segment, in every battle
    spun_damage_modifier: int = 0  # to the White/Gold segment spun at end of a turn without battle
    miss_replaces_largest: bool = False
    self_hit: SelfHit = SelfHit.NONE
    can_move: bool = True  # its owner may select it to move
    can_initiate: bool = True  # it may start a battle (attack an adjacent enemy)
    spins_when_attacked: bool = True  # attacked, it spins as usual; False: it counts as a Miss
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
            # "cannot participate in combat": it neither attacks nor spins when attacked
            StatusRule("sleep", can_initiate=False, spins_when_attacked=False, can_be_passed=True,
                       cured_when_attacked=True),
            StatusRule("frozen", can_initiate=False, spins_when_attacked=False, can_move=False,
                       cured_when_attacked=True),
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
            # "cannot be selected to move or initiate an attack": attacked, it still spins normally
            StatusRule("sleep", can_move=False, can_initiate=False, wake_by_spin=True),
            StatusRule("frozen", can_move=False, can_initiate=False, cured_after_own_turns=3),
        )
    },
}


def status_rule(variant: str, status_id: str) -> StatusRule:
    try:
        return VARIANTS[variant][status_id]
    except KeyError as exc:
        raise ValueError(f"no status '{status_id}' in variant '{variant}'") from exc


def paralysed(disk: Sequence[Segment], rule: StatusRule | None, miss_name: str = "Miss") -> Disk:
    """Paralysis: the largest non-Miss segment (first in wheel order on a tie) becomes a Miss."""
    if rule is None or not rule.miss_replaces_largest:
        return tuple(disk)
    index = largest_non_miss(disk)
    return tuple(disk) if index is None else with_miss_replacing(disk, index, miss_name)


def battle_disk(disk: Sequence[Segment], rule: StatusRule | None, miss_name: str = "Miss") -> Disk:
    """The disk a unit with only this status spins in battle (static modifiers only). With more
    modifiers (upgrades, modules), pass them all to `with_modifiers` at once, as `odds.Fighter` does."""
    reduced = with_modifiers(disk, damage=rule.damage_modifier if rule else 0)
    return paralysed(reduced, rule, miss_name)


def poison_tick(disk: Sequence[Segment], rule: StatusRule, spun_index: int,
                ticks: Sequence[int] = ()) -> tuple[int, ...]:
    """spec001 Poison/Noxious: the White/Gold segment spun at the end of a turn loses damage for good.

    Returns the per-segment damage modifiers after this tick (`ticks` are those before it), to pass as
    `with_modifiers(..., segment_damage=...)`: a tick is one more modifier, summed before the floor.
    """
    current = tuple(ticks) or (0,) * len(disk)
    if not rule.spun_damage_modifier or not disk[spun_index].color.deals_damage:
        return current
    return tuple(value + rule.spun_damage_modifier if i == spun_index else value for i, value in enumerate(current))
