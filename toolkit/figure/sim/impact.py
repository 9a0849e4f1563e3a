"""Board-level balance: the squad x squad round robin, and what each unit is worth to its squad on the board.

A unit's impact is its squad's win rate with the unit minus the win rate with the unit swapped for a
replacement, both measured in the same seat-swapped pairs over the same dice (so the difference is
less noisy than two separate runs), each against every other squad (or itself, when it is alone).
The replacement is an average unit: the base form outside the squad whose battle rating is closest to
the median rating of all base forms (a stand-in from the strongest units left over would make every
unit look harmful). The difference gets Newcombe's interval (from the two Wilson intervals); an
interval that excludes 0 is flagged: the unit changes the result beyond what luck explains.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Callable
from dataclasses import dataclass, field

from toolkit.figure.analysis.balance import balance, playable
from toolkit.figure.database import Database
from toolkit.figure.engine import Rules, build_game
from toolkit.figure.engine.tables import GameTables
from toolkit.figure.model import Squad
from toolkit.figure.rules.roster import upgrade_stages
from toolkit.figure.sim.games import GameResult, PairTask
from toolkit.figure.sim.pool import play_pairs
from toolkit.figure.sim.stats import summarize, wilson
from toolkit.figure.sim.verdict import ladder_verdict, paired_difference, warnings


@dataclass(frozen=True)
class Impact:
    squad: str
    unit: str
    with_unit: float  # the squad's win rate with the unit
    without_unit: float  # ... with the replacement in its place
    difference: float
    interval: tuple[float, float]  # Newcombe 95% interval of the difference

    @property
    def flagged(self) -> bool:
        return self.interval[0] > 0 or self.interval[1] < 0


@dataclass(frozen=True)
class BoardBalance:
    theme: str
    players: tuple[str, str]
    games: int  # per match
    seed: int
    squads: list[str]
    matrix: list[list[float | None]]
    matches: list[dict]
    replacements: dict[str, str]  # squad -> the unit standing in for each of its units
    impacts: list[Impact]
    ladders: list[dict] = field(default_factory=list)  # per match: the skill ladder and its verdict
    baseline: list[dict] = field(default_factory=list)  # per match: the paired change against --baseline


def _ladder(game: GameTables, play: Callable[[Squad, Squad, tuple[str, str]], list[GameResult]], a: Squad, b: Squad,
            ladder: tuple[str, ...], seed: int, games: int) -> dict:
    """One match at each rung of the ladder, and its verdict."""
    rungs = []
    for rung in ladder:
        results = play(a, b, (rung, rung))
        summary = summarize(game, results, (rung, rung), seed)
        summary["warnings"] = warnings(results, (rung, rung))
        rungs.append(summary)
    return {"theme": game.theme.id, "squads": {"a": a.id, "b": b.id}, "seed": seed, "games_per_rung": games,
            "ladder": rungs, "verdict": ladder_verdict(rungs)}


def newcombe(k1: int, n1: int, k2: int, n2: int) -> tuple[float, float]:
    """95% interval of p1 - p2 from the two Wilson intervals (Newcombe 1998, method 10)."""
    p1, p2 = k1 / n1, k2 / n2
    l1, u1 = wilson(k1, n1)
    l2, u2 = wilson(k2, n2)
    d = p1 - p2
    return (d - math.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2), d + math.sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2))


def replacement_unit(database: Database, squad: Squad) -> str | None:
    """The stand-in: the base form outside `squad` whose battle rating is closest to the median of all base
    forms (ties: the first id). None when every base form is in the squad."""
    units = database.unit_defs()
    stages = upgrade_stages(units)
    base = [r for r in balance(playable(units)).ratings if stages.get(r.unit_id) == 0]
    pool = [r for r in base if r.unit_id not in squad.units]
    if not pool:
        return None
    median = statistics.median(r.rating for r in base)
    return min(pool, key=lambda r: (abs(r.rating - median), r.unit_id)).unit_id


def board_balance(database: Database, players: tuple[str, str], games: int, seed: int, jobs: int = 1,
                  rules: Rules | None = None, progress: Callable[[int, int], None] | None = None,
                  ladder: tuple[str, ...] = (), before: Database | None = None) -> BoardBalance:
    rules = rules or Rules()
    squads = [database.squads[sid].value for sid in sorted(database.squads)]
    ids = [s.id for s in squads]
    replacements = {s.id: r for s in squads if (r := replacement_unit(database, s)) is not None}
    runs = len(ids) * (len(ids) + 1) // 2 + sum(len([o for o in ids if o != s.id] or [s.id]) * (1 + len(s.units))
                                               for s in squads if s.id in replacements)
    runs += len(ids) * (len(ids) + 1) // 2 * (len(ladder) + (before is not None))
    done = [0]

    def play(a: Squad, b: Squad, bots: tuple[str, str] = players, data: Database = database) -> list[GameResult]:
        game = build_game(a, b, data, rules)
        tasks = [PairTask(bots, seed, pair, record=False) for pair in range(games // 2)]
        results = play_pairs(game, tasks, jobs)
        done[0] += 1
        if progress:
            progress(done[0], runs)
        return results

    matches = []
    changes = []
    index = {sid: i for i, sid in enumerate(ids)}
    matrix: list[list[float | None]] = [[None] * len(ids) for _ in ids]
    for i, a in enumerate(squads):
        for b in squads[i:]:
            results = play(a, b)
            summary = summarize(build_game(a, b, database, rules), results, players, seed)
            matches.append(summary)
            if before is not None and a.id in before.squads and b.id in before.squads:
                old = play(before.squads[a.id].value, before.squads[b.id].value, data=before)
                change = paired_difference(results, old, 0)
                changes.append({"squads": {"a": a.id, "b": b.id}, "win_rate_a": summary["win_rate"]["a"],
                                "baseline_win_rate_a": round(sum(1 for r in old if r.winner == 0) / len(old), 6),
                                **change})
            matrix[index[a.id]][index[b.id]] = summary["win_rate"]["a"]
            if a.id != b.id:
                matrix[index[b.id]][index[a.id]] = summary["win_rate"]["b"]
    ladders = [_ladder(build_game(a, b, database, rules), play, a, b, ladder, seed, games)
               for i, a in enumerate(squads) for b in squads[i:]] if ladder else []
    impacts = []
    for squad in squads:
        stand_in = replacements.get(squad.id)
        if stand_in is None:
            continue
        opponents = [o for o in squads if o.id != squad.id] or [squad]
        base = [r for o in opponents for r in play(squad, o)]
        base_wins = sum(1 for r in base if r.winner == 0)
        for unit in squad.units:
            swapped = squad.model_copy(update={"units": tuple(stand_in if u == unit else u for u in squad.units),
                                               "id": squad.id})
            results = [r for o in opponents for r in play(swapped, o)]
            wins = sum(1 for r in results if r.winner == 0)
            low, high = newcombe(base_wins, len(base), wins, len(results))
            impacts.append(Impact(squad.id, unit, base_wins / len(base), wins / len(results),
                                  base_wins / len(base) - wins / len(results), (low, high)))
    return BoardBalance(database.theme.id, players, games, seed, ids, matrix, matches, replacements, impacts,
                        ladders, changes)
