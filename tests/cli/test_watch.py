"""`duelkit watch`: a save rebuilds what it changed; a broken save prints the problems and keeps the kit.

The watcher runs as a real process (`--max-rebuilds 2`, so it stops by itself) and every wait has a
deadline, so the test cannot hang."""

from __future__ import annotations

import queue
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from toolkit.cli import main

DEADLINE = 90.0  # seconds for any one step: generous, for a busy machine


class Watcher:
    """The watch process, its output read line by line by a thread (so a wait can have a deadline)."""

    def __init__(self, project: Path, cwd: Path) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "toolkit", "watch", str(project), "--max-rebuilds", "2"], cwd=cwd,
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        self.lines: queue.Queue[str] = queue.Queue()
        self.seen: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.put(line)

    def wait_for(self, word: str) -> str:
        """The next line holding `word` (every line read is kept in `seen`)."""
        deadline = time.monotonic() + DEADLINE
        while time.monotonic() < deadline:
            try:
                line = self.lines.get(timeout=0.5)
            except queue.Empty:
                continue
            self.seen.append(line)
            if word in line:
                return line
        pytest.fail(f"no line with {word!r}; the watcher said:\n{''.join(self.seen)}")


def _files(folder: Path) -> dict[str, tuple[int, bytes]]:
    return {path.name: (path.stat().st_ino, path.read_bytes()) for path in folder.iterdir()}


def test_a_save_rebuilds_what_changed_and_a_broken_save_keeps_the_last_good_kit(tmp_path: Path) -> None:
    project = tmp_path / "game"
    assert main(["new", str(project)]) == 0
    watcher = Watcher(project, tmp_path)
    try:
        watcher.wait_for("watching")
        kit = project / "output" / "duel-protocol"
        first = _files(kit)
        unit = project / "unit_data" / "spark.yaml"
        text = unit.read_text(encoding="utf-8")
        unit.write_text(text.replace("damage: 30", "damage: 70"), encoding="utf-8")
        line = watcher.wait_for("rebuilt")
        assert "unit_data/spark.yaml" in line
        assert "schematics.pdf" in line
        assert "kit.pdf" in line
        assert "board.pdf" not in line
        second = _files(kit)
        assert second["schematics.pdf"][1] != first["schematics.pdf"][1]
        assert second["kit.pdf"][1] != first["kit.pdf"][1]
        assert second["board.pdf"] == first["board.pdf"]  # the very same file: not written again

        unit.write_text(text.replace("damage: 30", "damage: lots"), encoding="utf-8")
        line = watcher.wait_for("not rebuilt")
        assert "the last good kit is kept" in line
        assert any("spark.yaml:11" in seen for seen in watcher.seen)  # the problem, located
        assert watcher.process.wait(timeout=DEADLINE) == 0  # two rebuilds asked for, two done
        assert _files(kit) == second
    finally:
        if watcher.process.poll() is None:
            watcher.process.kill()
            watcher.process.wait()
