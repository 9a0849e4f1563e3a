"""The sword duel in the browser: the draft, secret builds and a turn of secret choices revealed together,
hot-seat behind a "pass the device" screen, and two browsers that each see only their own secrets."""

from __future__ import annotations

from typing import Any

from tests.web.conftest import Studio, new_version, screenshot


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
