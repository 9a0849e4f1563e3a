"""The shipped fonts' metrics table (toolkit/fonts/metrics.json) says exactly what reportlab reads from the TTF
files: the same characters, the same advances, and the same string widths to the last bit, so text measured
by `duelkit validate` (from the table) and by `duelkit build` (which registers the fonts) wraps the same."""

from __future__ import annotations

import random
from typing import cast

import pytest
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

from toolkit.render.font_metrics import face_metrics
from toolkit.render.fonts import FONT_FILES, PDF_NAMES, missing_glyphs, register_fonts, text_width
from toolkit.render.scene import PT_TO_MM


def registered(font: str) -> TTFont:
    register_fonts()
    return cast(TTFont, pdfmetrics.getFont(PDF_NAMES[font]))


@pytest.mark.parametrize("font", FONT_FILES)
def test_table_holds_what_reportlab_reads_from_the_font_file(font: str) -> None:
    """Rerun scripts/font_metrics.py when this fails (a font file changed)."""
    face = registered(font).face
    metrics = face_metrics(font)
    assert metrics.widths == face.charWidths
    assert set(metrics.widths) == set(face.charToGlyph)
    assert metrics.default == face.defaultWidth


@pytest.mark.parametrize("font", FONT_FILES)
def test_string_widths_are_reportlabs_to_the_last_bit(font: str) -> None:
    rng = random.Random(font)
    drawn = [chr(code) for code in sorted(face_metrics(font).widths)]
    alphabet = drawn[:200] + rng.sample(drawn, 200) + ["\U0001F600", "\u0378", "\n", "\t", "\x00"]
    for _ in range(2000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randrange(0, 40)))
        size = rng.choice([5.0, 6.5, 7.0, 8.0, 9.5, 12.0, rng.uniform(3, 30)])
        assert text_width(text, font, size) == pdfmetrics.stringWidth(text, PDF_NAMES[font], size) * PT_TO_MM


def test_characters_the_fonts_lack_are_found_from_the_table() -> None:
    assert missing_glyphs("Alpha é 雷", "bold") == frozenset({"雷"})
    assert missing_glyphs("Ωmega \U0001F600 \u0378", "condensed") == frozenset({"\u0378"})
