"""Playing in the browser: a figure game of each theme to its end against the greedy player, undo and redo,
exact odds before a battle, the move log, and two browsers each taking a seat."""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from tests.web.conftest import Studio, new_version, screenshot, wait_for_turn

MAX_CLICKS = 80  # the chosen games end far sooner against greedy; this only stops a broken page


def _play_url(studio: Studio, game: str, a: str, b: str, players: str, seed: int) -> str:
    return studio.url + "play?" + urlencode({"game": game, "a": a, "b": b, "players": players, "seed": seed})


def _click_first_action(page: Any) -> None:
    """Our deterministic policy: the first offered action."""
    version = page.get_attribute("#table", "data-version")
    page.click("[data-actions] [data-action]")
    new_version(page, version)


def _play_to_end(page: Any) -> int:
    clicks = 0
    while True:
        wait_for_turn(page)
        if page.query_selector("[data-status][data-over]"):
            return clicks
        _click_first_action(page)
        clicks += 1
        assert clicks < MAX_CLICKS, "the game did not end"


def test_a_chimera_game_to_its_end_against_greedy(studio: Studio, new_page: Any) -> None:
    page = new_page()
    page.goto(_play_url(studio, "chimera", "attrition-lock", "grid-surge", "human,greedy", 5))
    assert page.locator("svg.board [data-node]").count() == 28
    assert page.locator('svg.board [data-node="r4c3"].goal').count() == 1
    clicks = _play_to_end(page)
    assert clicks >= 3
    status = page.inner_text("[data-status]")
    assert "wins by" in status or "draw" in status
    log = page.locator("[data-history] > li")
    assert log.count() > clicks  # the computer's replies and the spins are in the log too
    assert page.locator("[data-history] li.spin").count() >= 1
    assert page.locator("[data-history] .result").count() >= 1  # results in words
    assert not page.errors
    screenshot(page, "play-chimera-end")


def test_a_duel_protocol_game_to_its_end_and_its_record(studio: Studio, new_page: Any) -> None:
    page = new_page()
    page.goto(_play_url(studio, "duel-protocol", "hydro-conductor", "hydro-conductor", "human,greedy", 5))
    _play_to_end(page)
    assert "wins by" in page.inner_text("[data-status]")
    assert not page.errors
    screenshot(page, "play-duel-protocol-end")
    with page.expect_download() as download:
        page.click("a.record")
    text = Path(download.value.path()).read_text(encoding="utf-8")
    assert text.startswith('{"record": "duelkit-game-record"')
    assert '"result"' in text.splitlines()[-1]


def test_tokens_hangar_and_repair_bay(studio: Studio, new_page: Any) -> None:
    page = new_page()
    page.goto(_play_url(studio, "chimera", "attrition-lock", "grid-surge", "human,greedy", 5))
    wait_for_turn(page)
    token = page.locator("svg.board .token").first
    assert token.locator("text.name").text_content()  # a token shows its unit's name
    assert page.locator('[data-zone="hangar-A"] li[data-unit]').count() >= 1
    assert page.locator('[data-zone="bay-A"]').count() == 1
    # a unit, then a highlighted destination: the board's target carries the action
    unit = page.locator('[data-zone="hangar-A"] li[data-unit]').first
    slot = unit.get_attribute("data-unit")
    unit.click()
    targets = page.locator(f'svg.board .target.show[data-unit="{slot}"]')
    assert targets.count() >= 1
    version = page.get_attribute("#table", "data-version")
    targets.first.click()
    new_version(page, version)
    assert page.locator(f'svg.board .token[data-unit="{slot}"]').count() == 1


def test_exact_odds_before_a_battle_then_spins_and_the_result(studio: Studio, new_page: Any) -> None:
    page = new_page()
    page.goto(_play_url(studio, "chimera", "attrition-lock", "grid-surge", "human,greedy", 5))
    for _ in range(MAX_CLICKS):
        wait_for_turn(page)
        attack = page.locator('[data-actions] [data-action][data-kind="attack"]')
        if attack.count():
            break
        assert not page.query_selector("[data-status][data-over]"), "no battle was offered in this game"
        _click_first_action(page)
    odds = attack.first.locator("xpath=..").locator("[data-odds] li")
    assert odds.count() >= 2
    assert "%" in odds.first.inner_text()
    assert "/" in odds.first.inner_text()
    screenshot(page, "play-odds")
    before = page.locator("[data-history] > li").count()
    version = page.get_attribute("#table", "data-version")
    attack.first.click()
    new_version(page, version)
    wait_for_turn(page)
    if page.locator('[data-actions] [data-kind="respin"]').count():  # our re-spin module is offered: keep the spin
        version = page.get_attribute("#table", "data-version")
        page.click('[data-actions] [data-kind="pass"]')
        new_version(page, version)
    items = page.locator("[data-history] > li")
    added = [items.nth(i).inner_text() for i in range(before, items.count())]
    assert any(line.startswith("spin (") and ", battle):" in line for line in added)
    assert any("battle:" in line for line in added)


