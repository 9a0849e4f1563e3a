"""Pages drawn by several processes (`build --jobs`, issue 28): the same bytes as drawn by one, and a default
that leaves a busy machine's processors to their work."""

from __future__ import annotations

import multiprocessing
import threading
from typing import Any

import pytest

from toolkit.render import parallel
from toolkit.render.scene import Page, Rect, Style, Text

PAGES = [Page(100, 100, [Rect(5, 5, 50, 20, Style(fill="#c81e1e"), radius=2),
                         Text(10, 10, f"page {n} \u0391\u03a9", 9, "bold" if n % 2 else "condensed")])
         for n in range(4 * parallel.PAGES_PER_PROCESS)]


@pytest.fixture
def forks(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The process pools `draw_pages` starts."""
    started: list[str] = []
    real = multiprocessing.get_context

    def get_context(method: str) -> Any:
        started.append(method)
        return real(method)

    monkeypatch.setattr(multiprocessing, "get_context", get_context)  # the module draw_pages imports when it forks
    return started


def test_pages_drawn_by_three_processes_are_those_drawn_by_one(forks: list[str]) -> None:
    assert parallel.draw_pages(PAGES, 3) == parallel.draw_pages(PAGES, 1)
    assert forks == ["fork"]  # the first call forked, the second did not


def test_a_process_with_other_threads_draws_alone(forks: list[str]) -> None:
    stop = threading.Event()
    other = threading.Thread(target=stop.wait)
    other.start()
    try:
        assert parallel.draw_pages(PAGES, 3) == parallel.draw_pages(PAGES, 1)
    finally:
        stop.set()
        other.join()
    assert forks == []


@pytest.mark.parametrize(("cpus", "load", "jobs"), [(4, 0.0, 4), (4, 2.0, 3), (4, 3.9, 1), (4, 9.0, 1), (2, 0.7, 2),
                                                    (1, 0.0, 1)])
def test_the_default_is_one_process_and_one_per_idle_processor(monkeypatch: pytest.MonkeyPatch, cpus: int,
                                                                 load: float, jobs: int) -> None:
    monkeypatch.setattr(parallel, "usable_cpus", lambda: cpus)
    monkeypatch.setattr(parallel.os, "getloadavg", lambda: (load, load, load))
    assert parallel.default_jobs() == jobs
