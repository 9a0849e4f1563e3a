"""What a designer may conclude from simulated games, and when not to: the skill ladder's verdict, warnings
about degenerate runs, and the paired before/after comparison of `--baseline`.

A verdict is a claim with an interval behind it. At each rung of the ladder (the same match played by
ever stronger bots) a squad is favoured only when its share of the decisive games has a Wilson interval
entirely above one half, and the first player has an edge only when the first player's share does; "none"
means luck explains the difference at that sample size. The verdict is `stable` when the two top rungs
(the strongest bots) say the same; rungs whose verdict differs from the top rung's are listed, because a
balance claim that changes with the players' strength is a claim about the players.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from typing import Any

from toolkit.figure.sim.games import GameResult
from toolkit.figure.sim.stats import REASON_WORDS, wilson
from toolkit.selfplay.stats import Z95

SHORT_GAME_TURNS = 6  # "most games over before turn 6"
MIN_GAMES_FOR_WARNINGS = 10


def side_of(low: float, high: float, names: tuple[str, str]) -> str:
    """names[0] when the interval lies above one half, names[1] when below, "none" when it straddles it."""
    if low > 0.5:
        return names[0]
    if high < 0.5:
        return names[1]
    return "none"


def rung_verdict(summary: dict[str, Any]) -> dict[str, Any]:
    """One rung: the favoured squad (or "mirror"/"none") and the first-player edge ("first", "second", "none")."""
    wins_a, wins_b = summary["wins"]["a"], summary["wins"]["b"]
    squads = summary["squads"]
    if squads["a"] == squads["b"]:
        favoured = "mirror"
    else:
        low, high = wilson(wins_a, wins_a + wins_b)
        favoured = side_of(low, high, (squads["a"], squads["b"]))
    low, high = summary["first_player_interval"]
    return {"players": summary["players"]["a"], "favoured": favoured,
            "first_player_rate": summary["first_player_rate"], "first_player_interval": [low, high],
            "first_player_edge": side_of(low, high, ("first", "second"))}


def ladder_verdict(summaries: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """The verdict over the rungs, weakest first; `stable` compares the two strongest."""
    rungs = [rung_verdict(s) for s in summaries]
    top = rungs[-1]
    changes = [r["players"] for r in rungs[:-1]
               if (r["favoured"], r["first_player_edge"]) != (top["favoured"], top["first_player_edge"])]
    stable = len(rungs) >= 2 and (rungs[-2]["favoured"], rungs[-2]["first_player_edge"]) == (
        top["favoured"], top["first_player_edge"])
    return {"rungs": rungs, "favoured": top["favoured"], "first_player_edge": top["first_player_edge"],
            "stable": stable, "changes_below_top": changes,
            "note": ("the two strongest rungs agree" if stable else
                     "the two strongest rungs disagree: the verdict depends on the players' strength; "
                     "play more games or stronger rungs before trusting it")}


def warnings(results: Sequence[GameResult], players: tuple[str, str]) -> list[str]:
    """Signs that the games say more about the bots than about the game, each with what to try."""
    n = len(results)
    if n < MIN_GAMES_FOR_WARNINGS:
        return []
    found = []
    stronger = "--ladder (the same match at each strength)"
    if "search" not in players[0] or "search" not in players[1]:
        stronger = "--players search,search or " + stronger
    lengths = {r.turns for r in results}
    if len(lengths) == 1:
        found.append(f"every game lasted exactly {next(iter(lengths))} turns: the bots may be repeating one "
                     f"line of play; try {stronger}")
    decisive = [r for r in results if r.winner >= 0]
    first = sum(1 for r in decisive if r.winner == r.first)
    if len(decisive) >= MIN_GAMES_FOR_WARNINGS and first in (0, len(decisive)):
        found.append(f"the first player won {first / len(decisive):.0%} of the {len(decisive)} decisive games: "
                     f"a seat that always wins usually means a bot blind to one threat; try {stronger}")
    short = sum(1 for r in results if r.turns < SHORT_GAME_TURNS)
    if short * 2 > n:
        found.append(f"{short} of {n} games were over before turn {SHORT_GAME_TURNS}: check the bots guard "
                     f"their goal (a movement module?); try {stronger}")
    reasons = {r.reason for r in results}
    if len(reasons) == 1:
        reason = next(iter(reasons))
        found.append(f"every game ended the same way ({REASON_WORDS.get(reason, reason)}); try {stronger}")
    return found


def paired_difference(new: Sequence[GameResult], old: Sequence[GameResult], side: int) -> dict[str, Any]:
    """`side`'s win rate in `new` less that in `old`, over the same seeds: games are paired by index, so the
    shared dice cancel out of the difference; the 95% interval is the normal one for the mean of the paired
    differences (per seat-swapped pair, so the two games of a pair stay together)."""
    by_index = {r.index: r for r in old}
    pairs: dict[int, list[float]] = {}
    for r in new:
        before = by_index.get(r.index)
        if before is None:
            continue
        change = (r.winner == side) - (before.winner == side)
        pairs.setdefault(r.index // 2, []).append(float(change))
    diffs = [sum(v) / len(v) for v in pairs.values()]
    n = len(diffs)
    mean = statistics.fmean(diffs) if diffs else 0.0
    half = Z95 * statistics.stdev(diffs) / math.sqrt(n) if n > 1 else 1.0
    return {"difference": round(mean, 6), "difference_interval": [round(max(-1.0, mean - half), 6),
                                                                   round(min(1.0, mean + half), 6)],
            "pairs": n}


def baseline_report(name: str, old: dict[str, Any], new_results: Sequence[GameResult],
                    old_results: Sequence[GameResult]) -> dict[str, Any]:
    """The `baseline` object: the other version's win rates and each squad's paired change."""
    changes = {key: paired_difference(new_results, old_results, side) for side, key in enumerate("ab")}
    return {"project": name, "squads": old["squads"], "win_rate": old["win_rate"], "interval": old["interval"],
            "first_player_rate": old["first_player_rate"],
            "difference": {key: c["difference"] for key, c in changes.items()},
            "difference_interval": {key: c["difference_interval"] for key, c in changes.items()},
            "pairs": changes["a"]["pairs"],
            "note": "this project's win rate less the baseline's, over the same seeds and dice (paired by game)"}


def baseline_lines(summary: dict[str, Any]) -> list[str]:
    b = summary["baseline"]
    lines = [f"  against the baseline {b['project']} (same {summary['games']} games' seeds and dice, "
             f"{summary['players']['a']} vs {summary['players']['b']}):"]
    for key in ("a", "b"):
        low, high = b["difference_interval"][key]
        moved = "changed" if low > 0 or high < 0 else "no change beyond luck"
        lines.append(f"    {summary['squads'][key]:<24} {b['win_rate'][key] * 100:5.1f}% -> "
                     f"{summary['win_rate'][key] * 100:5.1f}%: {b['difference'][key] * 100:+.1f} points "
                     f"(paired 95% interval {low * 100:+.1f} to {high * 100:+.1f}; {moved})")
    return lines


def ladder_lines(summary: dict[str, Any]) -> list[str]:
    """The ladder as a table, weakest rung first, then the verdict in words."""
    squads = summary["squads"]
    verdict = summary["verdict"]
    lines = [f"{summary['theme']}: {squads['a']} vs {squads['b']}: skill ladder, {summary['games_per_rung']} "
             f"games a rung (each rung: that bot plays both squads), seed {summary['seed']}",
             f"  {'bot':<16} {squads['a'][:18] + ' wins':>24}  {'first player wins':>26}  {'turns':>5}  "
             f"{'favoured':<20} edge"]
    for s, rung in zip(summary["ladder"], verdict["rungs"], strict=True):
        low, high = s["interval"]["a"]
        f_low, f_high = s["first_player_interval"]
        changed = " *" if rung["players"] in verdict["changes_below_top"] else ""
        lines.append(f"  {rung['players']:<16} {s['win_rate']['a'] * 100:5.1f}% ({low * 100:4.1f}-{high * 100:5.1f}%)"
                     f"   {s['first_player_rate'] * 100:9.1f}% ({f_low * 100:4.1f}-{f_high * 100:5.1f}%)  "
                     f"{s['mean_turns']:5.1f}  {rung['favoured']:<20} {rung['first_player_edge']}{changed}")
    lines.append("  (95% Wilson intervals; favoured/edge: only when the interval excludes one half; "
                 "* a verdict that differs from the top rung's)")
    lines.append(f"  verdict at the top rung ({verdict['rungs'][-1]['players']}): favoured {verdict['favoured']}, "
                 f"first-player edge {verdict['first_player_edge']}; stable: {str(verdict['stable']).lower()} "
                 f"({verdict['note']})")
    for s in summary["ladder"]:
        lines += [f"  warning ({s['players']['a']}): {text}" for text in s.get("warnings", [])]
    return lines
