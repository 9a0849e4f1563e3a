"""Game-neutral statistics of a simulation: Wilson 95% intervals, rates, seeds, game-length summaries."""

from __future__ import annotations

import hashlib
import math
import statistics
from typing import Any

Z95 = 1.959963984540054
HISTOGRAM_BINS = 10


def derive(seed: int, *parts: object) -> int:
    """A 64-bit seed from the root seed and a path of names, the same in every process and Python
    (blake2b, never Python's `hash`, which changes between processes)."""
    text = ":".join(str(part) for part in (seed, *parts))
    return int.from_bytes(hashlib.blake2b(text.encode("utf-8"), digest_size=8).digest(), "big")


def wilson(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% by default): honest near 0 and 1 and for few games."""
    if trials == 0:
        return (0.0, 1.0)
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))


def rate(k: int, n: int) -> float:
    return round(k / n, 6) if n else 0.0


def interval(k: int, n: int) -> list[float]:
    low, high = wilson(k, n)
    return [round(low, 6), round(high, 6)]


def lengths(turns: list[int]) -> dict[str, Any]:
    """min, median, max and a histogram of [from, to, games] of sorted game lengths."""
    if not turns:
        return {"min": 0, "median": 0, "max": 0, "histogram": []}
    low, high = turns[0], turns[-1]
    width = max(1, math.ceil((high - low + 1) / HISTOGRAM_BINS))
    bins = []
    start = low
    while start <= high:
        end = start + width - 1
        bins.append([start, end, sum(1 for t in turns if start <= t <= end)])
        start = end + 1
    return {"min": low, "median": statistics.median(turns), "max": high, "histogram": bins}


def pct(value: float) -> str:
    return f"{value * 100:.1f}%"


def outcome_lines(summary: dict[str, Any], labels: dict[str, str]) -> list[str]:
    """Each side's wins with its rate and interval, then the draws: the lines every self-play summary opens with
    (`labels` names each side, already padded as the caller lays it out)."""
    n = summary["games"]
    lines = []
    for key, label in labels.items():
        low, high = summary["interval"][key]
        lines.append(f"  {label} wins {summary['wins'][key]:>5}  {pct(summary['win_rate'][key]):>6}  "
                     f"(95% interval {pct(low)} to {pct(high)})")
    lines.append(f"  draws {summary['draws']} ({pct(summary['draws'] / n if n else 0)})")
    return lines
