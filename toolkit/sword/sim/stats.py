"""What a sword-duel simulation's duels add up to: win rates with Wilson 95% intervals, draws, how duels
ended, lengths, the Challenger's edge, builds and hands. The summary is what `--json` prints; its keys
follow the figure game's where they apply (games, pairs, wins, draws, win_rate, interval, victory,
mean_turns, turns, players, seed, stopping). Draws count as duels, not wins.
"""

from __future__ import annotations

import statistics
from collections import Counter
from collections.abc import Sequence
from typing import Any

from toolkit.csvsafe import csv_text
from toolkit.selfplay.stats import interval, lengths, outcome_lines, pct, rate, wilson
from toolkit.sword.rules.state import Reason
from toolkit.sword.sim.duels import DuelResult

REASONS = tuple(reason.value for reason in Reason)
REASON_WORDS = {"knockout": "knockout", "dishonor": "dishonor", "double_knockout": "double knockout",
                "double_dishonor": "double dishonor", "time": "time"}
SIDES = ("a", "b")


def widest_interval(results: Sequence[DuelResult]) -> float:
    n = len(results)
    return max(high - low for low, high in (wilson(sum(1 for r in results if r.winner == side), n)
                                            for side in (0, 1)))


def build_name(build: tuple[int, int, int]) -> str:
    return f"{build[0]}/{build[1]}/{build[2]}"


def summarize(results: Sequence[DuelResult], players: tuple[str, str], seed: int) -> dict[str, Any]:
    n = len(results)
    wins = [sum(1 for r in results if r.winner == side) for side in (0, 1)]
    decisive = wins[0] + wins[1]
    challenger = sum(1 for r in results if r.winner >= 0 and r.winner == r.challenger)
    turns = sorted(r.turns for r in results)
    return {
        "game": "sword-duel",
        "players": {"a": players[0], "b": players[1]},
        "seed": seed,
        "games": n,
        "pairs": n // 2,
        "wins": {"a": wins[0], "b": wins[1]},
        "draws": n - decisive,
        "win_rate": {"a": rate(wins[0], n), "b": rate(wins[1], n)},
        "interval": {"a": interval(wins[0], n), "b": interval(wins[1], n)},
        "challenger_wins": challenger,
        "challenger_rate": rate(challenger, decisive),
        "challenger_interval": interval(challenger, decisive),
        "victory": {reason: sum(1 for r in results if r.reason == reason) for reason in REASONS},
        "mean_turns": round(statistics.fmean(turns), 3) if turns else 0.0,
        "turns": lengths(turns),
        "builds": {side: _builds(results, i) for i, side in enumerate(SIDES)},
        "techniques": {side: _techniques(results, i) for i, side in enumerate(SIDES)},
    }


def _builds(results: Sequence[DuelResult], side: int) -> dict[str, dict[str, int]]:
    """Per build the side played: duels and wins."""
    played = Counter(build_name(r.builds[side]) for r in results)
    won = Counter(build_name(r.builds[side]) for r in results if r.winner == side)
    return {name: {"games": played[name], "wins": won[name]} for name in sorted(played)}


def _techniques(results: Sequence[DuelResult], side: int) -> dict[str, dict[str, int]]:
    """Per technique in the side's hand: duels held, wins, and turns it was the card played."""
    held: Counter[str] = Counter()
    won: Counter[str] = Counter()
    used: Counter[str] = Counter()
    for r in results:
        hand = r.hands[side]
        for slot, card in enumerate(hand):
            if slot == 1 and hand[1] == hand[0]:
                continue
            held[card] += 1
            won[card] += r.winner == side
        for slot, count in enumerate(r.played[side]):
            used[hand[slot]] += count
    return {card: {"games": held[card], "wins": won[card], "turns_played": used[card]} for card in sorted(held)}


def summary_lines(s: dict[str, Any]) -> list[str]:
    """The summary in words, for the terminal."""
    n = s["games"]
    lines = [f"sword-duel: {s['players']['a']} (a) vs {s['players']['b']} (b): {n} duels in {s['pairs']} "
             f"seat-swapped pairs (each player is the Challenger in one duel of a pair), seed {s['seed']}"]
    lines += outcome_lines(s, {key: f"{key} {s['players'][key]:<14}" for key in SIDES})
    low, high = s["challenger_interval"]
    lines.append(f"  the Challenger won {s['challenger_wins']} of the {s['wins']['a'] + s['wins']['b']} decisive "
                 f"duels: {pct(s['challenger_rate'])} (95% interval {pct(low)} to {pct(high)}; 50% is no edge)")
    lines.append("  how duels ended: " + ", ".join(f"{REASON_WORDS[r]} {c}" for r, c in s["victory"].items()))
    t = s["turns"]
    lines.append(f"  duel length: mean {s['mean_turns']:.1f} turns, median {t['median']}, from {t['min']} to "
                 f"{t['max']}")
    if n and s["draws"] == n:
        lines.append("  every duel was a draw: the players never decided a duel (a degenerate run)")
    for key in SIDES:
        held = s["techniques"][key]
        if held:
            parts = [f"{card} {v['wins']}/{v['games']}" for card, v in held.items()]
            lines.append(f"  {key}'s techniques (wins/duels held): " + ", ".join(parts))
    if "stopping" in s:
        lines.append(f"  {s['stopping']['note']}")
    return lines


def duels_csv(results: Sequence[DuelResult], players: tuple[str, str]) -> str:
    """One row per duel (cells a spreadsheet would run as formulas are neutralised)."""
    rows: list[list[object]] = [["duel", "pair", "challenger", "challenger_player", "winner", "reason", "turns",
                                 "build_a", "build_b", "hand_a", "hand_b"]]
    for r in results:
        winner = "draw" if r.winner < 0 else SIDES[r.winner]
        rows.append([r.index + 1, r.index // 2 + 1, SIDES[r.challenger], players[r.challenger], winner, r.reason,
                     r.turns, build_name(r.builds[0]), build_name(r.builds[1]), "+".join(r.hands[0]),
                     "+".join(r.hands[1])])
    return csv_text(rows)
