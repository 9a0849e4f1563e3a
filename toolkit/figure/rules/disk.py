"""Data Disk arithmetic: ranges on a 1-96 scale, the d10 mapping, levelling and upgrade bonuses."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from toolkit.figure import constants
from toolkit.figure.model import Color, Segment

Disk = tuple[Segment, ...]


def disk_total(disk: Sequence[Segment]) -> int:
    return sum(segment.size for segment in disk)


def ranges(disk: Sequence[Segment]) -> list[tuple[int, int]]:
    """Inclusive 1-96 ranges in wheel order: the first segment covers 1..size."""
    result = []
    start = 1
    for segment in disk:
        result.append((start, start + segment.size - 1))
        start += segment.size
    return result


def range_label(low: int, high: int) -> str:
    """A 1-96 range as every printed piece writes it (card table, spinner): "1–24", or "7" when one wide."""
    return f"{low}–{high}" if high > low else str(low)


def segment_for_roll(disk: Sequence[Segment], roll: int) -> int | None:
    """Index of the segment a 1-96 roll lands on; None for 97-100 (roll again) or out of range."""
    for index, (low, high) in enumerate(ranges(disk)):
        if low <= roll <= high:
            return index
    return None


def d10_pair_to_roll(tens: int, ones: int) -> int | None:
    """Two d10 (0-9 each) read as 01..100 ('00' is 100). 97-100 mean roll again: returns None."""
    if not (0 <= tens <= 9 and 0 <= ones <= 9):
        raise ValueError("each d10 shows 0-9")
    value = tens * 10 + ones or constants.D10_PAIR_MAX
    return value if value <= constants.DISK_TOTAL else None


def level_up(disk: Sequence[Segment], red_index: int, target_index: int) -> Disk:
    """Move 1 size from a Red segment to another segment; a Red segment that reaches 0 vanishes."""
    if disk[red_index].color is not Color.RED:
        raise ValueError("levelling takes size from a Red segment")
    if red_index == target_index:
        raise ValueError("levelling moves size to a different segment")
    result = []
    for index, segment in enumerate(disk):
        size = segment.size - (index == red_index) + (index == target_index)
        if size > 0:
            result.append(segment.model_copy(update={"size": size}))
    return tuple(result)


def damage_in_play(printed: int, *modifiers: int) -> int:
    """The single place damage is computed: the printed damage plus every modifier (upgrade stages,
    status reductions, modules, subroutines, poison ticks) added up first, then floored at 0 once.
    Flooring each reduction on its own would let a bonus outweigh a reduction that already hit 0."""
    return max(0, printed + sum(modifiers))


def with_modifiers(disk: Sequence[Segment], *, stage: int = 0, damage: int = 0, stars: int = 0,
                   segment_damage: Sequence[int] = ()) -> Disk:
    """The disk in play: each upgrade stage adds 10 damage to White and Gold and 1 star to Purple;
    `damage` is the sum of every other whole-disk damage modifier (status, module, subroutine),
    `segment_damage` one extra modifier per segment (chimera Poison ticks), `stars` added to Purple."""
    if stage < 0:
        raise ValueError("upgrade stages cannot be negative")
    if segment_damage and len(segment_damage) != len(disk):
        raise ValueError("segment_damage needs one modifier per segment")
    result = []
    for index, segment in enumerate(disk):
        if segment.color.deals_damage:
            extra = segment_damage[index] if segment_damage else 0
            value = damage_in_play(segment.damage or 0, constants.UPGRADE_DAMAGE_BONUS * stage, damage, extra)
            segment = segment.model_copy(update={"damage": value}) if value != segment.damage else segment
        elif segment.color is Color.PURPLE and (stage or stars):
            segment = segment.model_copy(
                update={"stars": (segment.stars or 0) + constants.UPGRADE_STAR_BONUS * stage + stars})
        result.append(segment)
    return tuple(result)


def with_upgrade(disk: Sequence[Segment], stages: int) -> Disk:
    """Each upgrade stage: +10 damage to White and Gold, +1 star to Purple (what a card prints)."""
    return with_modifiers(disk, stage=stages)


def largest_non_miss(disk: Sequence[Segment]) -> int | None:
    """Index of the largest non-Red segment (first in wheel order on a tie), or None."""
    candidates = [(segment.size, -index) for index, segment in enumerate(disk) if segment.color is not Color.RED]
    if not candidates:
        return None
    return -max(candidates)[1]


def with_miss_replacing(disk: Sequence[Segment], index: int, miss_name: str = "Miss") -> Disk:
    """The segment at `index` becomes a Red segment of the same size."""
    return tuple(
        Segment(move=miss_name, color=Color.RED, size=segment.size) if i == index else segment
        for i, segment in enumerate(disk)
    )


# Which optional fields each colour requires and allows (DESIGN section 2, "Data Disk").
REQUIRED_FIELDS: dict[Color, tuple[str, ...]] = {
    Color.WHITE: ("damage",), Color.GOLD: ("damage",), Color.PURPLE: ("stars",), Color.BLUE: (), Color.RED: (),
}
ALLOWED_FIELDS: dict[Color, tuple[str, ...]] = {
    Color.WHITE: ("damage", "effect"), Color.GOLD: ("damage", "effect"),
    Color.PURPLE: ("stars", "effect", "inflicts", "board_effect"), Color.BLUE: ("effect",), Color.RED: (),
}


@dataclass(frozen=True)
class DiskFinding:
    """A Data Disk rule broken; `segment` and `field` say where (None: the disk as a whole)."""

    code: str
    message: str
    segment: int | None = None
    field: str | None = None
    hint: str = ""
    warning: bool = False
    expected: str = ""
    found: str = ""


def check_disk(disk: Sequence[Segment]) -> list[DiskFinding]:
    findings = []
    total = disk_total(disk)
    if total != constants.DISK_TOTAL:
        gap = constants.DISK_TOTAL - total
        advice = f"add {gap} to" if gap > 0 else f"remove {-gap} from"
        findings.append(DiskFinding(
            "D001", f"segment sizes sum to {total}, not {constants.DISK_TOTAL}",
            hint=f"{advice} a segment (a Red segment is the usual place)",
            expected=str(constants.DISK_TOTAL), found=str(total)))
    for index, segment in enumerate(disk):
        color = segment.color
        for name in REQUIRED_FIELDS[color]:
            if getattr(segment, name) is None:
                findings.append(DiskFinding(
                    "D003", f"{color.value} segment '{segment.move}' needs `{name}`", index, None,
                    hint=f"add `{name}:` to this segment"))
        for name in ("damage", "stars", "effect", "inflicts", "board_effect"):
            if getattr(segment, name) is not None and name not in ALLOWED_FIELDS[color]:
                code = "D005" if name in ("inflicts", "board_effect") else "D002"
                findings.append(DiskFinding(
                    code, f"a {color.value} segment cannot have `{name}`", index, name,
                    hint="only Purple segments inflict statuses or move units" if name in ("inflicts", "board_effect")
                    else
                    f"{color.value} segments allow: {', '.join(ALLOWED_FIELDS[color]) or 'no extra fields'}"))
        if segment.stars == 4:
            findings.append(DiskFinding(
                "D004", f"'{segment.move}' has 4 stars; printed stars usually stop at 3", index, "stars",
                hint="4 stars is allowed but beats every other Purple move", warning=True))
    return findings
