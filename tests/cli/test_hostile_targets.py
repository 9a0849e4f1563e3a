"""Where a command reads and writes (issue 21, item 3): targets are checked before the work, a path under a
file is said to be one, a starter made from any folder name passes its own validate, a project folder that
cannot be read is a message, and validate's summary counts the errors of duelkit.yaml."""

from __future__ import annotations

import io
import os
import sys
from pathlib import Path

import pytest

from toolkit.cli import main
from toolkit.figure.game import FigureGame

SQUADS = ["hydro-conductor", "malfunction-cascade"]


class _Untouchable(io.StringIO):
    """A stdin that fails the test when read: the game must not start."""

    def readline(self, *_args: object) -> str:  # type: ignore[override]
        pytest.fail("the game started before its record file was checked")


@pytest.fixture
def blocked(tmp_path: Path) -> Path:
    """A file where a folder is expected."""
    path = tmp_path / "notes.txt"
    path.write_text("a file, not a folder", encoding="utf-8")
    return path


def test_play_record_into_a_missing_or_blocked_folder_fails_before_the_game(
        tmp_path: Path, blocked: Path, monkeypatch, capsys) -> None:
    monkeypatch.setattr(sys, "stdin", _Untouchable())
    assert main(["play", *SQUADS, "--record", str(tmp_path / "missing" / "game.jsonl")]) == 2
    assert f"folder '{tmp_path / 'missing'}' does not exist" in capsys.readouterr().err
    assert main(["play", *SQUADS, "--record", str(blocked / "game.jsonl")]) == 2
    assert f"'{blocked}' is a file, not a folder" in capsys.readouterr().err


@pytest.mark.skipif(not Path("/sys/kernel").is_dir(), reason="needs /sys, where no file can be made")
def test_play_record_into_a_read_only_folder_fails_before_the_game(monkeypatch, capsys) -> None:
    # chmod 555 does not stop root, who runs the tests; sysfs refuses to make a file even for root
    monkeypatch.setattr(sys, "stdin", _Untouchable())
    code = main(["play", *SQUADS, "--record", "/sys/game.jsonl"])
    err = capsys.readouterr().err
    assert code == 1
    assert "cannot write /sys/game.jsonl" in err


def test_simulate_out_is_refused_before_the_games(tmp_path: Path, blocked: Path, monkeypatch, capsys) -> None:
    def played(*_args: object) -> None:
        pytest.fail("games were played before --out was checked")

    monkeypatch.setattr(FigureGame, "simulate", played)
    assert main(["simulate", *SQUADS, "--games", "2", "--seed", "1", "--out", str(blocked)]) == 1
    assert "Not a directory" in capsys.readouterr().err
    mine = tmp_path / "out" / f"{SQUADS[0]}-vs-{SQUADS[1]}"  # the match's folder, but not one duelkit wrote
    mine.mkdir(parents=True)
    (mine / "notes.txt").write_text("mine", encoding="utf-8")
    assert main(["simulate", *SQUADS, "--games", "2", "--seed", "1", "--out", str(tmp_path / "out")]) == 1
    assert "did not write it" in capsys.readouterr().err
    assert sorted(os.listdir(tmp_path / "out")) == [mine.name]  # not even a lock file was left


def test_new_and_board_new_under_a_file_say_so(blocked: Path, capsys) -> None:
    assert main(["new", str(blocked / "game")]) == 2
    assert f"'{blocked}' is a file, not a folder" in capsys.readouterr().err
    assert main(["board", "new", str(blocked / "boards" / "wide.yaml")]) == 2
    assert f"'{blocked}' is a file, not a folder" in capsys.readouterr().err
    assert blocked.read_text(encoding="utf-8") == "a file, not a folder"


@pytest.mark.parametrize("name", ["ab\x1bc\td", "\x1b\x07", "x" * 200, "left\u202eright", "caf\udce9"],
                         ids=["esc-and-tab", "only-controls", "200-characters", "bidi", "raw-byte"])
def test_new_from_any_folder_name_passes_its_own_validate(tmp_path: Path, capsys, name: str) -> None:
    project = tmp_path / name
    assert main(["new", str(project)]) == 0
    capsys.readouterr()
    assert main(["validate", str(project)]) == 0, capsys.readouterr().out
    assert "0 errors" in capsys.readouterr().out


def test_validate_counts_the_errors_of_duelkit_yaml(capsys, base_project: Path) -> None:
    (base_project / "duelkit.yaml").write_text("theme: duel-protocol\nboard: ../elsewhere.yaml\n", encoding="utf-8")
    assert main(["validate", str(base_project)]) == 1
    out = capsys.readouterr().out
    assert "error[F004]" in out
    assert out.rstrip().splitlines()[-1].endswith(": 1 error, 0 warnings")


def _unreadable(monkeypatch, project: Path) -> None:
    """The project folder as chmod 000 makes it for anyone but root (tests run as root, who reads anything):
    it cannot be listed, and nothing in it can be reached."""
    inside = str(project) + os.sep

    def guarded(function, listing: bool):
        def call(path=".", *args, **kwargs):
            name = os.path.abspath(os.fsdecode(path)) if isinstance(path, (str, bytes, os.PathLike)) else ""
            if name.startswith(inside) or (listing and name == str(project)):
                raise PermissionError(13, "Permission denied", path)
            return function(path, *args, **kwargs)
        return call

    for name in ("stat", "lstat", "open"):
        monkeypatch.setattr(os, name, guarded(getattr(os, name), listing=False))
    for name in ("listdir", "scandir"):
        monkeypatch.setattr(os, name, guarded(getattr(os, name), listing=True))


@pytest.mark.parametrize("command", [["validate"], ["build"], ["export", "csv"]])
def test_a_project_folder_that_cannot_be_read_is_a_message(monkeypatch, capsys, base_project: Path,
                                                           command: list[str]) -> None:
    _unreadable(monkeypatch, base_project)
    assert main([*command, str(base_project)]) == 1
    err = capsys.readouterr().err
    assert f"cannot read '{base_project}': Permission denied" in err
    assert "internal error" not in err
