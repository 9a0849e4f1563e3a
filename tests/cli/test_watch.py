"""`duelkit watch`: a save rebuilds what it changed; a broken save prints the problems and keeps the kit.

The watcher runs as a real process (`--max-rebuilds 2`, so it stops by itself) and every wait has a
deadline, so the test cannot hang."""

from __future__ import annotations

import os
import queue
import shutil
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

    def __init__(self, project: Path, cwd: Path, *options: str) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "toolkit", "watch", str(project), *(options or ("--max-rebuilds", "2"))],
            cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
            env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])})  # this checkout's duelkit
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

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()


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


def test_output_swapped_for_a_link_outside_is_refused_at_the_next_save(tmp_path: Path) -> None:
    project, outside = tmp_path / "game", tmp_path / "elsewhere"
    assert main(["new", str(project)]) == 0
    outside.mkdir()
    watcher = Watcher(project, tmp_path, "--only", "schematics", "--max-rebuilds", "1")
    try:
        watcher.wait_for("watching")
        (project / "output").rename(project / "output.kept")
        (project / "output").symlink_to(outside)  # after the start-up check: only a check at each write sees it
        unit = project / "unit_data" / "spark.yaml"
        unit.write_text(unit.read_text(encoding="utf-8").replace("damage: 30", "damage: 70"), encoding="utf-8")
        line = watcher.wait_for("not rebuilt")
        assert "the last good kit is kept" in line
        assert any("leads outside" in seen for seen in watcher.seen)
        assert watcher.process.wait(timeout=DEADLINE) == 0
        assert list(outside.iterdir()) == []
    finally:
        watcher.stop()


def test_a_project_deleted_and_restored_is_watched_again(tmp_path: Path) -> None:
    project, backup = tmp_path / "game", tmp_path / "backup"
    assert main(["new", str(project)]) == 0
    shutil.copytree(project, backup)
    watcher = Watcher(project, tmp_path, "--only", "schematics", "--max-rebuilds", "1")
    try:
        watcher.wait_for("watching")
        before = (project / "output" / "duel-protocol" / "schematics.pdf").read_bytes()
        shutil.rmtree(project)
        assert "Waiting for it to be back" in watcher.wait_for("was deleted or replaced")
        shutil.copytree(backup, project)
        watcher.wait_for("is back: watching it again")
        watcher.wait_for("watching")
        unit = project / "unit_data" / "spark.yaml"
        unit.write_text(unit.read_text(encoding="utf-8").replace("damage: 30", "damage: 70"), encoding="utf-8")
        assert "schematics.pdf" in watcher.wait_for("rebuilt")
        assert watcher.process.wait(timeout=DEADLINE) == 0
        assert (project / "output" / "duel-protocol" / "schematics.pdf").read_bytes() != before
    finally:
        watcher.stop()
