"""The start page (games, squads, cards drawn from the kit's scenes), the replay page, and that no page asks
anything of a machine other than this one."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import pytest

from tests.web.conftest import Studio, screenshot
from toolkit.cli import main
from toolkit.paths import bundled_root


def test_the_start_page_lists_games_squads_and_cards(studio: Studio, new_page: Any) -> None:
    page = new_page()
    page.goto(studio.url)
    for game in ("duel-protocol", "chimera", "sword-duel"):
        assert page.locator(f'section.game[data-game="{game}"]').count() == 1
    squads = page.locator('section[data-game="duel-protocol"] select[name="a"] option').all_inner_texts()
    assert "hydro-conductor" in squads
    assert "malfunction-cascade" in squads
    page.wait_for_selector('[data-cards-for="duel-protocol"] figure.card svg')
    cards = page.locator('[data-cards-for="duel-protocol"] figure.card')
    assert cards.count() >= 20  # every unit's schematic and the module cards
    assert cards.first.locator("svg text").count() > 5  # drawn from the scene: real text, not a picture
    page.wait_for_selector('[data-cards-for="sword-duel"] figure.card svg')
    screenshot(page, "start")
    # the form starts a game
    page.click('section[data-game="chimera"] [data-start-game]')
    page.wait_for_selector("svg.board")
    assert "/table/" in page.url
    assert not page.errors


@pytest.fixture(scope="module")
def recorded(tmp_path_factory: pytest.TempPathFactory) -> str:
    """A record written by `duelkit play --record` over the bundled data (in this process): a short game."""
    path = tmp_path_factory.mktemp("record") / "game.jsonl"
    code = main(["play", "hydro-conductor", "malfunction-cascade", str(bundled_root()), "--players", "random,random",
                 "--seed", "6", "--record", str(path)])
    assert code == 0
    return path.read_text(encoding="utf-8")


def test_replay_steps_through_a_record(studio: Studio, new_page: Any, tmp_path: Path, recorded: str) -> None:
    record = tmp_path / "game.jsonl"
    record.write_text(recorded, encoding="utf-8")
    lines = recorded.splitlines()
    page = new_page()
    page.goto(studio.url + "replay")
    page.set_input_files("input[data-record-input]", str(record))
    page.wait_for_selector("[data-replay]:not([hidden]) svg.board")
    steps = len(lines) - 2  # the header and the result line are not steps
    assert page.get_attribute("[data-step-slider]", "max") == str(steps)
    assert page.locator("[data-history] > li").count() == steps
    assert page.locator("[data-history] > li:not([hidden])").count() == 0  # step 0: nothing played yet
    page.click("[data-step-next]")
    page.wait_for_selector('[data-replay][data-step="1"]')
    page.click("[data-step-next]")
    page.wait_for_selector('[data-replay][data-step="2"]')
    assert page.locator("[data-history] > li:not([hidden])").count() == 2
    assert "step=2" in page.url
    page.click("[data-step-prev]")
    page.wait_for_selector('[data-replay][data-step="1"]')
    assert "step=1" in page.url
    page.fill("[data-step-slider]", str(steps))  # the slider: to the end
    page.wait_for_selector(f'[data-replay][data-step="{steps}"]')
    assert page.locator("[data-history] > li:not([hidden])").count() == steps
    assert "wins by" in page.inner_text("[data-replay-board] [data-status]") or \
        "draw" in page.inner_text("[data-replay-board] [data-status]")
    screenshot(page, "replay")
    # the URL keeps the step: reloading and loading the record again comes back there
    page.goto(studio.url + "replay?step=5")
    page.set_input_files("input[data-record-input]", str(record))
    page.wait_for_selector('[data-replay][data-step="5"] svg.board')
    assert "step 5 of" in page.inner_text("[data-step-label]")


def test_a_tampered_record_is_refused_at_its_line(studio: Studio, new_page: Any, tmp_path: Path,
                                                  recorded: str) -> None:
    record = tmp_path / "game.jsonl"
    lines = recorded.splitlines()
    row = json.loads(lines[5])
    if "spin" in row:
        row["spin"]["segment"] = 99
    else:
        row["action"] = {"kind": "move", "unit": "A:nowhere", "to": "r0c0"}
    lines[5] = json.dumps(row)
    record.write_text("\n".join(lines) + "\n", encoding="utf-8")
    page = new_page()
    page.goto(studio.url + "replay")
    page.set_input_files("input[data-record-input]", str(record))
    page.wait_for_selector("[data-replay-problem]:not([hidden])")
    assert "line 6" in page.inner_text("[data-replay-problem]")
    # not a record at all
    junk = tmp_path / "junk.jsonl"
    junk.write_text("hello\n", encoding="utf-8")
    page.set_input_files("input[data-record-input]", str(junk))
    page.wait_for_selector("[data-replay-problem]:not([hidden])")
    problem = page.inner_text("[data-replay-problem]")
    assert "not JSON" in problem or "record" in problem


def test_no_request_leaves_127_0_0_1(studio: Studio, new_page: Any, requests_seen: list[str]) -> None:
    page = new_page()
    page.goto(studio.url)
    page.wait_for_selector('[data-cards-for="chimera"] figure.card svg')
    page.goto(studio.url + "play?game=chimera&a=attrition-lock&b=grid-surge&players=human,greedy&seed=5")
    page.wait_for_selector("[data-status][data-mine]")
    page.goto(studio.url + "play?game=sword-duel&players=human,random&seed=1")
    page.wait_for_selector("[data-private]")
    page.goto(studio.url + "replay")
    assert studio.host in {urlparse(url).netloc for url in requests_seen}
    # every page of every test so far (this studio's and the live-reload test's): none asked another machine
    away = sorted({url for url in requests_seen if not url.startswith(("http://127.0.0.1:", "data:"))})
    assert not away, f"requests left this machine: {away[:5]}"


@pytest.fixture(scope="module")
def sword_recorded(tmp_path_factory: pytest.TempPathFactory) -> str:
    """What `duelkit play --record` writes in a sword-duel project made by `duelkit new`."""
    root = tmp_path_factory.mktemp("sword")
    assert main(["new", str(root / "duel"), "--theme", "sword-duel"]) == 0
    path = root / "duel.jsonl"
    assert main(["play", str(root / "duel"), "--players", "greedy,random", "--seed", "4", "--record", str(path)]) == 0
    return path.read_text(encoding="utf-8")


def test_replay_steps_through_a_sword_record_and_names_a_tampered_line(studio: Studio, new_page: Any, tmp_path: Path,
                                                                     sword_recorded: str) -> None:
    record = tmp_path / "duel.jsonl"
    record.write_text(sword_recorded, encoding="utf-8")
    lines = sword_recorded.splitlines()
    steps = len(lines) - 2  # the header and the result line are not steps
    page = new_page()
    page.goto(studio.url + "replay")
    page.set_input_files("input[data-record-input]", str(record))
    page.wait_for_selector("[data-replay]:not([hidden]) [data-replay-board] [data-status]")
    assert page.get_attribute("[data-step-slider]", "max") == str(steps)
    assert "the sword duel" in page.inner_text("[data-replay-title]")
    assert page.inner_text("[data-replay-board] [data-status]") == "the draft"
    page.click("[data-step-next]")
    page.wait_for_selector('[data-replay][data-step="1"]')
    assert "Chance removes at random" in page.locator("[data-history] > li").first.inner_text()
    first_turn = next(i for i, line in enumerate(lines) if line.startswith('{"turn": 1,'))  # its step number
    page.fill("[data-step-slider]", str(first_turn))
    page.wait_for_selector(f'[data-replay][data-step="{first_turn}"] [data-range-track]')
    assert page.locator("[data-replay-board] [data-build]").count() == 2  # a record knows both builds
    assert "Turn 1 at apart" in page.locator("[data-history] > li.current").inner_text()
    assert f"step={first_turn}" in page.url
    page.fill("[data-step-slider]", str(steps))
    page.wait_for_selector(f'[data-replay][data-step="{steps}"]')
    end = page.inner_text("[data-replay-board] [data-status]")
    assert "wins by" in end or "draw" in end
    assert page.locator("[data-replay-problem]").is_hidden()
    assert not page.errors
    screenshot(page, "replay-sword")
    # a turn the rules do not allow: refused at its line, as `duelkit replay` refuses it; the steps before it show
    item = json.loads(lines[first_turn])
    item["A"] = {"move": "advance", "technique": 0, "action": "defend", "insight": "speed"}
    lines[first_turn] = json.dumps(item)
    tampered = tmp_path / "tampered.jsonl"
    tampered.write_text("\n".join(lines) + "\n", encoding="utf-8")
    page.set_input_files("input[data-record-input]", str(tampered))
    page.wait_for_selector("[data-replay-problem]:not([hidden])")
    assert f"line {first_turn + 1}:" in page.inner_text("[data-replay-problem]")
    assert page.get_attribute("[data-step-slider]", "max") == str(first_turn - 1)
