"""SVG pieces carry a project's fallback fonts too (issue 14 item 8): each page embeds, for every fallback font its
text falls to, a subset holding exactly the characters the page draws with it, so a machine without that font
still shows them, and bold or condensed text uses the font's one weight, as the PDF does."""

from __future__ import annotations

import base64
import io
import os
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path

import pytest
from fontTools.ttLib import TTCollection, TTFont

from tests.conftest import FIXTURES
from tests.render.tiny_font import tiny_font
from toolkit.cli import main
from toolkit.render.fonts import use_fallback_fonts
from toolkit.render.scene import Page, Text
from toolkit.render.svg import render_svg

SVG = "{http://www.w3.org/2000/svg}"
UNIT_ONLY, MODULE_ONLY, NEVER_DRAWN = "語", "漢", "字"  # none in DejaVu Sans
FALLBACK_FACE = re.compile(r"@font-face \{ font-family: '([^']+)'; font-weight: 100 900; font-stretch: 50% 200%; "
                           r"unicode-range: ([^;]+); src: url\(data:font/ttf;base64,([A-Za-z0-9+/=]+)\) "
                           r"format\('truetype'\); \}")
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def _no_fallbacks_left_behind() -> Iterator[None]:
    yield
    use_fallback_fonts(())  # process-wide, like reportlab's font registry


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The base project with a fallback font, a unit named with one of its characters, a module with another."""
    root = tmp_path_factory.mktemp("fallback") / "project"
    shutil.copytree(FIXTURES / "base", root)
    (root / "fonts").mkdir()
    tiny_font(root / "fonts" / "extra.ttf", UNIT_ONLY + MODULE_ONLY + NEVER_DRAWN)
    (root / "duelkit.yaml").write_text("theme: duel-protocol\nfonts: [fonts/extra.ttf]\n")
    for path, name in (("unit_data/alpha.yaml", f"Alpha {UNIT_ONLY}"), ("modules/x-attack.yaml", f"X {MODULE_ONLY}")):
        data = root / path
        data.write_text(re.sub(r"(?m)^name: .*$", f"name: {name}", data.read_text(), count=1))
    return root


def build_svgs(capsys: pytest.CaptureFixture[str], project: Path, out: Path) -> dict[str, str]:
    assert main(["build", str(project), "--svg", "--out", str(out)]) == 0
    assert "Traceback" not in capsys.readouterr().err
    return {path.name: path.read_text(encoding="utf-8") for path in sorted(out.rglob("*.svg"))}


def fallback_faces(svg: str) -> dict[str, tuple[str, bytes]]:
    """family: (unicode-range, font bytes) of each fallback @font-face."""
    root = ET.fromstring(svg)
    css = "".join(style.text or "" for style in root.iter(f"{SVG}style"))
    return {family: (ranges, base64.b64decode(data)) for family, ranges, data in FALLBACK_FACE.findall(css)}


def texts(svg: str) -> list[ET.Element]:
    return list(ET.fromstring(svg).iter(f"{SVG}text"))


def test_build_svg_embeds_the_fallback_font_cut_down_to_the_characters_each_page_draws(
        capsys: pytest.CaptureFixture[str], project: Path, tmp_path: Path) -> None:
    svgs = build_svgs(capsys, project, tmp_path / "out")
    with_fallback = set()
    for name, svg in svgs.items():
        drawn = {ch for element in texts(svg) for ch in "".join(element.itertext()) if ch in UNIT_ONLY + MODULE_ONLY}
        faces = fallback_faces(svg)
        if not drawn:
            assert faces == {}, f"{name} draws no fallback character but embeds {list(faces)}"
            assert "Test Fallback'; font-weight" not in svg
            continue
        with_fallback.add(name)
        assert list(faces) == ["Test Fallback"], name
        font = TTFont(io.BytesIO(faces["Test Fallback"][1]))
        assert font["name"].getBestFamilyName() == "Test Fallback"
        held = {chr(code) for code in font.getBestCmap()}
        assert held == drawn, f"{name}: the subset holds {held}, the page draws {drawn}"  # NEVER_DRAWN left out
        for element in texts(svg):
            if drawn & set("".join(element.itertext())):
                assert "'Test Fallback'" in element.get("font-family", "")
    assert {"schematic-alpha.svg", "module-a-x-attack.svg"} <= with_fallback  # side A's card of X Attack
    assert len(with_fallback) < len(svgs)  # most pieces draw no fallback character


def test_the_svgs_are_byte_identical_from_one_run_to_the_next(capsys: pytest.CaptureFixture[str], project: Path,
                                                               tmp_path: Path) -> None:
    first = build_svgs(capsys, project, tmp_path / "first")
    # another process: a fresh font cache, and another hash seed for every set of characters
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONHASHSEED": "12345"}
    subprocess.run([sys.executable, "-m", "toolkit", "build", str(project), "--svg", "--out", str(tmp_path / "second")],
                   check=True, env=env, capture_output=True)
    second = {path.name: path.read_text(encoding="utf-8") for path in sorted((tmp_path / "second").rglob("*.svg"))}
    assert fallback_faces(first["schematic-alpha.svg"])
    assert second == first


def _page(*lines: tuple[str, str]) -> Page:
    page = Page(60, 30)
    for row, (text, font) in enumerate(lines):
        page.add(Text(2, 8 + row * 8, text, 9, font, "#000000"))  # type: ignore[arg-type]
    return page


def test_a_page_without_fallback_characters_is_drawn_as_without_fallback_fonts(tmp_path: Path) -> None:
    page = _page(("Alpha Scout", "bold"), ("Ωmega ★", "regular"))
    plain = render_svg(page, "card")
    use_fallback_fonts([tiny_font(tmp_path / "extra.ttf", UNIT_ONLY)])
    svg = render_svg(page, "card")
    assert fallback_faces(svg) == {}
    assert svg.replace("'Test Fallback', ", "") == plain  # the family is listed, nothing else changes


def test_each_fallback_font_gets_its_own_face_and_odd_family_names_a_safe_one(tmp_path: Path) -> None:
    odd = "O'Brien ]]> Sans"  # would end the CSS string and the style's CDATA
    use_fallback_fonts([tiny_font(tmp_path / "a.ttf", UNIT_ONLY, family=odd),
                        tiny_font(tmp_path / "b.ttf", UNIT_ONLY + MODULE_ONLY, family="DejaVu Sans")])
    svg = render_svg(_page((f"Bold {UNIT_ONLY}", "condensed-bold"), (f"{MODULE_ONLY}{UNIT_ONLY}", "regular")))
    faces = fallback_faces(svg)  # still well-formed XML
    assert len(faces) == 2
    assert not any(name in {odd, "DejaVu Sans"} for name in faces)
    ranges = {ranges: {chr(code) for code in TTFont(io.BytesIO(data)).getBestCmap()} for ranges, data in faces.values()}
    # each character is drawn by the first font that has it, and embedded only there
    assert ranges == {f"U+{ord(UNIT_ONLY):X}": {UNIT_ONLY}, f"U+{ord(MODULE_ONLY):X}": {MODULE_ONLY}}
    for element in texts(svg):
        listed = [name.strip(" '") for name in element.get("font-family", "").split(",")]
        assert listed[1:3] == list(faces), "the text lists the families the faces declare, in the project's order"


def test_a_font_fonttools_cannot_subset_is_embedded_whole(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    broken = tiny_font(tmp_path / "broken.ttf", UNIT_ONLY, extra_tables={"GSUB": b"\x00\x01\x00\x00broken"})
    use_fallback_fonts([broken])  # reportlab never reads GSUB, so it draws this font in the PDF
    [(_, data)] = fallback_faces(render_svg(_page((UNIT_ONLY, "regular")))).values()
    assert data == broken
    odd_table = tiny_font(tmp_path / "odd.ttf", UNIT_ONLY, extra_tables={"zzzz": b"\x1b[31m"})
    use_fallback_fonts([odd_table])
    [(_, data)] = fallback_faces(render_svg(_page((UNIT_ONLY, "regular")))).values()
    assert "zzzz" not in TTFont(io.BytesIO(data))  # a table fontTools does not know is dropped, quietly
    assert capsys.readouterr().err == ""


def test_a_font_collection_embeds_its_first_font_the_one_reportlab_draws(tmp_path: Path) -> None:
    collection = TTCollection()
    collection.fonts = [TTFont(io.BytesIO(tiny_font(tmp_path / "a.ttf", UNIT_ONLY + MODULE_ONLY, family="First"))),
                        TTFont(io.BytesIO(tiny_font(tmp_path / "b.ttf", UNIT_ONLY, family="Second")))]
    collection.save(str(tmp_path / "both.ttc"))
    use_fallback_fonts([(tmp_path / "both.ttc").read_bytes()])
    faces = fallback_faces(render_svg(_page((UNIT_ONLY, "bold"))))
    assert list(faces) == ["First"]
    font = TTFont(io.BytesIO(faces["First"][1]))  # a single font, which every viewer reads
    assert set(font.getBestCmap()) == {ord(UNIT_ONLY)}
