"""A build never deletes what it did not make, never reads or writes through a link that leaves the project,
stays atomic under faults and concurrent runs, and reports unreadable or special files."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from tests.conftest import FIXTURES
from toolkit.cli import main
from toolkit.output import MARK_FILE, MARK_FORMAT


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def _bundled_layout(root: Path) -> Path:
    """The base project laid out as the bundled data is: unit_data/<theme>/, modules/<theme>/."""
    shutil.copytree(FIXTURES / "base" / "unit_data", root / "unit_data" / "duel-protocol")
    shutil.copytree(FIXTURES / "base" / "modules", root / "modules" / "duel-protocol")
    return root


# --- item 6: only folders duelkit marked are replaced -------------------------------------------------

def test_kit_folder_carries_a_mark_listing_what_duelkit_wrote(base_project: Path) -> None:
    assert main(["build", str(base_project)]) == 0
    kit = base_project / "output" / "duel-protocol"
    lines = (kit / MARK_FILE).read_text(encoding="utf-8").splitlines()
    assert lines[0] == MARK_FORMAT
    assert {"kit.pdf", "board.pdf"} <= set(lines) and set(os.listdir(kit)) - {MARK_FILE} <= set(lines)
    assert main(["build", str(base_project)]) == 0  # its own folder is replaced


def test_project_named_like_its_theme_built_with_out_dot_is_not_replaced(
        tmp_path: Path, monkeypatch, capsys) -> None:
    project = tmp_path / "duel-protocol"
    shutil.copytree(FIXTURES / "base", project)
    before = _snapshot(project)
    monkeypatch.chdir(tmp_path)
    assert main(["build", "duel-protocol", "--out", "."]) == 1
    assert "did not write" in capsys.readouterr().err
    assert _snapshot(project) == before


def test_out_pointing_into_the_data_folder_keeps_the_unit_files(tmp_path: Path, capsys) -> None:
    data = _bundled_layout(tmp_path / "data")
    before = _snapshot(data)
    assert main(["build", str(data), "--game", "duel-protocol", "--out", str(data / "unit_data")]) == 1
    assert "did not write" in capsys.readouterr().err
    assert _snapshot(data) == before


@pytest.mark.parametrize("sibling_marked", [False, True])
def test_shipped_output_link_to_parent_never_touches_a_sibling(
        tmp_path: Path, base_project: Path, capsys, sibling_marked: bool) -> None:
    sibling = tmp_path / "duel-protocol"
    sibling.mkdir()
    (sibling / "kit.pdf").write_bytes(b"someone else's work")
    if sibling_marked:  # even a duelkit kit from another project is not replaced through the link
        (sibling / MARK_FILE).write_text(f"{MARK_FORMAT}\nkit.pdf\n", encoding="utf-8")
    (base_project / "output").symlink_to("..")
    before = _snapshot(sibling)
    for command in (["build"], ["balance"], ["reference"]):
        assert main([*command, str(base_project)]) == 1
        assert "outside" in capsys.readouterr().err
    assert _snapshot(sibling) == before
    assert sorted(os.listdir(tmp_path)) == ["duel-protocol", "project"]


def test_link_in_place_of_the_kit_folder_is_refused(tmp_path: Path, base_project: Path, capsys) -> None:
    elsewhere = tmp_path / "elsewhere"
    assert main(["build", str(base_project), "--out", str(elsewhere)]) == 0
    before = _snapshot(elsewhere)
    out = tmp_path / "out"
    out.mkdir()
    (out / "duel-protocol").symlink_to(elsewhere / "duel-protocol")
    assert main(["build", str(base_project), "--out", str(out)]) == 1
    assert "symbolic link" in capsys.readouterr().err
    assert _snapshot(elsewhere) == before


def test_marked_folder_with_a_file_of_the_designer_is_refused(base_project: Path, capsys) -> None:
    assert main(["build", str(base_project)]) == 0
    kit = base_project / "output" / "duel-protocol"
    (kit / "notes.txt").write_text("my playtest notes", encoding="utf-8")
    before = _snapshot(kit)
    assert main(["build", str(base_project)]) == 1
    assert "notes.txt" in capsys.readouterr().err
    assert _snapshot(kit) == before


def test_empty_folder_is_used(base_project: Path) -> None:
    (base_project / "output" / "duel-protocol").mkdir(parents=True)
    assert main(["build", str(base_project)]) == 0
    assert (base_project / "output" / "duel-protocol" / "kit.pdf").is_file()


@pytest.mark.parametrize("command, sub, name", [(["balance"], "balance", "balance.csv"),
                                               (["reference"], "reference", "manual.html")])
def test_balance_and_reference_refuse_unmarked_folders_too(
        base_project: Path, capsys, command: list[str], sub: str, name: str) -> None:
    target = base_project / "output" / sub / "duel-protocol"
    target.mkdir(parents=True)
    (target / "mine.txt").write_text("keep me", encoding="utf-8")
    assert main([*command, str(base_project)]) == 1
    assert "did not write" in capsys.readouterr().err
    assert os.listdir(target) == ["mine.txt"]
    shutil.rmtree(target)
    assert main([*command, str(base_project)]) == 0
    assert (target / name).is_file() and (target / MARK_FILE).is_file()
