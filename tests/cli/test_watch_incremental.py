"""`duelkit watch`'s incremental rebuild: after a save, the kit it writes is byte for byte the kit a fresh
`duelkit build` of the same data writes, and only the saved file is parsed again.

The watch session is driven in this process (`Session.rebuild`, what the watcher calls for each batch of
saves), so the test needs no file events and no waiting; `test_watch.py` covers the watcher process."""

from __future__ import annotations

import contextlib
import io
from pathlib import Path

from toolkit.cli import build_parser, main
from toolkit.cli.common import output_folder
from toolkit.cli.watch import Session


def _kit(folder: Path) -> dict[str, bytes]:
    return {str(path.relative_to(folder)): path.read_bytes() for path in sorted(folder.rglob("*")) if path.is_file()}


def _fresh_build(project: Path, out: Path) -> dict[str, bytes]:
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        assert main(["build", str(project), "--out", str(out)]) == 0
    return _kit(out)


def test_a_watch_rebuilt_kit_is_byte_identical_to_a_fresh_build(tmp_path: Path) -> None:
    project = tmp_path / "game"
    assert main(["new", str(project)]) == 0
    watched = tmp_path / "watched"
    args = build_parser().parse_args(["watch", str(project), "--out", str(watched)])
    session = Session(args)
    spark = project / "unit_data" / "spark.yaml"
    others = project / "unit_data" / "more-units.yaml"
    with output_folder(args, "", []) as folder, contextlib.redirect_stdout(io.StringIO()):
        session.rebuild(folder, [])
        first = _kit(watched)
        assert first == _fresh_build(project, tmp_path / "fresh0")

        spark.write_text(spark.read_text(encoding="utf-8").replace("damage: 30", "damage: 70"), encoding="utf-8")
        session.rebuild(folder, [spark])
        assert session.parses is not None
        assert [Path(name).name for name in session.parses.parsed] == ["spark.yaml"]
        second = _kit(watched)
        assert second != first  # the edit reached the kit ...
        assert second == _fresh_build(project, tmp_path / "fresh1")  # ... exactly as a fresh build draws it

        # an edit, then its undo: the cached files of the first build come back, still identical
        others.write_text(others.read_text(encoding="utf-8").replace("Shield Bash", "Shield Slam"), encoding="utf-8")
        session.rebuild(folder, [others])
        assert _kit(watched) == _fresh_build(project, tmp_path / "fresh2") != second
        spark.write_text(spark.read_text(encoding="utf-8").replace("damage: 70", "damage: 30"), encoding="utf-8")
        others.write_text(others.read_text(encoding="utf-8").replace("Shield Slam", "Shield Bash"), encoding="utf-8")
        session.rebuild(folder, [spark, others])
        assert _kit(watched) == first
