"""The sword duel in the browser: the draft, secret builds and a turn of secret choices revealed together,
hot-seat behind a "pass the device" screen, and two browsers that each see only their own secrets."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.web.conftest import Studio, new_version, screenshot
from toolkit.cli import main
from toolkit.paths import bundled_root


def _do(page: Any, selector: str) -> None:
    version = page.get_attribute("#table", "data-version")
    page.click(selector)
    new_version(page, version)


def _hotseat_step(page: Any, decide: str) -> None:
    """Pass the device, check the other player's secrets are hidden, decide."""
    assert page.locator("[data-private]").count() == 0  # the curtain hides every hand
    _do(page, "[data-pass-device] [data-action=show]")
    assert page.locator("[data-private]").count() == 1
    _do(page, decide)


def test_a_hot_seat_sword_duel_turn(studio: Studio, new_page: Any) -> None:
    page = new_page()
    page.goto(studio.url + "play?game=sword-duel&players=human,human&seed=3")
    page.wait_for_selector("[data-pass-device]")
    screenshot(page, "sword-pass-device")
    # the draft: Challenger, Defender take one each; Challenger takes one and discards one; Defender takes one
    for hands in ("Challenger", "Defender", "Challenger", "Challenger", "Defender"):
        if page.locator("[data-pass-device]").count():
            _hotseat_step(page, "[data-private] [data-action=pick]")  # hides the other hand, then decides
        else:
            assert hands == "Challenger"  # the Challenger's discard follows its own pick: no need to pass
            assert "discard one" in page.inner_text("[data-private]")
            _do(page, "[data-private] [data-action=pick]")
    taken = []
    for _ in range(2):  # secret builds
        _do(page, "[data-pass-device] [data-action=show]")
        taken.append(page.inner_text("[data-private] h2"))
        _do(page, "[data-private] [data-action=build]")
    assert taken == ["Your hand (Challenger)", "Your hand (Defender)"]
    page.wait_for_selector("[data-range-track] [data-range=apart].here")
    # turn 1: both advance; the first choice stays secret until the second is locked in
    _do(page, "[data-pass-device] [data-action=show]")
    page.check("[data-choice-form] input[name=move][value=advance]")
    screenshot(page, "sword-choice")
    _do(page, "[data-choice-form] [data-lock-in]")
    assert page.locator("[data-history] li").count() == 0  # nothing revealed yet
    _do(page, "[data-pass-device] [data-action=show]")
    page.check("[data-choice-form] input[name=move][value=advance]")
    page.check("[data-choice-form] input[name=card][value=insight]")
    page.select_option("[data-choice-form] select[name=insight]", "strength")
    _do(page, "[data-choice-form] [data-lock-in]")
    log = page.locator("[data-history]").inner_text()
    assert "Challenger plays Advance; Defender plays Advance + Insight" in log
    assert "Range: apart -> sword" in log
    # on the shared screen the Insight says what was looked at, not what was seen
    assert "Defender gains Insight into the opponent's strength" in log
    assert "strength is" not in log
    page.wait_for_selector("[data-range-track] [data-range=sword].here")
    # behind the curtain, the Defender sees what its Insight learned
    _do(page, "[data-pass-device] [data-action=show]")
    assert "nothing yet" in page.inner_text("[data-private] [data-knows]")  # the Challenger learned nothing
    screenshot(page, "sword-after-reveal")


