"""Pages drawn in parallel (`duelkit build`): drawing a large deck's sheets is most of a build, and each page
is drawn alone into its own PDF (`page_cache.draw_page`), so the pages can be shared out among processes.

Processes are forked (POSIX), after this process has drawn the first page: the workers inherit the fonts
registered and the shared subsets already made (`shared_subsets`), and the pages themselves, so nothing is
pickled on the way in and only the PDFs come back. This process draws its share meanwhile (`jobs`
processes in all). A process running other threads (a server) draws alone: a fork copies only the forking
thread, and a lock another thread held would never be released in the copy. A page's bytes depend on the
page alone, so the files are the same whatever the number of processes. Where fork is unavailable, or for
few pages, they are drawn here.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Sequence

from toolkit.render.scene import Page

PAGES_PER_PROCESS = 8  # fewer pages than this per extra process: starting it costs more than it saves
SHARES_PER_PROCESS = 3  # pages are handed out in this many runs per process, so a slow run waits for no one

_pending: Sequence[Page] = ()  # the pages being drawn, for the forked workers to find


def usable_cpus() -> int:
    """The processors this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


def default_jobs() -> int:
    """This process and one more per idle processor (as `make -l` reads the load average): on a machine
    whose processors are busy with other work, more processes only add the cost of starting them."""
    cpus = usable_cpus()
    try:
        idle = cpus - os.getloadavg()[0]
    except (AttributeError, OSError):  # no load average (Windows)
        return cpus
    return max(1, min(cpus, 1 + int(idle + 0.5)))


def draw_pages(pages: Sequence[Page], jobs: int) -> list[bytes]:
    """Each page drawn alone as a one-page PDF, in order, by up to `jobs` processes."""
    from toolkit.render.page_cache import draw_page

    global _pending
    if not pages:
        return []
    first = draw_page(pages[0])  # here first: the workers inherit its fonts' subsets
    rest = pages[1:]
    jobs = min(jobs, len(rest) // PAGES_PER_PROCESS)
    if jobs < 2 or threading.active_count() > 1:
        return [first, *map(draw_page, rest)]  # forking beside other threads risks a lock held forever
    import multiprocessing  # here: drawing in one process does without it (a hundredth of a build)

    if "fork" not in multiprocessing.get_all_start_methods():
        return [first, *map(draw_page, rest)]
    own = len(rest) // jobs  # this process draws its share too, rather than wait for the others
    step = -(-(len(rest) - own) // ((jobs - 1) * SHARES_PER_PROCESS))
    runs = [(start, min(start + step, len(rest))) for start in range(own, len(rest), step)]
    _pending = rest
    try:
        with multiprocessing.get_context("fork").Pool(jobs - 1) as pool:
            theirs = pool.map_async(_draw_run, runs, chunksize=1)
            mine = _draw_run((0, own))
            drawn = theirs.get()
    finally:
        _pending = ()
    return [first, *mine, *(pdf for run in drawn for pdf in run)]


def _draw_run(run: tuple[int, int]) -> list[bytes]:
    from toolkit.render.page_cache import draw_page

    return [draw_page(page) for page in _pending[run[0]:run[1]]]
