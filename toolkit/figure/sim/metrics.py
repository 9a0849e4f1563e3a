"""Designer metrics of a set of games, as Ludii's metrics (Browne's aesthetic measures) and TAG's game reports
define them, so they can be compared with other games' figures:

    length spread   standard deviation and interquartile range of the game length in turns
    branching       the mean number of legal actions at a decision (Ludii: branching factor)
    real choice     the share of decisions with at least two legal actions besides passing (a decision
                    between acting one way and not acting is no real choice)
    lead changes    per game, how often the side ahead changed, ahead meaning a win probability above one
                    half by the search bot's evaluation, averaged over two consecutive turn starts so the
                    side about to move does not flip it every turn (Ludii: lead change)
    drama           per decisive game, how far behind the winner stood on average, 0 to 1 (Ludii: drama)
    coverage        the share of board nodes a unit stood on during the game (Ludii: board coverage)

Lead changes and drama read the fitted evaluation (bots/features.py), so they are as good as it is.
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from typing import Any

from toolkit.figure.sim.games import GameResult


def designer_metrics(results: Sequence[GameResult]) -> dict[str, Any]:
    measured = [r.metrics for r in results if r.metrics is not None]
    if not measured:
        return {}
    turns = sorted(r.turns for r in results)
    quartiles = statistics.quantiles(turns, n=4) if len(turns) > 1 else [turns[0]] * 3
    decisions = sum(m.decisions for m in measured)
    decisive = [r.metrics for r in results if r.metrics is not None and r.winner >= 0]
    return {
        "length_stdev": round(statistics.pstdev(turns), 3),
        "length_iqr": round(quartiles[2] - quartiles[0], 3),
        "branching_factor": round(sum(m.options for m in measured) / decisions, 3) if decisions else 0.0,
        "real_choice_share": round(sum(m.choices for m in measured) / decisions, 4) if decisions else 0.0,
        "lead_changes_per_game": round(statistics.fmean(m.lead_changes for m in measured), 3),
        "drama": round(statistics.fmean(m.drama for m in decisive), 4) if decisive else 0.0,
        "board_coverage": round(statistics.fmean(m.covered / m.nodes for m in measured), 4),
    }


def metrics_line(metrics: dict[str, Any]) -> str:
    if not metrics:
        return ""
    m = metrics
    return (f"  designer metrics: length spread {m['length_stdev']:.1f} turns (IQR {m['length_iqr']:g}), "
            f"branching {m['branching_factor']:.1f}, real choices {m['real_choice_share']:.0%} of decisions, "
            f"lead changes {m['lead_changes_per_game']:.2f}/game, drama {m['drama']:.2f}, "
            f"board coverage {m['board_coverage']:.0%}")