def test_two_browsers_each_see_only_their_own_secrets(studio: Studio, new_page: Any) -> None:
    host = new_page()
    host.goto(studio.url + "play?game=sword-duel&players=human,human&seed=4")
    link = host.get_attribute("[data-invite]", "href")
    guest = new_page()
    guest.goto(link)
    guest.wait_for_selector("[data-private]")
    host.reload()
    host.wait_for_selector("[data-private]")
    assert host.locator("[data-pass-device]").count() == 0  # two devices: no curtain
    assert host.inner_text("[data-private] h2") == "Your hand (Challenger)"
    assert guest.inner_text("[data-private] h2") == "Your hand (Defender)"
    _do(host, "[data-private] [data-action=pick]")
    host_card = host.locator("[data-private] [data-technique]").first.get_attribute("data-technique")
    guest.wait_for_selector("[data-private] [data-action=pick]")
    assert guest.locator(f'[data-private] [data-technique="{host_card}"]').count() == 0  # taken, and not shown
    _do(guest, "[data-private] [data-action=pick]")
    assert host.locator("[data-private] [data-technique]").count() >= 1
    # the rest of the draft and the builds, each on its own screen
    for page in (host, host, guest):  # the Challenger takes one and discards one, the Defender takes the last
        page.wait_for_selector("[data-private] [data-action=pick]")
        _do(page, "[data-private] [data-action=pick]")
    for page in (host, guest):
        page.wait_for_selector("[data-private] [data-action=build]")
        _do(page, "[data-private] [data-action=build]")
    # what the host has ticked survives the new view the guest's lock-in brings
    host.wait_for_selector('form[data-form-key="turn-1-A"]')
    host.check("[data-choice-form] input[name=move][value=advance]")
    host.check("[data-choice-form] input[name=card][value=insight]")
    before = host.get_attribute("#table", "data-version")
    guest.wait_for_selector('form[data-form-key="turn-1-B"]')
    _do(guest, "[data-choice-form] [data-lock-in]")
    new_version(host, before)  # the host's page polled the table and drew it again
    assert host.is_checked("[data-choice-form] input[name=move][value=advance]")
    assert host.is_checked("[data-choice-form] input[name=card][value=insight]")
    _do(host, "[data-choice-form] [data-lock-in]")
    guest.wait_for_selector("[data-history] li[data-turn]")
    assert "Challenger plays Advance + Insight; Defender plays no card" in guest.inner_text("[data-history]")


MAX_DECISIONS = 80  # a duel ends by turn 10; this only stops a broken page
OPEN = "[data-pass-device], [data-private] [data-action], [data-choice-form], [data-status][data-over]"


def _clear_error(page: Any) -> None:
    page.evaluate("() => document.querySelectorAll('#table [data-error]').forEach((e) => e.remove())")


def _lock_in(page: Any, move: str, card: str) -> bool:
    """Fill in the secret choice and lock it in; whether the table took it (False: it said why not)."""
    form = page.locator("[data-choice-form]")
    key = form.get_attribute("data-form-key")
    page.check(f"[data-choice-form] input[name=move][value={move}]")
    page.check(f"[data-choice-form] input[name=card][value={card}]")
    _clear_error(page)
    page.click("[data-choice-form] [data-lock-in]")
    page.wait_for_selector(f'#table [data-error], #table:not(:has(form[data-form-key="{key}"]))')
    return page.locator("#table [data-error]").count() == 0


def _decide(page: Any, builds: dict[str, str], plans: dict[str, list[tuple[str, str]]]) -> str:
    """One decision of whoever holds the device: the first card offered, the player's build, or the first of
    the player's (move, card) plans the rules allow. Returns the role that decided."""
    role = page.inner_text("[data-private] h2").split("(")[1].rstrip(")")
    if page.locator("[data-private] [data-action=pick]").count():
        _do(page, "[data-private] [data-action=pick]")
    elif page.locator("[data-private] [data-action=build]").count():
        _do(page, f"[data-private] [data-action=build]{builds[role]}")
    else:
        assert any(_lock_in(page, move, card) for move, card in plans[role]), "no plan was allowed"
    return role


