"""Where the pairs are played: in this process, in a local process pool (`--jobs K`), or as Ray tasks on a
cluster (`--cluster auto|ADDRESS`, the optional extra `duelkit[cluster]`).

Every pair is a pure function of its task, and results are put back in pair order, so the three give
the same results for the same seed. The compiled GameTables goes to each worker once (pool initializer, or
`ray.put`), not with every task.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from typing import Any

from toolkit.errors import DuelkitError, UsageError
from toolkit.figure.engine.tables import GameTables
from toolkit.figure.sim.games import GameResult, PairTask, play_pair

Progress = Callable[[int], None]  # called with the number of games just finished
MAX_JOBS = 256
IN_FLIGHT_PER_JOB = 4  # tasks queued per worker: enough to keep it busy, few enough to stop promptly


class ClusterError(DuelkitError):
    """Ray is missing, or the cluster cannot be reached."""


def play_pairs(game: GameTables, tasks: Sequence[PairTask], jobs: int = 1, cluster: str | None = None,
               progress: Progress | None = None) -> list[GameResult]:
    """Both games of every task, in task order."""
    if not 1 <= jobs <= MAX_JOBS:
        raise UsageError(f"--jobs is a whole number from 1 to {MAX_JOBS}")
    if cluster is not None:
        return _on_ray(game, tasks, cluster, progress)
    if jobs == 1 or len(tasks) <= 1:
        results: list[GameResult] = []
        for task in tasks:
            results += play_pair(game, task)
            if progress:
                progress(2)
        return results
    return _in_pool(game, tasks, jobs, progress)


_WORKER_GAME: GameTables | None = None


def _init_worker(game: GameTables) -> None:
    global _WORKER_GAME
    _WORKER_GAME = game


def _worker_pair(task: PairTask) -> tuple[GameResult, GameResult]:
    assert _WORKER_GAME is not None
    return play_pair(_WORKER_GAME, task)


def _in_pool(game: GameTables, tasks: Sequence[PairTask], jobs: int, progress: Progress | None) -> list[GameResult]:
    done: dict[int, tuple[GameResult, GameResult]] = {}
    with ProcessPoolExecutor(max_workers=min(jobs, len(tasks)), initializer=_init_worker,
                             initargs=(game,)) as pool:
        pending: dict[Any, int] = {}
        queue = list(enumerate(tasks))
        queue.reverse()
        try:
            while queue or pending:
                while queue and len(pending) < jobs * IN_FLIGHT_PER_JOB:
                    position, task = queue.pop()
                    pending[pool.submit(_worker_pair, task)] = position
                finished, _ = wait(pending, return_when=FIRST_COMPLETED)
                for future in finished:
                    done[pending.pop(future)] = future.result()
                    if progress:
                        progress(2)
        except BaseException:  # interrupted: do not wait for the queued games
            pool.shutdown(wait=False, cancel_futures=True)
            raise
    return [result for position in range(len(tasks)) for result in done[position]]


def _on_ray(game: GameTables, tasks: Sequence[PairTask], address: str, progress: Progress | None) -> list[GameResult]:
    try:
        import ray
    except ImportError:
        raise ClusterError("--cluster needs Ray: pip install 'duelkit[cluster]'") from None
    started_here = False
    if not ray.is_initialized():
        try:
            if address == "local":  # a Ray instance of this machine only (tests)
                ray.init(num_cpus=os.cpu_count() or 1, include_dashboard=False, log_to_driver=False)
            else:
                ray.init(address=address, include_dashboard=False, log_to_driver=False)
        except Exception as exc:
            raise ClusterError(f"cannot reach the Ray cluster '{address}': {exc}") from None
        started_here = True
    try:
        remote_pair = ray.remote(_ray_pair)
        game_ref = ray.put(game)
        refs = [remote_pair.remote(game_ref, task) for task in tasks]
        position = {ref: i for i, ref in enumerate(refs)}
        done: dict[int, tuple[GameResult, GameResult]] = {}
        waiting = list(refs)
        while waiting:
            ready, waiting = ray.wait(waiting, num_returns=1)
            for ref in ready:
                done[position[ref]] = ray.get(ref)
                if progress:
                    progress(2)
        return [result for i in range(len(tasks)) for result in done[i]]
    finally:
        if started_here:
            ray.shutdown()


def _ray_pair(game: GameTables, task: PairTask) -> tuple[GameResult, GameResult]:
    return play_pair(game, task)
