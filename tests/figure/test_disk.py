"""Data Disk arithmetic: ranges, the d10 table, levelling, upgrades and both status variants."""

from __future__ import annotations

import pytest

from toolkit.figure.model import Color, Segment
from toolkit.figure.rules.disk import (
    check_disk,
    d10_pair_to_roll,
    level_up,
    ranges,
    segment_for_roll,
    with_modifiers,
    with_upgrade,
)
from toolkit.figure.rules.status import VARIANTS, SelfHit, battle_disk, poison_tick, status_rule

DISK = (
    Segment(move="Quick Attack", color=Color.GOLD, size=28, damage=50),
    Segment(move="Thunder Shock", color=Color.WHITE, size=32, damage=30),
    Segment(move="Thunder Wave", color=Color.PURPLE, size=12, stars=1, inflicts="paralysis"),
    Segment(move="Dodge", color=Color.BLUE, size=12),
    Segment(move="Miss", color=Color.RED, size=12),
)


def test_ranges_follow_wheel_order() -> None:
    assert ranges(DISK) == [(1, 28), (29, 60), (61, 72), (73, 84), (85, 96)]
    assert segment_for_roll(DISK, 1) == 0
    assert segment_for_roll(DISK, 29) == 1
    assert segment_for_roll(DISK, 96) == 4
    assert segment_for_roll(DISK, 97) is None


def test_d10_pair_reads_01_to_100_and_rerolls_above_96() -> None:
    assert d10_pair_to_roll(0, 1) == 1
    assert d10_pair_to_roll(9, 6) == 96
    assert d10_pair_to_roll(9, 7) is None
    assert d10_pair_to_roll(0, 0) is None  # reads as 100
    hits = [d10_pair_to_roll(t, o) for t in range(10) for o in range(10)]
    assert sorted(h for h in hits if h) == list(range(1, 97))


def test_level_up_moves_one_from_red_and_red_can_vanish() -> None:
    levelled = level_up(DISK, 4, 0)
    assert [s.size for s in levelled] == [29, 32, 12, 12, 11]
    tiny = (Segment(move="Jab", color=Color.WHITE, size=95, damage=10), Segment(move="Miss", color=Color.RED, size=1))
    assert [s.color for s in level_up(tiny, 1, 0)] == [Color.WHITE]
    with pytest.raises(ValueError, match="from a Red segment"):
        level_up(DISK, 0, 1)


def test_upgrade_bonus_per_stage() -> None:
    upgraded = with_upgrade(DISK, 2)
    assert [s.damage for s in upgraded[:2]] == [70, 50]
    assert upgraded[2].stars == 3
    assert upgraded[3] == DISK[3]
    assert upgraded[4] == DISK[4]


def test_check_disk_accepts_valid_and_flags_sum() -> None:
    assert check_disk(DISK) == []
    findings = check_disk(DISK[:4])
    assert [f.code for f in findings] == ["D001"]
    assert findings[0].found == "84"


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_burn_reduces_white_and_gold_by_20_never_below_zero(variant: str) -> None:
    disk = battle_disk(DISK, status_rule(variant, "burn"))
    assert [s.damage for s in disk[:2]] == [30, 10]
    weak = (Segment(move="Jab", color=Color.WHITE, size=96, damage=10),)
    assert battle_disk(weak, status_rule(variant, "burn"))[0].damage == 0


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_paralysis_turns_largest_non_miss_into_miss(variant: str) -> None:
    disk = battle_disk(DISK, status_rule(variant, "paralysis"))
    assert disk[1].color is Color.RED
    assert disk[1].size == 32
    assert sum(s.size for s in disk) == 96


def test_variants_differ_where_the_specs_differ() -> None:
    assert battle_disk(DISK, status_rule("spec000", "poison"))[0].damage == 30  # static -20
    assert battle_disk(DISK, status_rule("spec001", "poison"))[0].damage == 50  # only on a spun segment
    ticks = poison_tick(DISK, status_rule("spec001", "noxious"), 1)
    assert ticks == (0, -40, 0, 0, 0)
    ticked = with_modifiers(DISK, segment_damage=ticks)
    assert ticked[1].damage == 0
    assert ticked[0].damage == 50
    assert poison_tick(DISK, status_rule("spec001", "poison"), 3, ticks) == ticks  # Dodge has no damage
    assert status_rule("spec000", "confusion").self_hit is SelfHit.EXTRA_SPIN
    assert status_rule("spec001", "confusion").self_hit is SelfHit.BEFORE_BATTLE
    assert status_rule("spec000", "sleep").can_be_passed
    assert status_rule("spec000", "sleep").cured_when_attacked
    assert not status_rule("spec001", "sleep").cured_when_attacked
    assert status_rule("spec001", "sleep").wake_by_spin
    assert status_rule("spec001", "frozen").cured_after_own_turns == 3


def test_modifiers_add_up_before_the_floor() -> None:
    """A reduction and bonuses are summed first, then floored at 0 once (issue 12): Gust 20 under
    Noxious (-40) with X Attack (+30) hits for 10, not 30; a poison tick counts the same way."""
    gust = (Segment(move="Gust", color=Color.WHITE, size=96, damage=20),)
    assert with_modifiers(gust, damage=-40 + 30)[0].damage == 10
    assert with_modifiers(gust, stage=1, damage=-40)[0].damage == 0  # 20 + 10 - 40 = -10 -> 0
    assert with_modifiers(gust, stage=2, damage=-40)[0].damage == 0  # 20 + 20 - 40 = 0
    assert with_modifiers(gust, stage=3, damage=-40)[0].damage == 10
    ticks = poison_tick(gust, status_rule("spec001", "noxious"), 0)
    ticks = poison_tick(gust, status_rule("spec001", "noxious"), 0, ticks)  # two ticks: -80 in all
    assert with_modifiers(gust, damage=30, segment_damage=ticks)[0].damage == 0  # 20 - 80 + 30 = -30
    assert with_modifiers(gust, damage=70, segment_damage=ticks)[0].damage == 10
