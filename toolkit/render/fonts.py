"""The TrueType fonts shipped in the package (DejaVu Sans), registered once for measuring and PDF, and a
project's fallback fonts (`fonts:` in duelkit.yaml), used glyph by glyph for what DejaVu lacks.

Every PDF embeds these (as subsets); nothing falls back to a base-14 font. Text is measured with the
same metrics both renderers use, so wrapping decisions hold in PDF and SVG alike. Right-to-left text
(Hebrew, Arabic) is put in display order by python-bidi (the Unicode bidirectional algorithm) when drawn;
Arabic letters are not shaped (joined), which `toolkit/kit/glyphs.py` warns about.

The fallback fonts are process-wide, as reportlab's font registry is: `use_fallback_fonts` sets them when
a project is loaded (one project per command).
"""

from __future__ import annotations

import io
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cache, lru_cache
from pathlib import Path

from toolkit.errors import DuelkitError
from toolkit.render.font_metrics import face_metrics
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
RTL_CLASSES = frozenset({"R", "AL"})


class FontFileError(DuelkitError):
    """A fallback font reportlab cannot use (not TrueType, PostScript outlines, a broken file)."""


@dataclass(frozen=True)
class FallbackFont:
    """A project's fallback font as registered: its PDF name (the name `font_runs` gives its runs), the family
    name its name table gives, the characters it draws, and the file's bytes (SVG embeds subsets of them)."""

    pdf_name: str
    family: str
    chars: frozenset[int] = field(repr=False)
    data: bytes = field(repr=False)


_fallbacks: tuple[FallbackFont, ...] = ()  # in the project's order: the first that has a character draws it


MAX_CMAP_CHARACTERS = 0x110000  # every Unicode code point once


def _check_cmap(data: bytes) -> None:
    """FontFileError when the character map reportlab will read claims more characters than Unicode has.

    reportlab expands every range of the map into a dict, so a crafted format 12 group (0 to 4 billion) or
    overlapping format 4 segments would run for hours and exhaust memory; the ranges are summed here first
    from the table's header words, choosing the subtable exactly as reportlab does. A file too short for
    the words it names is left to reportlab, which reports it as broken."""
    import struct

    def word(offset: int) -> int:
        return int(struct.unpack_from(">H", data, offset)[0])

    def long(offset: int) -> int:
        return int(struct.unpack_from(">I", data, offset)[0])

    try:
        cmap = next((long(12 + 16 * i + 8) for i in range(word(4)) if data[12 + 16 * i:16 + 16 * i] == b"cmap"),
                    None)
        if cmap is None:
            return
        version, count = word(cmap), word(cmap + 2)
        if count == 0 and version != 0:
            count = version
        chosen, kind = None, 0
        for n in range(count):  # reportlab's choice: the last Unicode subtable, else Mac Roman
            platform, encoding, offset = word(cmap + 4 + 8 * n), word(cmap + 6 + 8 * n), long(cmap + 8 + 8 * n)
            if platform == 3 or (platform == 1 and encoding == 1) or (platform == 0 and encoding != 5):
                chosen, kind = offset, 1
            elif platform == 1 and encoding == 0 and kind != 1:
                chosen, kind = offset, 2
        if chosen is None:
            return
        claimed = _claimed_characters(data, cmap + chosen, word, long)
    except struct.error:
        return
    if claimed > MAX_CMAP_CHARACTERS:
        raise FontFileError(f"its character map claims more characters than Unicode has ({claimed:,} or more, of "
                            f"{MAX_CMAP_CHARACTERS:,}): the font is broken or made to exhaust memory")


