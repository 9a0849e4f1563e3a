"""Where a status or a module changes the game: small functions the engine asks, one question each.

The status behaviour comes from `toolkit.figure.rules.status.StatusRule` (each theme's Table 2.2, the
same fields `duelkit odds` and the printed manual read); damage goes through `rules.disk.with_modifiers`,
which sums every modifier before the single floor at 0.
"""

from __future__ import annotations

from collections.abc import Sequence

from toolkit.figure.model import Color, Segment
from toolkit.figure.rules.disk import Disk, largest_non_miss, with_miss_replacing, with_modifiers
from toolkit.figure.rules.status import SelfHit, StatusRule


def can_be_selected_to_move(rule: StatusRule | None) -> bool:
    """Frozen (both themes) and chimera's Sleep keep the unit where it is."""
    return rule is None or rule.can_move


def can_initiate_attack(rule: StatusRule | None) -> bool:
    """duel-protocol's Sleep/Frozen cannot take part in combat; chimera's cannot initiate an attack."""
    return rule is None or rule.can_initiate


def spins_when_attacked(rule: StatusRule | None) -> bool:
    """False: the unit spins nothing and counts as a Miss (duel-protocol's Sleep and Frozen).

    Chimera's Table 2.2 only forbids moving and initiating; attacked, the unit spins normally.
    """
    return rule is None or rule.spins_when_attacked


def confused(rule: StatusRule | None) -> bool:
    """A self-hit spin comes first (spec 000 'spun an additional time', spec 001 'before this unit battles')."""
    return rule is not None and rule.self_hit is not SelfHit.NONE


def self_hit(segment: Segment) -> bool:
    """The self-hit spin landed on an attack: the unit hits itself."""
    return segment.color.deals_damage


def cured_when_attacked(rule: StatusRule | None) -> bool:
    return rule is not None and rule.cured_when_attacked


def wakes_by_spin(rule: StatusRule | None) -> bool:
    return rule is not None and rule.wake_by_spin


def wake_spin_succeeds(segment: Segment) -> bool:
    """Chimera Sleep: 'any result other than Malfunction removes this status'."""
    return segment.color is not Color.RED


def thaw_turns(rule: StatusRule | None) -> int | None:
    return None if rule is None else rule.cured_after_own_turns


def end_of_turn_spin_modifier(rule: StatusRule | None) -> int:
    """Chimera Poison/Noxious: the White/Gold segment spun at the end of a turn without battle loses damage."""
    return 0 if rule is None else rule.spun_damage_modifier


def passable_by_enemy(rule: StatusRule | None, ruling: str) -> bool:
    """Whether opposing units may move through a unit with this status (the `sleeper_passable` switch)."""
    if rule is None:
        return False
    if ruling == "theme_table":
        return rule.can_be_passed
    if ruling == "always":
        return rule.id == "sleep"
    return False


def battle_disk(disk: Sequence[Segment], rule: StatusRule | None, damage_bonus: int, star_bonus: int,
                segment_damage: Sequence[int] | None, miss_name: str) -> Disk:
    """The disk a unit spins: every damage modifier summed (status, modules, subroutines, its own lasting
    per-segment losses), then floored at 0 once; stars added; Paralysis turns the largest non-Miss
    segment into a Miss. Segment indices never change, so a spin's index means the same on every variant.
    """
    total = damage_bonus + (rule.damage_modifier if rule is not None else 0)
    result = with_modifiers(disk, damage=total, stars=star_bonus, segment_damage=segment_damage or ())
    if rule is not None and rule.miss_replaces_largest:
        index = largest_non_miss(result)
        if index is not None:
            result = with_miss_replacing(result, index, miss_name)
    return result
