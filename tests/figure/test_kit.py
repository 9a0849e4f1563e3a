"""The printed kit read back from its PDFs: sizes, fonts, text, reproducibility, atomic output."""

from __future__ import annotations

import itertools
import shutil
from pathlib import Path
from xml.etree import ElementTree

import pdfplumber
import pikepdf
import pytest

from toolkit.cli import main
from toolkit.figure.database import find_datasets, load_database
from toolkit.figure.rules.disk import ranges
from toolkit.render.fonts import missing_glyphs

MM = 72 / 25.4
COMPONENTS = ("print-test", "board", "tokens", "schematics", "modules", "d10", "spinners", "manual", "quick-reference")


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("kit")
    assert main(["build", "--out", str(out), "--svg"]) == 0
    return out


def bundled(theme: str):
    return load_database(next(ds for ds in find_datasets(None)[0] if ds.theme_id == theme))


@pytest.mark.parametrize("theme", ["duel-protocol", "chimera"])
def test_every_component_and_the_kit_are_written(built: Path, theme: str) -> None:
    names = {p.name for p in (built / theme).iterdir()}
    assert {f"{c}.pdf" for c in COMPONENTS} | {"kit.pdf"} <= names
    parts = sum(len(pikepdf.open(built / theme / f"{c}.pdf").pages) for c in COMPONENTS)
    kit = len(pikepdf.open(built / theme / "kit.pdf").pages)
    # every page of every part, the print plan and its blank back, and a blank back per one-sided sheet
    assert kit % 2 == 0
    assert parts + 2 <= kit <= 2 * parts + 2


@pytest.mark.parametrize(("paper", "size"), [("a4", (210, 297)), ("letter", (215.9, 279.4))])
def test_page_sizes(tmp_path: Path, paper: str, size: tuple[float, float]) -> None:
    assert main(["build", "--game", "chimera", "--paper", paper, "--out", str(tmp_path)]) == 0
    for page in pikepdf.open(tmp_path / "chimera" / "kit.pdf").pages:
        x0, y0, x1, y1 = (float(v) for v in page.mediabox)
        assert (x1 - x0) / MM == pytest.approx(size[0], abs=0.1)
        assert (y1 - y0) / MM == pytest.approx(size[1], abs=0.1)


def test_every_font_is_embedded(built: Path) -> None:
    pdf = pikepdf.open(built / "duel-protocol" / "kit.pdf")
    seen = 0
    for page in pdf.pages:
        for _, font in (page.resources.get("/Font") or {}).items():
            seen += 1
            descendant = font.get("/DescendantFonts")
            descriptor = (descendant[0] if descendant else font).get("/FontDescriptor")
            assert descriptor is not None, font.get("/BaseFont")
            assert "/FontFile2" in descriptor, font.get("/BaseFont")
            assert "Helvetica" not in str(font.get("/BaseFont"))
            assert "Times" not in str(font.get("/BaseFont"))
    assert seen > 0


def _crop_mark_xs(page) -> list[float]:
    """x positions (mm) of the short vertical crop marks above the card grid."""
    xs = sorted({round(line["x0"] / MM, 2) for line in page.lines
                 if abs(line["x0"] - line["x1"]) < 0.01 and abs(line["bottom"] - line["top"]) / MM < 5
                 and line["top"] / MM < 30})
    return xs


@pytest.mark.parametrize(("component", "width"), [("schematics", 70.0), ("modules", 63.5)])
def test_card_sizes_from_crop_marks(built: Path, component: str, width: float) -> None:
    with pdfplumber.open(built / "duel-protocol" / f"{component}.pdf") as pdf:
        page = pdf.pages[0]
        xs = _crop_mark_xs(page)
        gaps = [round(b - a, 1) for a, b in itertools.pairwise(xs)]
        # trim edges alternate: card width (or height, for sideways cards), then the 6 mm bleed gutter
        assert gaps
        assert set(gaps) <= {width, 6.0, 88.9 if component == "modules" else width}


