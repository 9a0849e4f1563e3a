"""`duelkit serve` under test: a real server (a subprocess on a free port) and a real headless Chromium
(Debian's /usr/bin/chromium driven by Playwright; no browser is ever downloaded). Browser tests skip, saying
why, where the browser cannot start. Every request a page makes is recorded, so tests can check that none
leaves 127.0.0.1."""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = os.environ.get("DUELKIT_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]


class Studio:
    """A running `duelkit serve` and the URL it printed."""

    def __init__(self, cwd: Path, data_dir: Path | None = None) -> None:
        command = [sys.executable, "-m", "toolkit", "serve", "--no-open", "--port", "0"]
        if data_dir is not None:
            command.insert(3, str(data_dir))
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        self.process = subprocess.Popen(command, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                        text=True)
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        found = re.search(r"http://127\.0\.0\.1:\d+/", line)
        if not found:
            self.stop()
            raise AssertionError(f"serve printed no URL: {line!r}")
        self.url = found.group(0)
        self.host = self.url.split("/")[2]

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


@pytest.fixture(scope="session")
def studio(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Studio]:
    """The studio over the bundled demo games (started outside any project)."""
    running = Studio(tmp_path_factory.mktemp("outside"))
    yield running
    running.stop()


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    if not Path(CHROMIUM).exists() or shutil.which(CHROMIUM) is None:
        pytest.skip(f"no Chromium at {CHROMIUM} (Debian's `chromium` package; .ci/run installs it)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.skip("the playwright package is not installed (pip install '.[test]')")
    try:
        manager = sync_playwright().start()
    except Exception as exc:  # the driver could not start on this machine
        pytest.skip(f"Playwright cannot start: {exc}")
    try:
        launched = manager.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
    except Exception as exc:  # e.g. a Chromium too old or too new for this Playwright
        manager.stop()
        pytest.skip(f"Chromium at {CHROMIUM} cannot start under Playwright: {str(exc).splitlines()[0]}")
    yield launched
    launched.close()
    manager.stop()


@pytest.fixture(scope="session")
def requests_seen() -> list[str]:
    """Every URL any test page asked for."""
    return []


@pytest.fixture
def new_page(browser: Any, requests_seen: list[str]) -> Iterator[Any]:
    """A function giving fresh pages (each in its own context: its own cookies, like another browser)."""
    contexts = []

    def make() -> Any:
        context = browser.new_context(viewport={"width": 1280, "height": 900}, accept_downloads=True)
        contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(15_000)
        page.on("request", lambda request: requests_seen.append(request.url))
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.errors = errors
        return page

    yield make
    for context in contexts:
        context.close()


def wait_for_turn(page: Any) -> None:
    """Until the page offers this browser an action, or the game is over."""
    page.wait_for_selector("[data-status][data-mine], [data-status][data-over]")


def new_version(page: Any, before: str) -> None:
    page.wait_for_selector(f'#table:not([data-version="{before}"])')


def screenshot(page: Any, name: str) -> None:
    """Keep a picture of the page when DUELKIT_SCREENS names a folder (the report's screenshots)."""
    folder = os.environ.get("DUELKIT_SCREENS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(folder) / f"{name}.png"), full_page=True)
