"""kit.pdf is assembled from the component PDFs: each page drawn once, shared as it is."""

from __future__ import annotations

import hashlib
import io
from pathlib import Path

import pdfplumber
import pikepdf
import pytest

from toolkit.cli import main
from toolkit.render.assemble import assemble_pdf
from toolkit.render.pdf import render_pdf
from toolkit.render.scene import Document, Page, Text


def _content(page: pikepdf.Page) -> str:
    return hashlib.sha256(page.Contents.read_bytes()).hexdigest()


@pytest.fixture(scope="module")
def kit(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("assembled")
    assert main(["build", "--game", "chimera", "--out", str(out), "--jobs", "3"]) == 0  # pages drawn by 3 processes
    return out / "chimera"


def test_the_files_are_the_same_whatever_the_number_of_processes(kit: Path, tmp_path: Path) -> None:
    """`build --jobs`: each page's bytes depend on the page alone, so one process writes the same kit."""
    assert len(list(kit.glob("*.pdf"))) > 5
    assert main(["build", "--game", "chimera", "--out", str(tmp_path), "--jobs", "1"]) == 0
    assert {path.name: path.read_bytes() for path in kit.glob("*.pdf")} == \
        {path.name: path.read_bytes() for path in (tmp_path / "chimera").glob("*.pdf")}


def test_every_kit_page_after_the_plan_is_a_component_page_or_a_blank(kit: Path) -> None:
    components = {}
    for path in sorted(kit.glob("*.pdf")):
        if path.name != "kit.pdf":
            for number, page in enumerate(pikepdf.open(path).pages):
                components.setdefault(_content(page), f"{path.stem} page {number + 1}")
    pages = pikepdf.open(kit / "kit.pdf").pages
    found = [components.get(_content(page)) for page in pages]
    assert found[0] is None  # the "how to print" page is drawn for kit.pdf only
    unmatched = [number + 1 for number, name in enumerate(found) if name is None]
    blank = _content(pages[unmatched[-1] - 1])
    # besides the plan, only blank backs are drawn for kit.pdf, and every one of them is the same page
    assert {_content(pages[number - 1]) for number in unmatched[1:]} == {blank}
    assert sum(name is not None for name in found) == sum(len(pikepdf.open(p).pages) for p in kit.glob("*.pdf")
                                                          if p.name != "kit.pdf")


def _font_programs(pdf: pikepdf.Pdf) -> dict[str, set[str]]:
    names: dict[str, set[str]] = {}
    for obj in pdf.objects:
        if isinstance(obj, pikepdf.Dictionary) and obj.get("/Type") == "/Font":
            program = obj.FontDescriptor.FontFile2.read_bytes()
            names.setdefault(str(obj.BaseFont), set()).add(hashlib.sha256(program).hexdigest())
    return names


def test_kit_pdf_carries_each_face_once(kit: Path) -> None:
    """Every page is drawn alone with the same first subset of each face, so kit.pdf keeps one copy of
    each face however many pages use it (it carried one per part before: 3x the size)."""
    names = _font_programs(pikepdf.open(kit / "kit.pdf"))
    assert sorted(name.split("+")[1] for name in names) == ["DejaVuSans", "DejaVuSans-Bold", "DejaVuSansCondensed",
                                                            "DejaVuSansCondensed-Bold"]
    assert all(len(programs) == 1 for programs in names.values())


def test_different_subsets_from_different_pages_keep_different_names() -> None:
    """Characters outside the shared subset make a page's own second subset: two pages' second subsets
    differ, and one name for two font programs confuses RIPs, so they are named apart."""
    from toolkit.render.page_cache import draw_page

    pages = [draw_page(Page(100, 100, [Text(10, 10, word, 9)])) for word in ("\u0391\u0392", "\u0393\u0394")]
    with pikepdf.open(io.BytesIO(assemble_pdf(pages, [(0, 0), (1, 0)]))) as pdf:
        names = _font_programs(pdf)
    assert len(names) == 3  # the shared subset once, and each page's own second subset
    assert all(len(programs) == 1 for programs in names.values())


def test_assembling_is_reproducible_and_keeps_the_title() -> None:
    first = render_pdf(Document("Game: print-and-play kit", [Page(100, 100, [Text(10, 10, "plan", 9)])]))
    part = render_pdf(Document("Game: cards", [Page(100, 100, [Text(10, 10, f"card {n}", 9)]) for n in range(3)]))
    order = [(0, 0), (1, 2), (1, 0), (1, 0)]
    one, two = assemble_pdf([first, part], order), assemble_pdf([first, part], order)
    assert one == two
    assert str(pikepdf.open(io.BytesIO(one)).docinfo.Title) == "Game: print-and-play kit"
    with pdfplumber.open(io.BytesIO(one)) as pdf:
        assert [page.extract_text() for page in pdf.pages] == ["plan", "card 2", "card 0", "card 0"]


def test_a_render_cache_draws_again_only_what_changed() -> None:
    from toolkit.kit.component import Component
    from toolkit.kit.files import RenderCache, kit_files

    def part(name: str, word: str) -> Component:
        return Component(name, name.title(), pages=[Page(100, 100, [Text(10, 10, word, 9)])])

    cache = RenderCache()
    first = kit_files([part("cards", "one"), part("board", "board")], "Game", svg=False, cache=cache)
    assert sorted(cache.drawn) == ["board.pdf", "cards.pdf", "kit.pdf"]
    cache.start()
    again = kit_files([part("cards", "one"), part("board", "board")], "Game", svg=False, cache=cache)
    assert cache.drawn == []
    assert again == first
    cache.start()
    changed = kit_files([part("cards", "two"), part("board", "board")], "Game", svg=False, cache=cache)
    assert sorted(cache.drawn) == ["cards.pdf", "kit.pdf"]
    assert changed["board.pdf"] == first["board.pdf"]
    assert changed["cards.pdf"] != first["cards.pdf"]
    assert changed == kit_files([part("cards", "two"), part("board", "board")], "Game", svg=False)  # as drawn anew


def test_a_render_cache_draws_again_when_the_projects_fonts_change(tmp_path) -> None:
    """`duelkit watch` after an edit of `fonts:`: the same scene in another font is another file."""
    from tests.render.tiny_font import tiny_font
    from toolkit.kit.component import Component
    from toolkit.kit.files import RenderCache, kit_files
    from toolkit.render.fonts import use_fallback_fonts

    parts = [Component("cards", "Cards", pages=[Page(100, 100, [Text(10, 10, "語", 9)])])]
    cache = RenderCache()
    kit_files(parts, "Game", svg=True, cache=cache)
    font = tiny_font(tmp_path / "extra.ttf", "語")
    try:
        use_fallback_fonts([font])
        cache.start()
        with_font = kit_files(parts, "Game", svg=True, cache=cache)
        assert "cards.pdf" in cache.drawn
        assert "kit.pdf" in cache.drawn
        assert with_font == kit_files(parts, "Game", svg=True)  # as drawn anew with the font
    finally:
        use_fallback_fonts(())


def test_a_kept_assembly_replaces_pages_and_writes_what_a_fresh_assembly_writes() -> None:
    """`duelkit watch` copies only the changed pages into the PDF it kept: the bytes must be those of
    assembling anew, even when the replaced page was the one whose form (a card frame, with fonts of its
    own) and fonts the other pages share, and when a changed page equals another one."""
    from toolkit.render.assemble import Assembler
    from toolkit.render.page_cache import draw_page
    from toolkit.render.scene import Rect, reusable

    frame = reusable([Rect(0, 0, 50, 50), Text(5, 5, "frame", 6, "bold")])

    def sheet(word: str) -> bytes:
        return draw_page(Page(100, 100, [frame, Text(10, 20, word, 9), Text(10, 30, "rules", 7, "condensed")]))

    words = ["alpha", "beta", "gamma", "delta"]
    sources = [sheet(word) for word in words]
    order = [(index, 0) for index in range(len(sources))]
    assembler = Assembler()
    assert assembler.assemble("cards.pdf", sources, order, words, title="T") == assemble_pdf(sources, order, title="T")
    for index, word in ((0, "omega"), (2, "zeta"), (0, "alpha"), (3, "beta")):  # the last equals page 1
        words[index] = word
        sources[index] = sheet(word)
        if word == "beta":
            sources[index] = sources[1]  # equal pages are one drawn page (the page cache)
        kept = assembler.assemble("cards.pdf", sources, order, words, title="T")
        assert kept == assemble_pdf(sources, order, title="T")
    with pdfplumber.open(io.BytesIO(kept)) as pdf:
        assert [page.extract_text().split("\n")[-2] for page in pdf.pages] == ["alpha", "beta", "zeta", "beta"]


def test_a_kept_assembly_past_its_memory_budget_starts_anew_with_the_same_bytes(monkeypatch) -> None:
    """Each replaced page's source stays open until the PDF is assembled anew: past the budget it is, and
    the sources it held are let go."""
    from toolkit.render import assemble
    from toolkit.render.page_cache import draw_page

    monkeypatch.setattr(assemble, "_KEPT_BYTES", 1)
    sources = [draw_page(Page(100, 100, [Text(10, 20, word, 9)])) for word in ("one", "two", "three")]
    order = [(index, 0) for index in range(3)]
    assembler = assemble.Assembler()
    assembler.assemble("cards.pdf", sources, order, ["one", "two", "three"])
    first = assembler.kept["cards.pdf"]
    sources[1] = draw_page(Page(100, 100, [Text(10, 20, "deux", 9)]))
    again = assembler.assemble("cards.pdf", sources, order, ["one", "deux", "three"])
    assert again == assemble_pdf(sources, order)
    assert assembler.kept["cards.pdf"] is not first  # assembled anew
    assert len(assembler.kept["cards.pdf"].documents) == 3