def test_undo_takes_back_the_move_and_the_reply_and_redo_replays_them(studio: Studio, new_page: Any) -> None:
    page = new_page()
    page.goto(_play_url(studio, "duel-protocol", "hydro-conductor", "malfunction-cascade", "human,greedy", 3))
    wait_for_turn(page)
    _click_first_action(page)
    wait_for_turn(page)
    _click_first_action(page)
    wait_for_turn(page)
    log_before = page.locator("[data-history] > li").all_inner_texts()
    version = page.get_attribute("#table", "data-version")
    page.click("[data-undo]")
    new_version(page, version)
    after_undo = page.locator("[data-history] > li").all_inner_texts()
    assert len(after_undo) < len(log_before)
    assert after_undo == log_before[:len(after_undo)]
    removed = log_before[len(after_undo):]
    assert removed[0].startswith("A")  # our last action ...
    assert any(line.startswith("B") for line in removed)  # ... and the computer's reply
    version = page.get_attribute("#table", "data-version")
    page.click("[data-redo]")
    page.wait_for_selector("[data-redo][disabled]")
    assert page.locator("[data-history] > li").all_inner_texts() == log_before


def _whose_turn(*pages: Any) -> Any:
    for _ in range(100):
        for page in pages:
            if page.query_selector("[data-status][data-mine]"):
                return page
        pages[0].wait_for_timeout(100)
    raise AssertionError("neither browser is offered a move")


def test_two_browsers_each_take_a_seat_with_the_links_token(studio: Studio, new_page: Any) -> None:
    host = new_page()
    host.goto(_play_url(studio, "chimera", "attrition-lock", "grid-surge", "human,human", 2))
    link = host.get_attribute("[data-invite]", "href")
    assert link
    assert "seat=" in link
    guest = new_page()
    # without the token there is no seat
    guest.goto(link.split("?")[0] + "?seat=not-the-token")
    assert guest.locator("[data-error]").count() == 1
    guest.goto(link)
    guest.wait_for_selector("[data-status]")
    host.reload()
    for _ in range(3):  # each browser acts only on its own turns
        mover = _whose_turn(host, guest)
        other = guest if mover is host else host
        assert other.locator("[data-actions] [data-action]").count() == 0
        version = other.get_attribute("#table", "data-version")
        _click_first_action(mover)
        new_version(other, version)  # the other browser sees the move (it polls)
        if mover.query_selector("[data-status][data-over]"):
            break
    screenshot(host, "play-two-browsers-host")


def test_the_board_names_its_points_beside_their_circles(studio: Studio, new_page: Any) -> None:
    """Each point shows the name `play` and the records use (a goal or an entry also its theme's word), and no
    name overlaps another name or a point's circle."""
    page = new_page()
    page.goto(_play_url(studio, "duel-protocol", "hydro-conductor", "malfunction-cascade", "human,greedy", 3))
    wait_for_turn(page)
    names = page.locator("svg.board [data-point-name]")
    assert names.count() == page.locator("svg.board [data-node]").count() == 28
    assert page.locator('svg.board [data-point-name="i1c0"]').text_content() == "i1c0"
    assert page.locator('svg.board [data-point-name="r4c0"]').text_content() == "Entry Point Ar4c0"  # two lines
    assert page.locator('svg.board [data-point-name="r0c3"]').text_content() == "Goal Point Br0c3"
    boxes = page.evaluate("""() => {
        const box = (e) => { const b = e.getBoundingClientRect(); return [b.left, b.top, b.right, b.bottom]; };
        return {names: [...document.querySelectorAll('svg.board [data-point-name]')].map(box),
                circles: [...document.querySelectorAll('svg.board .node circle')].map(box)}; }""")

    def overlap(a: list[float], b: list[float]) -> bool:
        return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]

    named = boxes["names"]
    assert min(b[3] - b[1] for b in named) >= 8  # CSS pixels: a readable size at the page's board width
    for i, a in enumerate(named):
        assert not any(overlap(a, b) for b in named[i + 1:])
        assert not any(overlap(a, c) for c in boxes["circles"])
    screenshot(page, "board-point-names")
