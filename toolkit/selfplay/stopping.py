"""When a self-play run stops: after a fixed number of games, or (`--until-ci`) at the first checkpoint where
every interval is narrower than asked. Both games' `simulate` play their pairs through here, so the rule and
the words that report it are the same for games and duels."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

R = TypeVar("R")


def play_to_stopping_rule(play: Callable[[int, int], list[R]], games: int, until_ci: float | None,
                          widest: Callable[[list[R]], float], checkpoint: int,
                          unit: str = "game") -> tuple[list[R], dict[str, Any]]:
    """`play(first_pair, last_pair)` plays those seat-swapped pairs; the results and the stopping rule as the
    summary reports it. The interval is looked at only every `checkpoint` games (each look is a chance to stop
    early, so looking after every game would overstate the confidence)."""
    if until_ci is None:
        return play(0, games // 2), {"rule": "fixed", "note": f"stopping rule: a fixed {games} {unit}s"}
    results: list[R] = []
    width = 1.0
    while len(results) < games:
        upto = min(len(results) + checkpoint, games)
        results += play(len(results) // 2, upto // 2)
        width = widest(results)
        if width < until_ci:
            break
    reached = width < until_ci
    note = (f"stopping rule: --until-ci {until_ci:g}, checked every {checkpoint} {unit}s; "
            + (f"stopped at the {len(results)}-{unit} checkpoint (widest interval {width:.3f})" if reached else
               f"the interval was still {width:.3f} wide at the cap of {games} {unit}s"))
    return results, {"rule": "until_ci", "width": until_ci, "checkpoint_games": checkpoint,
                     "reached": reached, "final_width": round(width, 6), "note": note}