def _claimed_characters(data: bytes, table: int, word: Callable[[int], int], long: Callable[[int], int]) -> int:
    """The characters a cmap subtable maps, counted from its ranges (stopping once over the bound)."""
    fmt = word(table)
    if fmt == 4:
        segments = word(table + 6) // 2
        ends, starts = table + 14, table + 16 + 2 * segments
        return sum(max(0, word(ends + 2 * i) - word(starts + 2 * i) + 1) for i in range(segments))
    if fmt in (8, 12, 13):
        groups_at = table + 12 + (8192 if fmt == 8 else 0)
        groups = long(groups_at)
        total = 0
        for i in range(min(groups, (len(data) - groups_at - 4) // 12)):
            start, end = long(groups_at + 4 + 12 * i), long(groups_at + 8 + 12 * i)
            total += max(0, end - start + 1)
            if total > MAX_CMAP_CHARACTERS:
                break
        return total
    if fmt == 10:
        return long(table + 16)
    return 0  # formats 0 and 6 hold at most 65,536 entries


@cache
def _register_fallback(data: bytes) -> FallbackFont:
    """Register a font once per content (with reportlab, which draws it in PDFs)."""
    import hashlib

    name = "Duelkit-Fallback-" + hashlib.sha1(data).hexdigest()[:12]
    _check_cmap(data)
    from reportlab.pdfbase import pdfmetrics  # here: measuring the shipped fonts never loads reportlab
    from reportlab.pdfbase.ttfonts import TTFont

    try:
        font = TTFont(name, io.BytesIO(data))
    except Exception as exc:  # reportlab raises TTFError and others for fonts it cannot embed
        raise FontFileError(str(exc) or type(exc).__name__) from None
    pdfmetrics.registerFont(font)
    family = font.face.familyName.decode("utf-8", "replace") if isinstance(font.face.familyName, bytes) \
        else str(font.face.familyName)
    return FallbackFont(name, family, frozenset(font.face.charToGlyph), data)


def check_font(data: bytes) -> str:
    """The family name of a usable TrueType/OpenType (TrueType outlines) font; FontFileError otherwise."""
    return _register_fallback(data).family


MEASURED: list[Callable[[], None]] = []  # other modules' caches of measured text, cleared with these ones


def use_fallback_fonts(fonts: Sequence[bytes]) -> None:
    """Use these fonts, in order, for every character DejaVu lacks (invalid ones must be left out first)."""
    global _fallbacks
    chosen = tuple(_register_fallback(data) for data in fonts)
    if chosen != _fallbacks:
        _fallbacks = chosen
        missing_glyphs.cache_clear()
        text_width.cache_clear()
        font_runs.cache_clear()
        shown_text.cache_clear()
        for clear in MEASURED:
            clear()


def fallback_fonts() -> tuple[FallbackFont, ...]:
    """The fallback fonts in use, in order (the SVG names them after DejaVu and embeds those a page draws with)."""
    return _fallbacks


@cache
def register_fonts() -> None:
    """DejaVu's four faces, registered with reportlab once (as `shared_subsets` makes them: every page drawn
    alone embeds the same first subset of each)."""
    for key in FONT_FILES:
        register_face(key)


@cache
def register_face(font: FontName) -> str:
    """One DejaVu face registered with reportlab (once), by its PDF name: reading a face's tables is a
    tenth of drawing a deck, and a deck's cards use two of the four faces, so each is read when first drawn."""
    from reportlab.pdfbase import pdfmetrics

    from toolkit.render.shared_subsets import shared_subset_font

    pdfmetrics.registerFont(shared_subset_font(PDF_NAMES[font], str(FONT_DIR / FONT_FILES[font])))
    return PDF_NAMES[font]


@cache
def _charmap(font: FontName) -> frozenset[int]:
    """The characters the shipped face draws (from its metrics table: the same map reportlab reads)."""
    return frozenset(face_metrics(font).widths)


def _fallback_for(code: int) -> str | None:
    return next((font.pdf_name for font in _fallbacks if code in font.chars), None)


@lru_cache(maxsize=16384)
def missing_glyphs(text: str, font: FontName = "regular") -> frozenset[str]:
    """Characters neither the font nor any fallback font can draw (they would print as empty boxes)."""
    charmap = _charmap(font)
    return frozenset(ch for ch in text if ord(ch) not in charmap and ch not in "\n\r\t"
                     and _fallback_for(ord(ch)) is None)


@lru_cache(maxsize=16384)
def font_runs(text: str, font: FontName) -> tuple[tuple[str, str], ...]:
    """The text cut into (PDF font name, characters) runs: the font itself wherever it has the glyph,
    else the first fallback font that has it."""
    charmap = _charmap(font)
    runs: list[tuple[str, str]] = []
    for ch in text:
        name = PDF_NAMES[font] if ord(ch) in charmap else (_fallback_for(ord(ch)) or PDF_NAMES[font])
        if runs and runs[-1][0] == name:
            runs[-1] = (name, runs[-1][1] + ch)
        else:
            runs.append((name, ch))
    return tuple(runs)


def is_rtl(text: str) -> bool:
    """Whether the text holds right-to-left letters (Hebrew, Arabic, ...)."""
    return any(unicodedata.bidirectional(ch) in RTL_CLASSES for ch in text)


def display_order(text: str) -> str:
    """The text as it is drawn left to right: right-to-left runs reversed by the bidi algorithm."""
    if not is_rtl(text):
        return text
    from bidi import get_display

    return get_display(text)


def printable(text: str, font: FontName = "regular") -> str:
    """The text with characters the font lacks replaced, so no missing-glyph box is ever printed."""
    missing = missing_glyphs(text, font)
    return "".join(REPLACEMENT if ch in missing else ch for ch in text) if missing else text


@lru_cache(maxsize=65536)
def shown_text(text: str, font: FontName) -> str:
    """What the PDF draws for a text: `printable`, in `display_order` (cached: a kit draws the same words
    many times)."""
    return display_order(printable(text, font))


@lru_cache(maxsize=65536)
def text_width(text: str, font: FontName, size_pt: float) -> float:
    """Width in millimetres (cached: kits measure the same words many times). The shipped faces are
    measured from their metrics table, as reportlab measures them; fallback fonts by reportlab."""
    if not _fallbacks:
        return face_metrics(font).string_width(text, size_pt) * PT_TO_MM
    register_fonts()
    from reportlab.pdfbase import pdfmetrics

    return sum(pdfmetrics.stringWidth(chunk, name, size_pt) for name, chunk in font_runs(text, font)) * PT_TO_MM
