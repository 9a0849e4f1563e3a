"""Board variants (issue 13 item 5): `board:` in duelkit.yaml names a board file that validate, build, the
manual's surround figure and the rules engine all use; `board new` copies the standard board; `board check`
with no argument checks the project's board and prints its distances."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from toolkit.cli import main
from toolkit.figure.engine.setup import build_game
from toolkit.figure.kit.manual import surround_figure
from toolkit.registry import discover

# A shortcut through the middle, and a third route into each goal: goal to goal drops from 8 to 3 steps.
SHORTCUTS = "  - [i0c1, i2c1]\n  - [r0c3, i0c1]\n  - [r4c3, i2c1]\n"


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.fixture
def variant(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, base_project: Path) -> Path:
    """The base project using `boards/short.yaml`: the standard board made by `board new`, with shortcuts."""
    monkeypatch.chdir(base_project)
    code, out, _ = run(capsys, "board", "new", "boards/short.yaml")
    assert code == 0
    assert "add `board: boards/short.yaml`" in out
    board = base_project / "boards" / "short.yaml"
    board.write_text(board.read_text().replace("routes:\n", "routes:\n" + SHORTCUTS, 1))
    with (base_project / "duelkit.yaml").open("a") as project_file:
        project_file.write("board: boards/short.yaml\n")
    return base_project


def _database(project: Path):
    [(game, where)], problems = discover(project)
    assert problems == []
    return game.load(where).database  # type: ignore[attr-defined]


def test_board_new_copies_the_standard_board_under_the_new_name(capsys, monkeypatch, tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)
    assert run(capsys, "board", "new", "wide.yaml")[0] == 0
    text = (tmp_path / "wide.yaml").read_text()
    assert "id: wide\n" in text
    assert "[r0c0, r0c1]" in text
    assert run(capsys, "board", "check", "wide.yaml")[0] == 0
    code, _, err = run(capsys, "board", "new", "wide.yaml")
    assert code == 2
    assert "already exists" in err


@pytest.mark.usefixtures("variant")
def test_board_check_with_no_argument_checks_the_projects_board_and_prints_distances(capsys) -> None:
    code, out, _ = run(capsys, "board", "check")
    assert code == 0
    assert "board 'short' (boards/short.yaml) OK: 28 nodes, 37 routes" in out
    assert "goal r4c3 to goal r0c3             3 steps" in out
    assert "A entry r4c0 to B's goal r0c3      4 steps" in out


def test_board_check_outside_a_project_prints_the_standard_distances(capsys, monkeypatch, tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)
    code, out, _ = run(capsys, "board", "check")
    assert code == 0
    assert "board 'standard' (the standard board) OK" in out
    assert "goal r4c3 to goal r0c3             8 steps" in out
    assert "B entry r0c6 to A's goal r4c3      6 steps" in out


def test_validate_names_the_board_and_the_engine_and_manual_use_it(capsys, variant: Path) -> None:
    code, out, _ = run(capsys, "validate")
    assert code == 0
    assert "board 'short'" in out
    database = _database(variant)
    game = build_game("test-squad", "test-squad", database)
    assert game.board.id == "short"
    assert len(game.adj[game.node_index["i0c1"]]) == 5  # the shortcut and the goal route are playable
    assert "has 3 neighbouring points" in surround_figure(database).caption


def test_build_draws_the_projects_board(capsys, variant: Path) -> None:
    code, _, err = run(capsys, "build")
    assert code == 0, err
    import pypdfium2

    pdf = pypdfium2.PdfDocument(variant / "output" / "duel-protocol" / "board.pdf")
    text = "".join(pdf[i].get_textpage().get_text_range() for i in range(len(pdf)))
    assert "Short (a variant of the standard board)" in text


def test_a_broken_project_board_is_reported_in_its_own_file_and_stops_the_build(capsys, variant: Path) -> None:
    board = variant / "boards" / "short.yaml"
    board.write_text(board.read_text().replace("routes:\n", "routes:\n  - [r0c1, i1c0]\n", 1))
    code, out, _ = run(capsys, "validate", "--format", "json")
    assert code == 1
    [crossing] = [p for p in json.loads(out) if "crosses route i1c0-r0c1" in p["message"]]
    assert crossing["file"] == "boards/short.yaml"
    assert crossing["code"] == "B001"
    assert board.read_text().splitlines()[crossing["line"] - 1].strip().startswith("i0c0:")
    assert run(capsys, "build")[0] == 1
    assert not (variant / "output" / "duel-protocol").exists()


@pytest.mark.parametrize(("written", "code", "message"), [
    ("../outside.yaml", "F004", "is not a path inside the project"),
    ("/etc/hostname", "F004", "is not a path inside the project"),
    ("boards/missing.yaml", "F003", "does not exist in the project"),
])
def test_a_board_path_that_is_not_in_the_project_is_located_in_duelkit_yaml(
        capsys, base_project: Path, written: str, code: str, message: str) -> None:
    (base_project.parent / "outside.yaml").write_text("id: outside\n")
    (base_project / "duelkit.yaml").write_text(f"theme: duel-protocol\nboard: {written}\n")
    exit_code, out, _ = run(capsys, "validate", str(base_project))
    assert exit_code == 1
    assert f"error[{code}]" in out
    assert "duelkit.yaml:2:8" in out
    assert message in out
    assert "id: outside" not in out


def test_a_board_linked_from_outside_the_project_is_not_read(capsys, base_project: Path, tmp_path: Path) -> None:
    outside = tmp_path / "elsewhere.yaml"
    outside.write_text("secret: 1\n")
    (base_project / "linked.yaml").symlink_to(outside)
    (base_project / "duelkit.yaml").write_text("theme: duel-protocol\nboard: linked.yaml\n")
    code, out, _ = run(capsys, "validate", str(base_project))
    assert code == 1
    assert "F001" in out
    assert "secret" not in out
