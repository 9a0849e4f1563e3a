"""`duelkit watch`'s incremental rebuild: after a save, the kit it writes is byte for byte the kit a fresh
`duelkit build` of the same data writes, and only the saved file is parsed again.

The watch session is driven in this process (`Session.rebuild`, what the watcher calls for each batch of
saves), so the test needs no file events and no waiting; `test_watch.py` covers the watcher process."""

from __future__ import annotations

import argparse
import contextlib
import io
from pathlib import Path

from toolkit.cli import build_parser, main
from toolkit.cli.common import output_folder
from toolkit.cli.watch import Session


def _kit(folder: Path) -> dict[str, bytes]:
    """Every file written, but the page cache (`.cache`, checked on its own below)."""
    return {str(path.relative_to(folder)): path.read_bytes() for path in sorted(folder.rglob("*"))
            if path.is_file() and ".cache" not in path.relative_to(folder).parts}


def _fresh_build(project: Path, out: Path, *options: str) -> dict[str, bytes]:
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        assert main(["build", str(project), "--out", str(out), *options]) == 0
    return _kit(out)


def _new_watched_project(tmp_path: Path) -> tuple[Path, Path, argparse.Namespace, Session]:
    """A starter project (`duelkit new`), the folder its watch writes to, and the watch session."""
    project = tmp_path / "game"
    assert main(["new", str(project)]) == 0
    watched = tmp_path / "watched"
    args = build_parser().parse_args(["watch", str(project), "--out", str(watched)])
    return project, watched, args, Session(args)


def test_a_watch_rebuilt_kit_is_byte_identical_to_a_fresh_build(tmp_path: Path) -> None:
    project, watched, args, session = _new_watched_project(tmp_path)
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


def test_a_save_redraws_only_the_pages_that_show_the_edit(tmp_path: Path) -> None:
    """Each page is drawn once and found again by what it shows: a unit's new damage redraws its card's
    sheet, its token sheet and its disc, not the rest of the kit, and the kit is still a fresh build's."""
    project, watched, args, session = _new_watched_project(tmp_path)
    spark = project / "unit_data" / "spark.yaml"
    with output_folder(args, "", []) as folder, contextlib.redirect_stdout(io.StringIO()):
        session.rebuild(folder, [])
        (cache,) = session.caches.values()
        every = len(cache.pages.used)
        assert cache.pages.drawn == every  # the first build draws each distinct page once
        spark.write_text(spark.read_text(encoding="utf-8").replace("damage: 30", "damage: 70"), encoding="utf-8")
        session.rebuild(folder, [spark])
        assert 1 <= cache.pages.drawn <= 4 < every
        assert _kit(watched) == _fresh_build(project, tmp_path / "fresh")


def test_the_page_cache_on_disk_saves_drawing_and_changes_nothing(tmp_path: Path) -> None:
    """`OUT/.cache` keeps the pages drawn: a second build draws none of them, and deleting the cache, or
    a damaged cache file, gives the same kit."""
    from toolkit.kit.component import Component
    from toolkit.kit.files import kit_files
    from toolkit.output import read_cache_file, write_cache_file
    from toolkit.render.page_cache import PageCache
    from toolkit.render.scene import Page, Text

    parts = [Component("cards", "Cards", pages=[Page(100, 100, [Text(10, 10, f"card {n}", 9)]) for n in range(3)])]

    def build() -> tuple[dict[str, bytes], int]:
        from toolkit.kit.files import RenderCache

        cache = RenderCache(keep=False, pages=PageCache(tmp_path / "cache", write_cache_file, read_cache_file))
        files = kit_files(parts, "Game", svg=False, cache=cache)
        return files, cache.pages.drawn

    (tmp_path / "cache").mkdir()
    first, drawn = build()
    assert drawn == 3
    assert build() == (first, 0)  # every page came from the disk
    damaged = sorted((tmp_path / "cache").iterdir())[0]
    damaged.write_bytes(damaged.read_bytes()[:100])
    assert build() == (first, 1)  # a cut-short file is drawn again
    whole = damaged.read_bytes()
    middle = whole.index(b" 0 obj", 200)
    damaged.write_bytes(whole[:middle - 2] + b"X" + whole[middle - 1:])  # one byte changed, ends intact
    assert build() == (first, 1)  # a file damaged inside is drawn again, not taken apart
    for path in (tmp_path / "cache").iterdir():
        path.unlink()
    assert build() == (first, 3)


def test_deleting_the_output_cache_between_builds_changes_nothing(tmp_path: Path) -> None:
    project = tmp_path / "game"
    assert main(["new", str(project)]) == 0
    out = tmp_path / "out"
    first = _fresh_build(project, out, "--cache")
    cached = sorted((out / ".cache").rglob("*.pdf"))
    assert cached
    assert _fresh_build(project, out, "--cache") == first
    import shutil

    shutil.rmtree(out / ".cache")
    assert _fresh_build(project, out, "--cache") == first
    assert sorted((out / ".cache").rglob("*.pdf")) == cached
    assert _fresh_build(project, tmp_path / "plain") == first  # without --cache: none kept, the same kit
    assert not (tmp_path / "plain" / ".cache").exists()


def test_remembered_layout_reports_its_cut_text_again_where_it_now_is(tmp_path: Path) -> None:
    """A card and a token laid out once are reused at the next rebuild, and the text they cut short is
    reported again (R001), located at the line it is on now: here a comment added above it moves it down."""
    project = tmp_path / "game"
    assert main(["new", str(project)]) == 0
    spark = project / "unit_data" / "spark.yaml"
    long_name = "Overclocked Thunderstorm Generator Prototype Mark Seven Thousand"
    spark.write_text(spark.read_text(encoding="utf-8").replace("name: Spark ", f"name: {long_name} "),
                     encoding="utf-8")
    args = build_parser().parse_args(["watch", str(project), "--out", str(tmp_path / "out"), "--no-cache"])
    session = Session(args)
    with output_folder(args, "", []) as folder, contextlib.redirect_stdout(io.StringIO()), \
            contextlib.redirect_stderr(io.StringIO()) as shown:
        session.rebuild(folder, [])
        first = [w for w in session.warnings or [] if w.code == "R001" and w.file.endswith("spark.yaml")]
        assert first
        assert {w.line for w in first} == {4}
        spark.write_text("# a comment line\n" + spark.read_text(encoding="utf-8"), encoding="utf-8")
        session.rebuild(folder, [spark])
        assert session.layout is not None
        assert session.layout.misses < 10  # the other pieces were reused
        again = [w for w in session.warnings or [] if w.code == "R001" and w.file.endswith("spark.yaml")]
    assert [(w.line, w.message) for w in again] == [(5, w.message) for w in first]
    assert "R001" in shown.getvalue()
