"""Pages drawn by several processes (`build --jobs`, issue 28): the same bytes as drawn by one, and a default
that leaves a busy machine's processors to their work."""

from __future__ import annotations

import pytest

from toolkit.render import parallel
from toolkit.render.scene import Page, Rect, Style, Text


def test_pages_drawn_by_three_processes_are_those_drawn_by_one() -> None:
    pages = [Page(100, 100, [Rect(5, 5, 50, 20, Style(fill="#c81e1e"), radius=2),
                             Text(10, 10, f"page {n} \u0391\u03a9", 9, "bold" if n % 2 else "condensed")])
             for n in range(4 * parallel.PAGES_PER_PROCESS)]
    assert parallel.draw_pages(pages, 3) == parallel.draw_pages(pages, 1)


@pytest.mark.parametrize(("cpus", "load", "jobs"), [(4, 0.0, 4), (4, 2.0, 3), (4, 3.9, 1), (4, 9.0, 1), (2, 0.7, 2),
                                                    (1, 0.0, 1)])
def test_the_default_is_one_process_and_one_per_idle_processor(monkeypatch: pytest.MonkeyPatch, cpus: int,
                                                                 load: float, jobs: int) -> None:
    monkeypatch.setattr(parallel, "usable_cpus", lambda: cpus)
    monkeypatch.setattr(parallel.os, "getloadavg", lambda: (load, load, load))
    assert parallel.default_jobs() == jobs
