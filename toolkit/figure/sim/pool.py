"""Where the pairs of a figure-duel simulation are played: the shared pool (`toolkit.selfplay.pool`: this
process, `--jobs K` local processes, or Ray with `--cluster`), given the compiled GameTables as the context
each worker receives once.
"""

from __future__ import annotations

from collections.abc import Sequence

from toolkit.figure.engine.tables import GameTables
from toolkit.figure.sim.games import GameResult, PairTask, play_pair
from toolkit.selfplay.pool import MAX_JOBS, ClusterError, Progress, run_tasks

__all__ = ["MAX_JOBS", "ClusterError", "Progress", "play_pairs"]


def play_pairs(game: GameTables, tasks: Sequence[PairTask], jobs: int = 1, cluster: str | None = None,
               progress: Progress | None = None) -> list[GameResult]:
    """Both games of every task, in task order."""
    return run_tasks(play_pair, game, tasks, jobs, cluster, progress)
