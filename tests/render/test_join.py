"""A component's PDF joined from its pages without qpdf (`toolkit.render.join`): what a reader sees is what
qpdf's assembly showed, each font program is written once, and different subsets keep different names."""

from __future__ import annotations

import hashlib
import io
import warnings

import pdfplumber
import pikepdf
import pypdfium2

from toolkit.render import join
from toolkit.render.assemble import assemble_pdf
from toolkit.render.page_cache import draw_page
from toolkit.render.scene import Image, Page, Rect, Text, reusable


def _programs(data: bytes) -> dict[str, set[str]]:
    """Font programs by name (each a hash of its bytes)."""
    names: dict[str, set[str]] = {}
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # qpdf would warn of a damaged file (a wrong offset or length)
        with pikepdf.open(io.BytesIO(data)) as pdf:
            assert pdf.check_pdf_syntax() == []
            for obj in pdf.objects:
                if isinstance(obj, pikepdf.Dictionary) and obj.get("/Type") == "/Font":
                    program = obj.FontDescriptor.FontFile2.read_bytes()
                    names.setdefault(str(obj.BaseFont), set()).add(hashlib.sha256(program).hexdigest())
    return names


def _texts(data: bytes) -> list[str]:
    with pdfplumber.open(io.BytesIO(data)) as pdf:
        return [page.extract_text() for page in pdf.pages]


def test_a_joined_pdf_shows_the_pages_in_order_with_each_face_once() -> None:
    frame = reusable([Rect(0, 0, 50, 50), Text(5, 5, "frame", 6, "bold")])
    pages = [draw_page(Page(100, 100, [frame, Text(10, 20, word, 9), Text(10, 30, "rules", 7, "condensed")]))
             for word in ("alpha", "beta")]
    sources = [pages[0], pages[1], pages[0]]  # a page drawn once, shown twice (a deck's backs)
    joined, renamed = join.join_pages(sources, "Game: cards ★")
    assert not renamed
    assert joined == join.join_pages(list(sources), "Game: cards ★")[0]
    assert _texts(joined) == _texts(assemble_pdf(sources, [(0, 0), (1, 0), (2, 0)]))
    assert [text.split("\n")[1] for text in _texts(joined)] == ["alpha", "beta", "alpha"]
    names = _programs(joined)
    assert sorted(name.split("+")[1] for name in names) == ["DejaVuSans", "DejaVuSans-Bold", "DejaVuSansCondensed"]
    assert all(len(programs) == 1 for programs in names.values())
    with pikepdf.open(io.BytesIO(joined)) as pdf:
        assert str(pdf.docinfo.Title) == "Game: cards ★"
        assert len({page.obj.objgen for page in pdf.pages}) == 3  # a page object is never shared
        assert str(pdf.docinfo.Author) == "duelkit"
    assert len(joined) < sum(map(len, pages)) / 1.5  # the fonts once, not once per page


def test_different_second_subsets_are_named_apart() -> None:
    """Characters outside the shared subset make each page's own second subset, both named AAAAAB+...:
    one name for two font programs confuses RIPs."""
    pages = [draw_page(Page(100, 100, [Text(10, 10, word, 9)])) for word in ("\u0391\u0392", "\u0393\u0394")]
    joined, renamed = join.join_pages(pages, "T")
    assert renamed
    names = _programs(joined)
    assert len(names) == 3  # the shared subset once, and each page's own second subset
    assert all(len(programs) == 1 for programs in names.values())
    assert _texts(joined) == ["\u0391\u0392", "\u0393\u0394"]


def test_pictures_survive_the_join() -> None:
    from PIL import Image as Picture

    buffer = io.BytesIO()
    Picture.new("RGBA", (8, 8), (200, 30, 30, 128)).save(buffer, "PNG")
    page = draw_page(Page(100, 100, [Image(10, 10, 40, 40, buffer.getvalue()), Text(10, 70, "art", 9)]))
    joined, _ = join.join_pages([page, page], "T")
    _programs(joined)
    document = pypdfium2.PdfDocument(joined)
    pixel = document[1].render(scale=1).to_pil().convert("RGB").getpixel((int(30 / 25.4 * 72), int(30 / 25.4 * 72)))
    assert pixel[0] > 200  # the picture's red over white paper
    assert pixel[1] < 180


def test_a_page_this_reader_does_not_take_apart_goes_to_qpdf() -> None:
    odd = draw_page(Page(100, 100, [Text(10, 10, "odd", 9)])).replace(b"/Rotate 0", b"/Rotate 0 /X (s)", 1)
    plain = draw_page(Page(100, 100, [Text(10, 10, "plain", 9)]))
    joined, _ = join.join_pages([plain, odd], "T")
    assert joined == assemble_pdf([plain, odd], [(0, 0), (1, 0)], title="T")


def test_a_page_whose_table_or_streams_do_not_add_up_goes_to_qpdf() -> None:
    plain = draw_page(Page(100, 100, [Text(10, 10, "plain", 9)]))
    start = plain.index(b"/Length ") + len(b"/Length ")
    too_long = plain[:start] + b"9" + plain[start:]  # a stream said to run past its object
    for damaged in (plain.replace(b"startxref", b"startxreX"), too_long):
        joined, renamed = join.join_pages([plain, damaged], "T")
        assert renamed  # qpdf's assembly: whether it named subsets apart is not known
        assert joined == assemble_pdf([plain, damaged], [(0, 0), (1, 0)], title="T")
