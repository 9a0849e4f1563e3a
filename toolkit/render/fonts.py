"""The TrueType fonts shipped in the package (DejaVu Sans), registered once for measuring and PDF.

Every PDF embeds these (as subsets); nothing falls back to a base-14 font. Text is measured with the
same metrics both renderers use, so wrapping decisions hold in PDF and SVG alike.
"""

from __future__ import annotations

from functools import cache, lru_cache
from pathlib import Path
from typing import cast

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

from toolkit.render.scene import PT_TO_MM, FontName

FONT_DIR = Path(__file__).resolve().parent.parent / "fonts"
FONT_FILES: dict[str, str] = {
    "regular": "DejaVuSans.ttf",
    "bold": "DejaVuSans-Bold.ttf",
    "condensed": "DejaVuSansCondensed.ttf",
    "condensed-bold": "DejaVuSansCondensed-Bold.ttf",
}
PDF_NAMES: dict[str, str] = {key: "Duelkit-" + Path(name).stem for key, name in FONT_FILES.items()}
SVG_FAMILY = {"regular": ("DejaVu Sans", "normal", "normal"), "bold": ("DejaVu Sans", "bold", "normal"),
              "condensed": ("DejaVu Sans Condensed", "normal", "condensed"),
              "condensed-bold": ("DejaVu Sans Condensed", "bold", "condensed")}
REPLACEMENT = "?"


@cache
def register_fonts() -> None:
    for key, filename in FONT_FILES.items():
        pdfmetrics.registerFont(TTFont(PDF_NAMES[key], str(FONT_DIR / filename)))


@cache
def _charmap(font: FontName) -> frozenset[int]:
    register_fonts()
    ttf = cast(TTFont, pdfmetrics.getFont(PDF_NAMES[font]))  # every font registered here is a TrueType font
    return frozenset(ttf.face.charToGlyph)


@lru_cache(maxsize=16384)
def missing_glyphs(text: str, font: FontName = "regular") -> frozenset[str]:
    """Characters the font cannot draw (they would print as empty boxes)."""
    charmap = _charmap(font)
    return frozenset(ch for ch in text if ord(ch) not in charmap and ch not in "\n\r\t")


def printable(text: str, font: FontName = "regular") -> str:
    """The text with characters the font lacks replaced, so no missing-glyph box is ever printed."""
    missing = missing_glyphs(text, font)
    return "".join(REPLACEMENT if ch in missing else ch for ch in text) if missing else text


@lru_cache(maxsize=65536)
def text_width(text: str, font: FontName, size_pt: float) -> float:
    """Width in millimetres (cached: kits measure the same words many times)."""
    register_fonts()
    return pdfmetrics.stringWidth(text, PDF_NAMES[font], size_pt) * PT_TO_MM
