"""Print-on-demand presets (`--service`), PDF/X-1a:2003 and `duelkit preflight`."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import pikepdf
import pytest
from PIL import Image as PILImage
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from toolkit.export.pieces import Card, Deck, ExportSet
from toolkit.export.png import png_files
from toolkit.export.pod import pod_files
from toolkit.export.services import SERVICES, fit_card, fit_scale
from toolkit.preflight import preflight
from toolkit.render.pdfx import MIN_PPI, PDFX_VERSION
from toolkit.render.scene import Image, Page, Rect, Text, filled

DTC = SERVICES["drivethrucards"]


@pytest.fixture(scope="module")
def dtc_files(export_sets: dict[str, ExportSet]) -> dict[str, bytes]:
    return {f"{game}/{name}": data for game, export in export_sets.items()
            for name, data in pod_files(export, game, 3.0, "front-back", cmyk=False, service=DTC).items()}


def test_every_drivethrucards_file_of_the_three_games_passes_preflight(dtc_files: dict[str, bytes]) -> None:
    assert {name.split("/")[0] for name in dtc_files} == {"duel-protocol", "chimera", "sword-duel"}
    for name, data in dtc_files.items():
        report = preflight(data, DTC)
        assert report.findings == [], name


def test_service_files_are_pdfx_1a_with_the_services_order_and_sizes(dtc_files: dict[str, bytes]) -> None:
    with pikepdf.open(io.BytesIO(dtc_files["duel-protocol/schematic.pdf"])) as pdf:
        assert str(pdf.docinfo.GTS_PDFXVersion) == PDFX_VERSION
        assert str(pdf.docinfo.Trapped) == "/False"
        assert pdf.pdf_version == "1.4"
        assert str(pdf.Root.OutputIntents[0].S) == "/GTS_PDFX"
        trim = [float(v) / (72 / 25.4) for v in pdf.pages[0].TrimBox]
        assert trim[2] - trim[0] == pytest.approx(69.85, abs=0.01)  # tarot, 2.75 x 4.75 in
        assert trim[3] - trim[1] == pytest.approx(120.65, abs=0.01)
        assert trim[0] == pytest.approx(3.175, abs=0.01)
    # DriveThruCards: first page is card 1's back, then its front
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument(dtc_files["sword-duel/role.pdf"])
    first, second = (document[i].get_textpage().get_text_range() for i in range(2))
    document.close()
    assert "Challenger" not in first
    assert "Challenger" in second


def test_service_files_are_reproducible(export_sets: dict[str, ExportSet]) -> None:
    one = ExportSet(decks=export_sets["duel-protocol"].decks[1:])
    assert pod_files(one, "t", 3.0, "front-back", False, DTC) == pod_files(one, "t", 3.0, "front-back", False, DTC)


@pytest.mark.parametrize(("service", "poker", "tarot"), [
    ("thegamecrafter", (825, 1125), (900, 1500)), ("makeplayingcards", (822, 1122), (897, 1497)),
    ("drivethrucards", (825, 1125), (900, 1500))])
def test_png_cards_have_the_services_exact_pixel_sizes(export_sets: dict[str, ExportSet], service: str,
                                                       poker: tuple[int, int], tarot: tuple[int, int]) -> None:
    figure = export_sets["duel-protocol"]
    decks = [Deck(deck.name, deck.cards[:1], deck.back) for deck in figure.decks]
    files = png_files(ExportSet(decks=decks), 300, 3.0, SERVICES[service])
    sizes = {name: PILImage.open(io.BytesIO(data)).size for name, data in files.items()}
    assert sizes["back-module.png"] == poker
    assert sizes["back-schematic.png"] == tarot


@pytest.mark.parametrize("service", sorted(SERVICES))
def test_the_kit_frame_lands_inside_every_services_safe_zone(service: str) -> None:
    chosen = SERVICES[service]
    for size in chosen.sizes:
        kit_w, kit_h = (63.5, 88.9) if size.name == "poker" else (70.0, 120.0)
        scale = fit_scale(kit_w, kit_h, size, chosen)
        # the kit's safe area (3 mm inside its trim), scaled about the centre, is inside the service's
        assert (size.width - (kit_w - 6) * scale) / 2 >= chosen.safe
        assert (size.height - (kit_h - 6) * scale) / 2 >= chosen.safe
        assert scale > 0.98  # fitted, not shrunk out of shape


def _card(items: list) -> Card:
    return Card("x-1", "x", Page(63.5 + 6, 88.9 + 6, items))


def test_a_coarse_picture_is_resampled_to_300_ppi_and_flattened_to_cmyk() -> None:
    buffer = io.BytesIO()
    PILImage.new("RGBA", (585, 819), (200, 30, 30, 128)).save(buffer, "PNG")  # 234 ppi over a poker card
    art = [Rect(0, 0, 69.5, 94.9, filled("#ffffff", None)), Image(3, 3, 63.5, 88.9, buffer.getvalue(), "png", True)]
    back = Page(69.5, 94.9, [Rect(0, 0, 69.5, 94.9, filled("#224466"))])
    deck = Deck("x", (_card(art),), Card("back-x", "back", back))
    data = pod_files(ExportSet(decks=[deck]), "t", 3.0, "front-back", False, DTC)["x.pdf"]
    assert preflight(data, DTC).findings == []
    from toolkit.export.pod import fit_notes

    assert any("x-1: its picture is 23" in note for note in fit_notes(ExportSet(decks=[deck]), DTC))
    with pikepdf.open(io.BytesIO(data)) as pdf:
        images = [obj for obj in pdf.objects if isinstance(obj, pikepdf.Stream) and obj.get("/Subtype") == "/Image"]
        assert images
        assert all(str(image.ColorSpace) == "/DeviceCMYK" and "/SMask" not in image for image in images)
        placed_inches = 63.5 * fit_scale(63.5, 88.9, DTC.sizes[0], DTC) / 25.4
        assert min(int(image.Width) for image in images) / placed_inches >= MIN_PPI


def _home_pdf() -> bytes:
    """What a home printer is happy with and a print shop is not: RGB, transparency, a standard font,
    a low-resolution picture, 6-point-wide... every item of the preflight, once."""
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=(69.85 * mm, 95.25 * mm), invariant=1)
    canvas.setFillColorRGB(0.8, 0.1, 0.1)
    canvas.rect(0, 0, 20, 20, fill=1)
    canvas.setFillAlpha(0.5)
    canvas.rect(20, 20, 20, 20, fill=1)
    canvas.setFillAlpha(1)
    canvas.setFillColorCMYK(1, 1, 1, 1)  # 400 % ink
    canvas.rect(40, 40, 20, 20, fill=1)
    canvas.setFont("Helvetica", 3)  # not embedded, 3 pt
    canvas.drawString(2, 5, "too close to the edge")
    picture = io.BytesIO()
    PILImage.new("RGB", (100, 100), (0, 128, 0)).save(picture, "PNG")
    from reportlab.lib.utils import ImageReader

    canvas.drawImage(ImageReader(picture), 60, 60, 72, 72)  # 100 ppi
    canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def test_preflight_names_each_problem_of_a_home_print_file_with_its_page() -> None:
    messages = [(finding.page, finding.message) for finding in preflight(_home_pdf()).findings]
    text = "\n".join(message for _, message in messages)
    for expected in ("not PDF/X-1a", "output intent", "no TrimBox", "no BleedBox", "RGB", "transparency",
                     "400% total ink", "not embedded", "3.00 pt", "100 ppi"):
        assert expected in text, expected
    assert all(page == 1 for page, message in messages if "TrimBox" in message or "RGB" in message)


def test_preflight_finds_text_in_the_safe_zone_of_a_boxed_page() -> None:
    piece = Page(69.5, 94.9, [Rect(0, 0, 69.5, 94.9, filled("#ffffff", None)),
                              Text(4.0, 40, "near the edge", 8)])  # 1 mm inside the trim
    deck = Deck("x", (Card("x-1", "x", piece),), Card("back-x", "b", Page(69.5, 94.9, [])))
    data = pod_files(ExportSet(decks=[deck]), "t", DTC.bleed, "front-back", cmyk=True)["x.pdf"]
    found = [finding for finding in preflight(data, DTC).findings if "from the trim" in finding.message]
    assert [finding.page for finding in found] == [1]
    assert "near the edge" in found[0].message


def test_fitting_keeps_the_card_centred_and_covers_the_bleed() -> None:
    piece = Page(76.0, 126.0, [Rect(0, 0, 76.0, 126.0, filled("#112233", None))])
    fitted = fit_card(piece, DTC.sizes[1], DTC)
    assert (fitted.width, fitted.height) == pytest.approx((69.85 + 2 * DTC.bleed, 120.65 + 2 * DTC.bleed))


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "toolkit", *args], capture_output=True, text=True, timeout=120)


def test_preflight_command_exit_codes(tmp_path: Path, dtc_files: dict[str, bytes], capsys) -> None:
    from toolkit.cli import main

    clean = tmp_path / "module.pdf"
    clean.write_bytes(dtc_files["chimera/module.pdf"])
    assert main(["preflight", str(clean), "--service", "drivethrucards"]) == 0
    assert "clean for DriveThruCards" in capsys.readouterr().out
    home = tmp_path / "home.pdf"
    home.write_bytes(_home_pdf())
    assert main(["preflight", str(home)]) == 1
    assert "page 1: colour set in RGB" in capsys.readouterr().out
    broken = tmp_path / "broken.pdf"
    broken.write_bytes(b"not a pdf at all")
    for target in (broken, tmp_path, tmp_path / "missing.pdf"):
        assert main(["preflight", str(target)]) == 1, target
        assert str(target) in capsys.readouterr().err


def test_preflight_command_runs_without_a_traceback(tmp_path: Path) -> None:
    home = tmp_path / "home.pdf"
    home.write_bytes(_home_pdf())
    done = _run("preflight", str(home), "--service", "makeplayingcards")
    assert done.returncode == 1
    assert "page 1: no TrimBox" in done.stdout
    assert "Traceback" not in done.stderr
