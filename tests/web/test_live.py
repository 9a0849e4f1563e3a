"""Live reload: saving a YAML file of the project updates the open pages; invalid data shows its problems in
the page as `validate` words them; a game in play keeps its data and offers a restart."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.web.conftest import Studio, screenshot

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


@pytest.fixture(scope="module")
def project_studio(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Studio, Path]]:
    project = tmp_path_factory.mktemp("live") / "project"
    shutil.copytree(FIXTURES / "base", project)
    running = Studio(project)  # started from inside the project: the project where you stand
    yield running, project
    running.stop()


def test_a_save_updates_the_start_page_and_shows_problems(project_studio: tuple[Studio, Path],
                                                          new_page: Any) -> None:
    studio, project = project_studio
    unit = project / "unit_data" / "alpha.yaml"
    good = unit.read_text(encoding="utf-8")
    page = new_page()
    page.goto(studio.url)
    page.wait_for_selector('[data-cards-for="duel-protocol"] figure.card svg')
    assert "Alpha Scout" in page.inner_text('[data-cards-for="duel-protocol"]')
    play = new_page()
    play.goto(studio.url + "play?game=duel-protocol&a=test-squad&b=test-squad&players=human,greedy&seed=1")
    play.wait_for_selector("[data-status]")
    assert play.locator("[data-live-note]").is_hidden()

    unit.write_text(good.replace("size: 28", "size: 20"), encoding="utf-8")  # the disk no longer sums to 96
    page.wait_for_selector("[data-problems]", timeout=20_000)
    problems = page.inner_text("[data-problems]")
    assert "alpha.yaml:" in problems
    assert "96" in problems
    screenshot(page, "start-with-problems")
    play.wait_for_selector("[data-live-note]:not([hidden])", timeout=20_000)  # the running game offers a restart
    assert play.locator("svg.board").count() == 1  # and keeps its board
    screenshot(play, "play-data-changed")

    unit.write_text(good.replace("Alpha Scout", "Alpha Ranger"), encoding="utf-8")
    page.wait_for_selector("[data-problems]", state="detached", timeout=20_000)
    page.wait_for_selector('[data-cards-for="duel-protocol"] figure.card svg')
    assert "Alpha Ranger" in page.inner_text('[data-cards-for="duel-protocol"]')
    # a game started now uses the new data
    play.click("[data-live-note] a")
    play.wait_for_selector("svg.board")
    assert "Alpha Ranger" in play.inner_text("[data-zone='hangar-A']")
