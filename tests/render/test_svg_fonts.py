"""SVG pieces carry their fonts: an @font-face per DejaVu face used, holding a glyph for every character the
page writes, so the text looks right and stays editable on a machine without DejaVu."""

from __future__ import annotations

import base64
import io
import re
import xml.etree.ElementTree as ET

from fontTools.ttLib import TTFont

from toolkit.figure.database import find_datasets, load_database
from toolkit.figure.kit.context import KitContext
from toolkit.figure.kit.spinners import build_spinners
from toolkit.render.scene import Page, Text
from toolkit.render.svg import render_svg

SVG = "{http://www.w3.org/2000/svg}"
FACE = re.compile(r"@font-face \{ font-family: '([^']+)'; font-weight: (\w+); font-stretch: (\w+); "
                  r"src: url\(data:font/ttf;base64,([A-Za-z0-9+/=]+)\) format\('truetype'\); \}")


def embedded(svg: str) -> dict[tuple[str, str, str], TTFont]:
    root = ET.fromstring(svg)  # still well-formed XML with the fonts inside
    (style,) = root.iter(f"{SVG}style")
    faces = {}
    for family, weight, stretch, data in FACE.findall(style.text or ""):
        faces[family, weight, stretch] = TTFont(io.BytesIO(base64.b64decode(data)))
    return faces


def test_spinner_svg_embeds_the_faces_its_text_uses() -> None:
    dataset = next(d for d in find_datasets(None)[0] if d.theme_id == "duel-protocol")
    _, piece = build_spinners(KitContext(load_database(dataset), "a4")).pieces[0]
    svg = render_svg(piece, "spinner")
    faces = embedded(svg)
    root = ET.fromstring(svg)
    texts = list(root.iter(f"{SVG}text"))
    assert texts
    for element in texts:
        family = element.get("font-family", "").split(",")[0].strip("' ")
        key = (family, element.get("font-weight", ""), element.get("font-stretch", ""))
        assert key in faces, f"{key} is used but not embedded"
        cmap = faces[key].getBestCmap()
        assert all(ord(ch) in cmap for ch in element.text or ""), element.text
    assert render_svg(piece, "spinner") == svg  # the subsets are reproducible


def test_characters_beyond_latin_are_embedded_too() -> None:
    page = Page(50, 20)
    page.add(Text(2, 10, "Ωmega ★ Σ", 8, "bold", "#000000"))
    faces = embedded(render_svg(page))
    assert list(faces) == [("DejaVu Sans", "bold", "normal")]  # only the face the page uses
    cmap = faces["DejaVu Sans", "bold", "normal"].getBestCmap()
    assert {ord("Ω"), ord("Σ"), ord("★"), ord("é")} <= set(cmap)  # é: Latin-1 is always there for edits
