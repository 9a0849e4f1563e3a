"""The sword-duel balance findings in words, for the terminal (the PDF lays out the same numbers)."""

from __future__ import annotations

from toolkit.sword.balance import Score, SwordBalance


def _score(score: Score) -> str:
    low, high = score.interval
    return f"{score.rate * 100:.0f}% ({low * 100:.0f}-{high * 100:.0f}%, {score.games} duels)"


def balance_lines(found: SwordBalance) -> list[str]:
    ranked = sorted(found.ratings.items(), key=lambda kv: -kv[1].rate)
    builds = sorted(found.builds.items(), key=lambda kv: -kv[1].rate)
    lines = [f"  players {found.players[0]} vs {found.players[1]}, {found.matchup_duels} duels per technique pair, "
             f"seed {found.seed}; scores count a draw as half a win, intervals are Wilson 95%"]
    lines.append("  techniques, strongest first: " + "; ".join(f"{name} {_score(s)}" for name, s in ranked))
    lines.append("  builds (Speed/Strength/Defense), best first: "
                 + "; ".join(f"{name} {_score(s)}" for name, s in builds[:4]) + " ... worst: "
                 + "; ".join(f"{name} {_score(s)}" for name, s in builds[-2:]))
    lines.append(f"  the Challenger in mirror matches: {_score(found.challenger)}")
    for label in ("with", "without"):
        f = found.honor.get(label)
        if f:
            low, high = f["challenger_interval"]
            lines.append(f"  {label} the honor rule: {f['duels']} drafted duels, {f['draws']} draws, mean "
                         f"{f['mean_turns']:.2f} turns, {f['long']} reached turn 4, the Challenger won "
                         f"{f['challenger_wins']}/{f['decisive']} decisive ({low * 100:.0f}-{high * 100:.0f}%); "
                         + ", ".join(f"{reason} {count}" for reason, count in f["ended"].items()))
    for name, why in found.outliers:
        lines.append(f"  outlier {name}: {why}")
    if not found.outliers:
        lines.append("  no outliers: every technique's and build's interval includes 50%")
    return lines
