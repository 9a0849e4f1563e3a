"""Where a status or a module changes the game: small functions the engine asks, one question each.

The status behaviour comes from `toolkit.rules.status.StatusRule` (each theme's Table 2.2); the
questions the StatusRule fields do not answer directly (chimera's Sleep and Frozen still spin when
attacked; damage modifiers are summed before the floor at 0) are decided here, in one place each,
so they can be re-pointed when the status model grows the matching fields.
"""

from __future__ import annotations

from collections.abc import Sequence

from toolkit.model import Color, Segment
from toolkit.rules.disk import Disk, largest_non_miss, with_damage_bonus, with_miss_replacing, with_star_bonus
from toolkit.rules.status import SelfHit, StatusRule

DAMAGE_COLORS = (Color.WHITE, Color.GOLD)
THAW_VARIANT_SPINS_WHEN_ATTACKED = "spec001"  # chimera: Sleep/Frozen units still spin when attacked


def can_be_selected_to_move(rule: StatusRule | None) -> bool:
    """Frozen (both themes) and chimera's Sleep keep the unit where it is."""
    return rule is None or rule.can_move


def can_initiate_attack(rule: StatusRule | None) -> bool:
    """duel-protocol's Sleep/Frozen cannot take part in combat; chimera's cannot initiate an attack."""
    if rule is None:
        return True
    return rule.can_battle and rule.can_move and getattr(rule, "can_initiate", True)


def spins_when_attacked(rule: StatusRule | None, variant: str) -> bool:
    """False: the unit spins nothing and counts as a Miss (duel-protocol's Sleep and Frozen).

    Chimera's Table 2.2 only forbids moving and initiating; attacked, the unit spins normally.
    """
    if rule is None or rule.can_battle:
        return True
    return variant == THAW_VARIANT_SPINS_WHEN_ATTACKED


def confused(rule: StatusRule | None) -> bool:
    """A self-hit spin comes first (spec 000 'spun an additional time', spec 001 'before this unit battles')."""
    return rule is not None and rule.self_hit is not SelfHit.NONE


def self_hit(segment: Segment) -> bool:
    """The self-hit spin landed on an attack: the unit hits itself."""
    return segment.color in DAMAGE_COLORS


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
    result: Disk = tuple(disk)
    total = damage_bonus + (rule.damage_modifier if rule is not None else 0)
    if segment_damage:
        result = tuple(
            s.model_copy(update={"damage": (s.damage or 0) + delta}) if delta and s.color in DAMAGE_COLORS else s
            for s, delta in zip(result, segment_damage, strict=True))
    if total or segment_damage:
        result = with_damage_bonus(result, total)
    if star_bonus:
        result = with_star_bonus(result, star_bonus)
    if rule is not None and rule.miss_replaces_largest:
        index = largest_non_miss(result)
        if index is not None:
            result = with_miss_replacing(result, index, miss_name)
    return result
