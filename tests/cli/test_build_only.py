"""`duelkit build --only PARTS`: just those PDFs rewritten, the rest of the kit folder kept as it was."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from toolkit import output
from toolkit.cli import main
from toolkit.errors import DuelkitError
from toolkit.output import MARK_FILE, written_by_duelkit
from toolkit.registry import discover


def _files(folder: Path) -> dict[str, tuple[int, bytes]]:
    return {path.name: (path.stat().st_ino, path.read_bytes()) for path in folder.iterdir()}


def _change_alpha(project: Path) -> None:
    unit = project / "unit_data" / "alpha.yaml"
    unit.write_text(unit.read_text(encoding="utf-8").replace("Alpha Scout", "Alpha Ranger"), encoding="utf-8")


def test_only_rewrites_the_named_parts_and_keeps_the_rest(capsys, base_project: Path) -> None:
    assert main(["build", str(base_project)]) == 0
    kit = base_project / "output" / "duel-protocol"
    before = _files(kit)
    _change_alpha(base_project)
    capsys.readouterr()
    assert main(["build", str(base_project), "--only", "schematics,modules.pdf"]) == 0
    said = capsys.readouterr().out
    after = _files(kit)
    assert set(after) == set(before)
    assert after["schematics.pdf"][1] != before["schematics.pdf"][1]
    kept = {name for name in before if name not in {"schematics.pdf", "modules.pdf", MARK_FILE}}
    assert {name: after[name] for name in kept} == {name: before[name] for name in kept}  # same files, not copies
    assert written_by_duelkit(kit) == set(before) - {MARK_FILE}
    assert "wrote modules.pdf, schematics.pdf" in said
    assert "kit.pdf was not rewritten" in said
    assert [name for name in os.listdir(kit.parent) if "duelkit-" in name and name != ".duelkit-lock"] == []


def test_only_into_an_empty_output_writes_just_those_parts(capsys, base_project: Path) -> None:
    assert main(["build", str(base_project), "--only", "tokens"]) == 0
    kit = base_project / "output" / "duel-protocol"
    assert sorted(os.listdir(kit)) == [MARK_FILE, "tokens.pdf"]
    assert "no kit.pdf yet" in capsys.readouterr().out


def test_an_unknown_part_is_a_usage_error_naming_the_parts(capsys, base_project: Path) -> None:
    assert main(["build", str(base_project), "--only", "schematic"]) == 2
    message = capsys.readouterr().err
    assert "did you mean 'schematics'?" in message
    assert "the parts are: print-test, board, squads, tokens, schematics" in message
    assert not (base_project / "output").exists()


def test_only_refuses_a_kit_folder_holding_a_file_duelkit_did_not_write(capsys, base_project: Path) -> None:
    assert main(["build", str(base_project)]) == 0
    kit = base_project / "output" / "duel-protocol"
    (kit / "notes.txt").write_text("mine", encoding="utf-8")
    before = _files(kit)
    assert main(["build", str(base_project), "--only", "schematics"]) == 1
    assert "notes.txt" in capsys.readouterr().err
    assert _files(kit) == before


def test_a_failed_update_leaves_the_old_kit_whole(tmp_path: Path, monkeypatch) -> None:
    old = {"kit.pdf": b"old kit", "schematics.pdf": b"old cards", "board.pdf": b"board"}
    output.replace_folder(tmp_path / "duel-protocol", old)

    def disk_full(*_args, **_kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(output, "_exchange", disk_full)  # the swap: one exchange on Linux,
    monkeypatch.setattr(output, "_move_in", disk_full)  # or the second of two renames elsewhere
    with output.OutputFolder(tmp_path) as folder, pytest.raises(DuelkitError, match="No space left"):
        folder.update("duel-protocol", {"schematics.pdf": b"new cards"})
    monkeypatch.undo()
    assert {p.name: p.read_bytes() for p in (tmp_path / "duel-protocol").iterdir() if p.name != MARK_FILE} == old
    assert sorted(os.listdir(tmp_path)) == [".duelkit-lock", "duel-protocol"]
    with output.OutputFolder(tmp_path) as folder:
        _, kept = folder.update("duel-protocol", {"schematics.pdf": b"new cards"}, drop=["board.pdf"])
    assert kept == ["kit.pdf"]
    assert {p.name: p.read_bytes() for p in (tmp_path / "duel-protocol").iterdir() if p.name != MARK_FILE} == {
        "kit.pdf": b"old kit", "schematics.pdf": b"new cards"}


def test_every_kit_part_is_named_as_its_pdf() -> None:
    for game, where in discover(None)[0]:
        data = game.load(where)
        built = [component.name for component in game.build_kit(data, "a4", lambda _: None,
                                                                 with_balance=game.supports("balance"))]
        assert built == list(game.kit_parts()), game.id
        (one,) = game.build_kit(data, "a4", lambda _: None, with_balance=False, only=[built[-2]])
        assert one.name == built[-2]
