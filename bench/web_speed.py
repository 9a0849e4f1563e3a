"""Benchmark: `duelkit serve` in headless Chromium (Debian's /usr/bin/chromium through Playwright).

Prints figures; not a test. The anchor is an empty API round trip (`GET /api/live`) in the same run, so the
ratios say how much of a figure is the studio's own work on a machine that may be busy. Targets (issue 25):
first paint under 1 s, a click to the updated board under 150 ms, the greedy reply under 300 ms.

Usage: python bench/web_speed.py [CLICKS] [SCREENS_DIR]
"""

from __future__ import annotations

import http.client
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.web.conftest import CHROMIUM, CHROMIUM_ARGS, Studio  # noqa: E402

PLAY = "play?game=chimera&a=attrition-lock&b=grid-surge&players=human,greedy&seed=5"
SWORD = "play?game=sword-duel&players=human,{player}&seed=5"
SWORD_PLAYERS = ("greedy", "equilibrium")


def _anchor(studio: Studio, times: int = 30) -> float:
    host, port = studio.host.split(":")
    samples = []
    for _ in range(times):
        connection = http.client.HTTPConnection(host, int(port), timeout=10)
        start = time.perf_counter()
        connection.request("GET", "/api/live")
        connection.getresponse().read()
        samples.append(time.perf_counter() - start)
        connection.close()
    return statistics.median(samples) * 1000


def _paint(page: object, url: str) -> float:
    page.goto(url)  # type: ignore[attr-defined]
    page.wait_for_selector("main")  # type: ignore[attr-defined]
    return float(page.evaluate(  # type: ignore[attr-defined]
        "() => performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? -1"))


def _sword_replies(page: object, studio: Studio, player: str) -> list[int]:
    """One sword duel against `player`: the person takes the first card and build offered and locks in the
    form as it stands (stay, no card); how long each of the computer's decisions took, as the page saw it."""
    p: Any = page
    p.goto(studio.url + SWORD.format(player=player))
    times: list[int] = []
    for _ in range(60):
        p.wait_for_selector("[data-status][data-mine], [data-status][data-over]")
        reply = p.get_attribute("#table", "data-computer-took")
        if reply:
            times.append(int(reply))
            p.evaluate("() => { delete document.getElementById('table').dataset.computerTook; }")
        if p.query_selector("[data-status][data-over]"):
            break
        version = p.get_attribute("#table", "data-version")
        p.click("[data-private] [data-action], [data-choice-form] [data-lock-in]")
        p.wait_for_selector(f'#table:not([data-version="{version}"])')
    return times


def main() -> None:
    from playwright.sync_api import sync_playwright

    clicks = int(sys.argv[1]) if len(sys.argv) > 1 else 30
    screens = Path(sys.argv[2]) if len(sys.argv) > 2 else None
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as manager:
        studio = Studio(Path(tmp))
        browser = manager.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 900}, bypass_csp=True)
            anchor = _anchor(studio)
            _paint(page, studio.url)  # warm: the first visit loads the games' fonts
            start_paint = statistics.median(_paint(page, studio.url) for _ in range(5))
            play_paint = statistics.median(_paint(page, studio.url + PLAY) for _ in range(5))
            took: list[int] = []
            replies: list[int] = []
            games = 0
            while len(took) < clicks:
                page.goto(studio.url + PLAY.replace("seed=5", f"seed={5 + games}"))
                games += 1
                while len(took) < clicks:
                    page.wait_for_selector("[data-status][data-mine], [data-status][data-over]")
                    if page.query_selector("[data-status][data-over]"):
                        break
                    version = page.get_attribute("#table", "data-version")
                    page.click("[data-actions] [data-action]")
                    page.wait_for_selector(f'#table:not([data-version="{version}"])')
                    took.append(int(page.get_attribute("#table", "data-took") or -1))
                    page.wait_for_selector("[data-status][data-mine], [data-status][data-over]")
                    reply = page.get_attribute("#table", "data-computer-took")
                    if reply:
                        replies.append(int(reply))
                        page.evaluate("() => { delete document.getElementById('table').dataset.computerTook; }")
            if screens is not None:
                screens.mkdir(parents=True, exist_ok=True)
                page.screenshot(path=str(screens / "bench-play.png"), full_page=True)
            sword = {name: _sword_replies(page, studio, name) for name in SWORD_PLAYERS}
        finally:
            browser.close()
            studio.stop()
    print(f"anchor: empty API round trip {anchor:.1f} ms (median of 30)")
    print(f"first paint, start page: {start_paint:.0f} ms ({start_paint / anchor:.0f}x anchor; target < 1000 ms)")
    print(f"first paint, play page: {play_paint:.0f} ms ({play_paint / anchor:.0f}x anchor)")
    print(f"click to updated board: median {statistics.median(took):.0f} ms, max {max(took)} ms over {len(took)} "
          f"clicks ({statistics.median(took) / anchor:.1f}x anchor; target < 150 ms)")
    if replies:
        print(f"greedy reply (request, decision, spins, new board): median {statistics.median(replies):.0f} ms, "
              f"max {max(replies)} ms over {len(replies)} replies ({statistics.median(replies) / anchor:.1f}x "
              "anchor; target < 300 ms)")
    for name, times in sword.items():
        if times:
            print(f"sword duel, {name} computer's decision (request, draft/build/choice, new view): median "
                  f"{statistics.median(times):.0f} ms, max {max(times)} ms over {len(times)} decisions "
                  f"({statistics.median(times) / anchor:.1f}x anchor; one seeded duel, no target)")


if __name__ == "__main__":
    main()
