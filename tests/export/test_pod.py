"""`duelkit export pod`: one PDF per deck, one side per page, TrimBox/BleedBox, side order, CMYK."""

from __future__ import annotations

import io

import pikepdf
import pypdfium2 as pdfium
import pytest

from toolkit.export.pieces import ExportSet
from toolkit.export.pod import pod_files
from toolkit.render.pdfx import MAX_INK, OUTPUT_CONDITION, cmyk_of

PT = 72 / 25.4
RGB_OPERATORS = {"rg", "RG", "g", "G", "sc", "SC", "scn", "SCN", "cs", "CS"}


def colour_operators(page: pikepdf.Page) -> list[tuple[str, list[float]]]:
    """Every colour-setting operator of a page, its forms included (recursively)."""
    found: list[tuple[str, list[float]]] = []

    def walk(stream: pikepdf.Object, resources: pikepdf.Object | None) -> None:
        for operands, operator in pikepdf.parse_content_stream(stream):
            name = str(operator)
            if name in RGB_OPERATORS | {"k", "K"}:
                found.append((name, [float(value) for value in operands if not isinstance(value, pikepdf.Name)]))
        for xobject in (resources or {}).get("/XObject", {}).values():
            if xobject.get("/Subtype") == "/Form":
                walk(xobject, xobject.get("/Resources"))

    walk(page.obj, page.obj.get("/Resources"))
    return found


def page_texts(pdf: bytes) -> list[str]:
    document = pdfium.PdfDocument(pdf)
    texts = [document[i].get_textpage().get_text_range() for i in range(len(document))]
    document.close()
    return texts


@pytest.fixture(scope="module")
def sword(export_sets: dict[str, ExportSet]) -> ExportSet:
    return export_sets["sword-duel"]


def test_one_pdf_per_deck_with_trim_and_bleed_boxes(sword: ExportSet) -> None:
    files = pod_files(sword, "sword-duel", 3.175, "front-back", cmyk=False)
    assert set(files) == {"action-a.pdf", "action-b.pdf", "technique.pdf", "role.pdf"}
    deck = next(d for d in sword.decks if d.name == "technique")
    with pikepdf.open(io.BytesIO(files["technique.pdf"])) as pdf:
        assert len(pdf.pages) == 2 * len(deck.cards)
        for page in pdf.pages:
            media = [float(v) for v in page.MediaBox]
            assert media == pytest.approx([0, 0, (deck.width + 6.35) * PT, (deck.height + 6.35) * PT], abs=0.01)
            assert [float(v) for v in page.BleedBox] == pytest.approx(media, abs=0.01)
            trim = [float(v) for v in page.TrimBox]
            assert trim == pytest.approx([3.175 * PT, 3.175 * PT, media[2] - 3.175 * PT, media[3] - 3.175 * PT],
                                         abs=0.01)
        assert "/OutputIntents" not in pdf.Root
        assert any(name == "rg" for name, _ in colour_operators(pdf.pages[0]))


def test_sides_come_in_the_order_asked_for(sword: ExportSet) -> None:
    one = ExportSet(decks=[d for d in sword.decks if d.name == "role"])
    front_back = page_texts(pod_files(one, "t", 3.0, "front-back", cmyk=False)["role.pdf"])
    back_front = page_texts(pod_files(one, "t", 3.0, "back-front", cmyk=False)["role.pdf"])
    assert "Challenger" in front_back[0]
    assert "Defender" in front_back[2]
    assert front_back[1] == front_back[3] == back_front[0] == back_front[2]  # the shared back
    assert back_front[1] == front_back[0]
    assert back_front[3] == front_back[2]


def test_cmyk_writes_only_device_cmyk_within_the_ink_limit(sword: ExportSet) -> None:
    files = pod_files(sword, "sword-duel", 3.0, "front-back", cmyk=True)
    for name, data in files.items():
        with pikepdf.open(io.BytesIO(data)) as pdf:
            intents = pdf.Root.OutputIntents
            assert intents[0].S == "/GTS_PDFX"
            assert str(intents[0].OutputConditionIdentifier) == OUTPUT_CONDITION
            for page in pdf.pages:
                operators = colour_operators(page)
                assert operators, name
                assert not [op for op, _ in operators if op in RGB_OPERATORS], name
                assert max(sum(values) for _, values in operators) <= MAX_INK / 100 + 1e-9


def test_cmyk_output_is_reproducible(sword: ExportSet) -> None:
    one = ExportSet(decks=sword.decks[:1])
    assert pod_files(one, "t", 3.0, "front-back", cmyk=True) == pod_files(one, "t", 3.0, "front-back", cmyk=True)


@pytest.mark.parametrize("colour", ["#000000", "#ffffff", "#1f3a73", "#c0392b", "#10204a", "#777777", "#00ff00"])
def test_cmyk_conversion(colour: str) -> None:
    c, m, y, k = cmyk_of(colour)
    assert all(0 <= part <= 1 for part in (c, m, y, k))
    assert c + m + y + k <= MAX_INK / 100
    if colour == "#000000":
        assert (c, m, y, k) == (0, 0, 0, 1)
    if colour == "#777777":
        assert c == m == y == 0  # greys print on black alone
        assert k > 0
    if colour == "#ffffff":
        assert (c, m, y, k) == (0, 0, 0, 0)