def test_one_schematic_per_unit_with_its_ranges(built: Path) -> None:
    database = bundled("duel-protocol")
    with pdfplumber.open(built / "duel-protocol" / "schematics.pdf") as pdf:
        text = "\n".join(page.extract_text() or "" for page in pdf.pages)
    for unit in database.unit_defs().values():
        assert text.count(unit.name) >= 1, unit.name
        for low, high in ranges(unit.disk):
            assert (f"{low}–{high}" if high > low else str(low)) in text
    assert "Data Disk".upper() in text
    assert "Combat Dial".upper() not in text


def test_no_missing_glyphs_in_extracted_text(built: Path) -> None:
    for theme in ("duel-protocol", "chimera"):
        with pdfplumber.open(built / theme / "kit.pdf") as pdf:
            for page in pdf.pages:
                text = page.extract_text() or ""
                assert not missing_glyphs(text.replace("\n", "")), page.page_number


def test_svg_pieces_parse_as_xml(built: Path) -> None:
    svgs = sorted((built / "chimera").glob("*.svg"))
    assert len(svgs) > 20
    for svg in svgs:
        root = ElementTree.parse(svg).getroot()
        assert root.tag.endswith("svg")
        assert root.get("width", "").endswith("mm")


def test_two_builds_are_byte_identical(tmp_path: Path) -> None:
    assert main(["build", "--game", "duel-protocol", "--out", str(tmp_path / "one")]) == 0
    assert main(["build", "--game", "duel-protocol", "--out", str(tmp_path / "two")]) == 0
    for path in sorted((tmp_path / "one" / "duel-protocol").iterdir()):
        assert path.read_bytes() == (tmp_path / "two" / "duel-protocol" / path.name).read_bytes(), path.name


def test_invalid_data_builds_nothing(capsys, base_project: Path) -> None:
    (base_project / "unit_data" / "bad.yaml").write_text("id: bad\nname: Bad\nclass: R\nmp: 9\n"
                                                         "disk:\n  - {move: Jab, color: white, size: 96}\n")
    assert main(["build", str(base_project)]) == 1
    assert not (base_project / "output").exists()
    assert "not building" in capsys.readouterr().err


def test_failed_build_keeps_previous_output(monkeypatch, base_project: Path) -> None:
    assert main(["build", str(base_project)]) == 0
    target = base_project / "output" / "duel-protocol"
    before = {p.name: p.read_bytes() for p in target.iterdir()}

    def explode(_context):
        raise RuntimeError("simulated crash halfway through")

    import toolkit.figure.kit.build as build_module

    monkeypatch.setattr(build_module, "GENERATORS", (*build_module.GENERATORS[:3], ("boom", explode)))
    assert main(["build", str(base_project)]) == 70
    assert {p.name: p.read_bytes() for p in target.iterdir()} == before
    assert sorted(p.name for p in target.parent.iterdir()) == [".duelkit-lock", "duel-protocol"]  # no staging left


def test_text_too_long_is_cut_and_reported(capsys, base_project: Path) -> None:
    effect = " ".join(["The battle opponent is knocked back and loses its turn."] * 12)
    unit = (base_project / "unit_data" / "alpha.yaml").read_text().replace(
        "effect: EMP Static.", f"effect: {effect}")
    (base_project / "unit_data" / "alpha.yaml").write_text(unit)
    assert main(["build", str(base_project)]) == 0
    err = capsys.readouterr().err
    assert "warning[R001]" in err
    assert "'alpha' disk.2.effect" in err
    assert "alpha.yaml:10" in err


def test_glyph_the_font_lacks_is_replaced_not_boxed(base_project: Path) -> None:
    unit = (base_project / "unit_data" / "alpha.yaml").read_text().replace("Alpha Scout", "Alpha \U00013000 Scout")
    (base_project / "unit_data" / "alpha.yaml").write_text(unit)
    assert main(["build", str(base_project)]) == 0
    with pdfplumber.open(base_project / "output" / "duel-protocol" / "schematics.pdf") as pdf:
        text = "".join(page.extract_text() or "" for page in pdf.pages)
    assert "Alpha ? Scout" in text
    assert "\U00013000" not in text


