"""Where a simulation's tasks are played: in this process, in a local process pool (`--jobs K`), or as Ray
tasks on a cluster (`--cluster auto|ADDRESS`, the optional extra `duelkit[cluster]`).

A game's simulator gives a context (its compiled data, sent to each worker once: pool initializer or
`ray.put`) and a module-level function `play(context, task) -> results`. Every task is a pure function
of its inputs and results are put back in task order, so the three places give the same results.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from typing import Any, TypeVar

from toolkit.errors import DuelkitError, UsageError

Progress = Callable[[int], None]  # called with the number of games just finished
MAX_JOBS = 256
IN_FLIGHT_PER_JOB = 4  # tasks queued per worker: enough to keep it busy, few enough to stop promptly

C = TypeVar("C")
T = TypeVar("T")
R = TypeVar("R")


class ClusterError(DuelkitError):
    """Ray is missing, or the cluster cannot be reached."""


def run_tasks(play: Callable[[C, T], tuple[R, ...]], context: C, tasks: Sequence[T], jobs: int = 1,
              cluster: str | None = None, progress: Progress | None = None) -> list[R]:
    """Every result of every task, in task order; `progress` hears of each task's results as they come."""
    if not 1 <= jobs <= MAX_JOBS:
        raise UsageError(f"--jobs is a whole number from 1 to {MAX_JOBS}")
    if cluster is not None:
        return _on_ray(play, context, tasks, cluster, progress)
    if jobs == 1 or len(tasks) <= 1:
        results: list[R] = []
        for task in tasks:
            done = play(context, task)
            results += done
            if progress:
                progress(len(done))
        return results
    return _in_pool(play, context, tasks, jobs, progress)


_WORKER: tuple[Callable[[Any, Any], tuple[Any, ...]], Any] | None = None


def _init_worker(play: Callable[[Any, Any], tuple[Any, ...]], context: Any) -> None:
    global _WORKER
    _WORKER = (play, context)


def _worker_task(task: Any) -> tuple[Any, ...]:
    assert _WORKER is not None
    play, context = _WORKER
    return play(context, task)


def _in_pool(play: Callable[[C, T], tuple[R, ...]], context: C, tasks: Sequence[T], jobs: int,
             progress: Progress | None) -> list[R]:
    done: dict[int, tuple[R, ...]] = {}
    with ProcessPoolExecutor(max_workers=min(jobs, len(tasks)), initializer=_init_worker,
                             initargs=(play, context)) as pool:
        pending: dict[Any, int] = {}
        queue = list(enumerate(tasks))
        queue.reverse()
        try:
            while queue or pending:
                while queue and len(pending) < jobs * IN_FLIGHT_PER_JOB:
                    position, task = queue.pop()
                    pending[pool.submit(_worker_task, task)] = position
                finished, _ = wait(pending, return_when=FIRST_COMPLETED)
                for future in finished:
                    position = pending.pop(future)
                    done[position] = future.result()
                    if progress:
                        progress(len(done[position]))
        except BaseException:  # interrupted: do not wait for the queued games
            pool.shutdown(wait=False, cancel_futures=True)
            raise
    return [result for position in range(len(tasks)) for result in done[position]]


def _on_ray(play: Callable[[C, T], tuple[R, ...]], context: C, tasks: Sequence[T], address: str,
            progress: Progress | None) -> list[R]:
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
        remote = ray.remote(_ray_task)
        context_ref = ray.put(context)
        refs = [remote.remote(play, context_ref, task) for task in tasks]
        position = {ref: i for i, ref in enumerate(refs)}
        done: dict[int, tuple[R, ...]] = {}
        waiting = list(refs)
        while waiting:
            ready, waiting = ray.wait(waiting, num_returns=1)
            for ref in ready:
                done[position[ref]] = ray.get(ref)
                if progress:
                    progress(len(done[position[ref]]))
        return [result for i in range(len(tasks)) for result in done[i]]
    finally:
        if started_here:
            ray.shutdown()


def _ray_task(play: Callable[[Any, Any], tuple[Any, ...]], context: Any, task: Any) -> tuple[Any, ...]:
    return play(context, task)
