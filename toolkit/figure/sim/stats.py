"""What a simulation's games add up to: win rates with Wilson 95% intervals, the first player's edge, the
victory breakdown, game lengths, per-unit knockouts and deactivations, modules used.

The summary is a plain dict (it is what `--json` prints); `summary_lines` words it for the terminal and
`games_csv` lists every game. Draws count as games but not as wins, so the two win rates and the draw
rate add up to one.
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from typing import Any

from toolkit.csvsafe import csv_text
from toolkit.figure.constants import SQUAD_UNITS
from toolkit.figure.engine.state import GOAL, LOCKOUT, REPETITION, TURN_LIMIT
from toolkit.figure.engine.tables import GameTables
from toolkit.figure.sim.games import GameResult
from toolkit.figure.sim.metrics import designer_metrics, metrics_line
from toolkit.players import PLAYERS
from toolkit.selfplay.stats import interval, lengths, outcome_lines, pct, rate, wilson

__all__ = ["games_csv", "summarize", "summary_lines", "widest_interval", "wilson"]

REASONS = (GOAL, LOCKOUT, TURN_LIMIT, REPETITION)
REASON_WORDS = {GOAL: "goal capture", LOCKOUT: "lockout", TURN_LIMIT: "turn limit", REPETITION: "repetition"}


def widest_interval(results: Sequence[GameResult]) -> float:
    """The width of the wider of the two win-rate intervals (what `--until-ci` compares)."""
    n = len(results)
    return max(high - low for low, high in (wilson(sum(1 for r in results if r.winner == side), n) for side in (0, 1)))


def summarize(game: GameTables, results: Sequence[GameResult], players: tuple[str, str], seed: int) -> dict[str, Any]:
    n = len(results)
    wins = [sum(1 for r in results if r.winner == side) for side in (0, 1)]
    draws = n - wins[0] - wins[1]
    first_wins = sum(1 for r in results if r.winner == r.first)
    decisive = wins[0] + wins[1]
    turns = sorted(r.turns for r in results)
    return {
        "theme": game.theme.id,
        "squads": {"a": game.squad_ids[0], "b": game.squad_ids[1]},
        "players": {"a": players[0], "b": players[1]},
        "seed": seed,
        "games": n,
        "pairs": n // 2,
        "wins": {"a": wins[0], "b": wins[1]},
        "draws": draws,
        "win_rate": {"a": rate(wins[0], n), "b": rate(wins[1], n)},
        "interval": {"a": interval(wins[0], n), "b": interval(wins[1], n)},
        "first_player_wins": first_wins,
        "first_player_rate": rate(first_wins, decisive),
        "first_player_interval": interval(first_wins, decisive),
        "victory": {reason: sum(1 for r in results if r.reason == reason) for reason in REASONS},
        "mean_turns": round(statistics.fmean(turns), 3) if turns else 0.0,
        "turns": lengths(turns),
        "units": {PLAYERS[side].value.lower(): _units(game, results, side) for side in (0, 1)},
        "modules": {PLAYERS[side].value.lower(): _modules(game, results, side) for side in (0, 1)},
        "designer": designer_metrics(results),
    }


def _units(game: GameTables, results: Sequence[GameResult], side: int) -> list[dict[str, Any]]:
    n = max(len(results), 1)
    rows = []
    for slot in range(side * SQUAD_UNITS, side * SQUAD_UNITS + SQUAD_UNITS):
        kos = sum(r.knockouts[slot] for r in results)
        lost = sum(r.deactivations[slot] for r in results)
        rows.append({"unit": game.slots[slot].forms[0].unit.id, "knockouts": kos, "deactivations": lost,
                     "knockouts_per_game": round(kos / n, 4), "deactivations_per_game": round(lost / n, 4)})
    return rows


def _modules(game: GameTables, results: Sequence[GameResult], side: int) -> dict[str, int]:
    """Each module of the squad: in how many games it was spent."""
    return {module.id: sum(1 for r in results if r.modules_used[side] >> index & 1)
            for index, module in enumerate(game.modules[side])}


def summary_lines(summary: dict[str, Any]) -> list[str]:
    """The summary in words, for the terminal."""
    s = summary
    n = s["games"]
    # a mirror match names both sides the same: the side letter tells whose figures a line gives
    mirror = s["squads"]["a"] == s["squads"]["b"]
    side = {key: f"{s['squads'][key]} ({key.upper()})" if mirror else s["squads"][key] for key in ("a", "b")}
    lines = [f"{s['theme']}: {s['squads']['a']} ({s['players']['a']}) vs {s['squads']['b']} ({s['players']['b']}): "
             f"{n} games in {s['pairs']} seat-swapped pairs, seed {s['seed']}"]
    lines += outcome_lines(s, {key: f"{side[key]:<24}" for key in ("a", "b")})
    low, high = s["first_player_interval"]
    lines.append(f"  first player won {s['first_player_wins']} of the decisive games: "
                 f"{pct(s['first_player_rate'])} (95% interval {pct(low)} to {pct(high)})")
    lines.append("  victories: " + ", ".join(f"{REASON_WORDS[r]} {c}" for r, c in s["victory"].items()))
    t = s["turns"]
    lines.append(f"  game length: mean {s['mean_turns']:.1f} turns, median {t['median']}, "
                 f"from {t['min']} to {t['max']}")
    for key in ("a", "b"):
        parts = [f"{u['unit']} {u['knockouts_per_game']:.2f}/{u['deactivations_per_game']:.2f}"
                 for u in s["units"][key]]
        lines.append(f"  {side[key]} knockouts/deactivations per game: " + ", ".join(parts))
        used = [f"{mid} {count}" for mid, count in s["modules"][key].items()]
        lines.append(f"  {side[key]} modules used (games): " + (", ".join(used) or "none"))
    if s.get("designer"):
        lines.append(metrics_line(s["designer"]))
    if "stopping" in s:
        lines.append(f"  {s['stopping']['note']}")
    lines += [f"  warning: {text}" for text in s.get("warnings", [])]
    return lines


def games_csv(game: GameTables, results: Sequence[GameResult]) -> str:
    """One row per game; every cell passes `toolkit.csvsafe` (a formula-like text gets an apostrophe)."""
    rows: list[list[object]] = [["game", "pair", "squad_a", "squad_b", "first", "winner", "reason", "turns",
                                 "knockouts_a", "knockouts_b", "deactivations_a", "deactivations_b", "modules_a",
                                 "modules_b"]]
    names = game.squad_ids
    for r in results:
        winner = "draw" if r.winner < 0 else names[r.winner]
        used = [";".join(m.id for i, m in enumerate(game.modules[side]) if r.modules_used[side] >> i & 1)
                for side in (0, 1)]
        rows.append([r.index + 1, r.index // 2 + 1, names[0], names[1], names[r.first], winner, r.reason, r.turns,
                     sum(r.knockouts[:SQUAD_UNITS]), sum(r.knockouts[SQUAD_UNITS:]),
                     sum(r.deactivations[:SQUAD_UNITS]), sum(r.deactivations[SQUAD_UNITS:]), used[0], used[1]])
    return csv_text(rows)