def test_output_names_cannot_escape(tmp_path: Path) -> None:
    from toolkit.errors import DuelkitError
    from toolkit.output import replace_folder

    with pytest.raises(DuelkitError):
        replace_folder(tmp_path / "kit", {"../evil.pdf": b"x"})
    assert not (tmp_path / "evil.pdf").exists()
    assert not (tmp_path / "kit").exists()
    shutil.rmtree(tmp_path, ignore_errors=True)


def test_validate_reports_text_that_would_not_fit(capsys, base_project: Path) -> None:
    effect = " ".join(["The battle opponent is knocked back and loses its turn."] * 12)
    unit = (base_project / "unit_data" / "alpha.yaml").read_text().replace("effect: EMP Static.", f"effect: {effect}")
    (base_project / "unit_data" / "alpha.yaml").write_text(unit)
    assert main(["validate", str(base_project)]) == 0  # a warning, not an error
    out = capsys.readouterr().out
    assert "warning[R001]" in out
    assert "alpha.yaml:10" in out


def test_a_24_segment_disk_stays_on_its_card() -> None:
    from toolkit.figure.kit.context import KitContext
    from toolkit.figure.kit.schematics import HEIGHT, WIDTH, all_unit_facts, schematic_front
    from toolkit.figure.model import Unit
    from toolkit.render.fonts import text_width
    from toolkit.render.scene import Text

    database = bundled("duel-protocol")
    colors = ["white", "purple", "gold", "blue", "red"]
    disk = [{"move": f"Move number {i}", "color": colors[i % 5], "size": 4,
             **({"damage": 10 * i} if colors[i % 5] in ("white", "gold") else {}),
             **({"stars": 1 + i % 3, "effect": "A long effect text " * 5} if colors[i % 5] == "purple" else {})}
            for i in range(24)]
    unit = Unit.model_validate({"id": "many", "name": "Many Segments", "class": "R", "mp": 2, "disk": disk})
    database.units["many"] = database.units["v-k4"].__class__(unit, database.units["v-k4"].source,
                                                             database.units["v-k4"].data, ())
    context = KitContext(database, "a4")
    items = schematic_front(context, unit, all_unit_facts(context)["many"])
    warnings = context.fits.drain()
    texts = [i for i in items if isinstance(i, Text)]
    for text in texts:
        left = text.x - {"start": 0, "middle": 0.5, "end": 1}[text.anchor] * text_width(text.text, text.font, text.size)
        assert 0 <= text.y <= HEIGHT
        assert left >= -0.01
        assert left + text_width(text.text, text.font, text.size) <= WIDTH
    assert any("more: see the spinner sheet" in t.text for t in texts)
    assert any("'many' disk" in w.message for w in warnings)


def test_sword_duel_kit_pdf(tmp_path: Path) -> None:
    assert main(["build", "--game", "sword-duel", "--out", str(tmp_path / "one")]) == 0
    assert main(["build", "--game", "sword-duel", "--out", str(tmp_path / "two")]) == 0
    one, two = tmp_path / "one" / "sword-duel", tmp_path / "two" / "sword-duel"
    assert [p.name for p in sorted(one.iterdir())] == [p.name for p in sorted(two.iterdir())]
    for path in sorted(one.iterdir()):
        assert path.read_bytes() == (two / path.name).read_bytes(), path.name
    pdf = pikepdf.open(one / "kit.pdf")
    for page in pdf.pages:
        assert [round(float(v) / MM, 1) for v in page.mediabox][2:] == [210.0, 297.0]
        for _, font in (page.resources.get("/Font") or {}).items():
            descendant = font.get("/DescendantFonts")
            assert "/FontFile2" in (descendant[0] if descendant else font).get("/FontDescriptor")
    with pdfplumber.open(one / "kit.pdf") as doc:
        text = " ".join(page.extract_text() or "" for page in doc.pages)
    for word in ("Tsubame Gaeshi", "Challenger", "Defender", "Momentum", "Insight", "Close Combat"):
        assert word in text
    assert "Ai-Uchi" not in text.split("Not in this deck")[0]  # left out of the standard draft