def test_a_whole_sword_duel_played_hot_seat_to_its_end(studio: Studio, new_page: Any, tmp_path: Path) -> None:
    page = new_page()
    page.goto(studio.url + "play?game=sword-duel&players=human,human&seed=3")
    builds = {"Challenger": '[data-field-speed="2"][data-field-strength="2"]',
              "Defender": '[data-field-speed="1"][data-field-strength="2"]'}
    plans = {"Challenger": [("advance", "attack"), ("stay", "attack"), ("stay", "none")],
             "Defender": [("stay", "defend"), ("stay", "attack"), ("stay", "none")]}
    deciders = []
    for _ in range(MAX_DECISIONS):
        page.wait_for_selector(OPEN)
        if page.locator("[data-status][data-over]").count():
            break
        if page.locator("[data-pass-device]").count():
            assert page.locator("[data-private]").count() == 0  # behind the curtain, no hand shows
            _do(page, "[data-pass-device] [data-action=show]")
        deciders.append(_decide(page, builds, plans))
    status = page.inner_text("[data-status]")
    assert "wins by" in status or "draw" in status, status
    assert deciders.count("Challenger") >= 5  # three draft decisions, a build, at least one turn
    assert deciders.count("Defender") >= 4
    log = page.locator("[data-history]").inner_text()
    assert "Turn 1 at apart" in log
    assert page.locator("[data-history] li[data-turn]").count() >= 2  # more than one turn was revealed
    assert not page.errors
    assert page.locator("[data-duelist] [data-build]").count() == 2  # over: both builds and hands are shown
    assert page.locator(".invite").is_hidden()  # a finished duel has no seat to offer
    screenshot(page, "sword-hotseat-end")
    # the record it offers is `duelkit play --record`'s: it replays under `duelkit replay`'s checks
    with page.expect_download() as download:
        page.click("a.record")
    text = Path(download.value.path()).read_text(encoding="utf-8")
    (tmp_path / "duel.jsonl").write_text(text, encoding="utf-8")
    assert main(["replay", str(tmp_path / "duel.jsonl"), "--data", str(bundled_root())]) == 0


def test_a_sword_duel_against_the_computer(studio: Studio, new_page: Any) -> None:
    """The computer seat is `play`'s equilibrium player; a person's choice made while it thinks still counts."""
    page = new_page()
    page.goto(studio.url + "play?game=sword-duel&players=human,equilibrium&seed=5")
    plans = {"Challenger": [("advance", "attack"), ("stay", "attack"), ("stay", "defend"), ("stay", "none")]}
    decisions = 0
    for _ in range(MAX_DECISIONS):
        page.wait_for_selector("[data-status][data-mine], [data-status][data-over]")
        if page.locator("[data-status][data-over]").count():
            break
        assert page.locator("[data-pass-device]").count() == 0  # one person at this screen: no curtain
        _decide(page, {"Challenger": '[data-field-speed="2"][data-field-strength="2"]'}, plans)
        decisions += 1
    assert page.locator("[data-status][data-over]").count() == 1
    assert decisions >= 5
    log = page.locator("[data-history]").inner_text()
    assert "Defender plays" in log  # the computer's choices were revealed with ours
    assert not page.errors
    screenshot(page, "sword-vs-equilibrium-end")


def test_a_choice_locked_in_while_the_computer_thinks_counts(studio: Studio, new_page: Any) -> None:
    """The computer's secret choice comes from a second request; a person who locks in before it answers is
    not dropped: the page sends the choice once the computer's request is back."""
    page = new_page()
    page.goto(studio.url + "play?game=sword-duel&players=human,random&seed=2")
    while not page.locator('form[data-form-key="turn-1-A"]').count():  # the draft and the build
        page.wait_for_selector("[data-status][data-mine]")
        _do(page, "[data-private] [data-action=pick], [data-private] [data-action=build]")
    held: list[Any] = []
    page.route("**/api/table/*/computer*", lambda route: held.append(route))  # it waits until released
    _do(page, "[data-choice-form] [data-lock-in]")  # turn 1: stay, no card (both sides stay Apart)
    page.wait_for_selector('form[data-form-key="turn-2-A"]')
    page.wait_for_function("() => document.body.dataset.busy === 'true'")  # the computer is thinking
    for _ in range(200):  # until Playwright has handed us the held request
        if held:
            break
        page.wait_for_timeout(25)
    assert len(held) == 1
    page.check("[data-choice-form] input[name=card][value=insight]")
    page.click("[data-choice-form] [data-lock-in]")
    assert page.locator('form[data-form-key="turn-2-A"]').count() == 1  # still waiting for the computer
    assert "Turn 2" not in page.inner_text("[data-history]")
    held[0].continue_()
    page.unroute("**/api/table/*/computer*")
    page.wait_for_selector('#table:not(:has(form[data-form-key="turn-2-A"]))')
    turn = page.locator("[data-history] li[data-turn='2']").inner_text()
    assert "Challenger plays Insight" in turn
    assert not page.errors
