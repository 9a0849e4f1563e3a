"""A tiny TrueType font made with fontTools for tests of fallback fonts: a square glyph for each character."""

from __future__ import annotations

from pathlib import Path

from fontTools.fontBuilder import FontBuilder
from fontTools.pens.ttGlyphPen import TTGlyphPen
from fontTools.ttLib import TTFont
from fontTools.ttLib.tables.DefaultTable import DefaultTable


def tiny_font(path: Path, chars: str, family: str = "Test Fallback", *,
              extra_tables: dict[str, bytes] | None = None) -> bytes:
    """Write the font to `path` and return its bytes. `extra_tables` adds raw tables (tag: data), to make fonts
    that reportlab draws but other tools may choke on."""
    names = [".notdef", *(f"g{ord(ch):x}" for ch in chars)]
    builder = FontBuilder(1000, isTTF=True)
    builder.setupGlyphOrder(names)
    builder.setupCharacterMap({ord(ch): f"g{ord(ch):x}" for ch in chars})
    glyphs = {}
    for name in names:
        pen = TTGlyphPen(None)
        pen.moveTo((100, 0))
        pen.lineTo((100, 700))
        pen.lineTo((800, 700))
        pen.lineTo((800, 0))
        pen.closePath()
        glyphs[name] = pen.glyph()
    builder.setupGlyf(glyphs)
    builder.setupHorizontalMetrics({name: (900, 100) for name in names})
    builder.setupHorizontalHeader(ascent=800, descent=-200)
    postscript = "".join(ch for ch in family if ch.isascii() and ch.isalnum()) or "TestFallback"
    builder.setupNameTable({"familyName": family, "styleName": "Regular", "psName": f"{postscript}-Regular"})
    builder.setupOS2()
    builder.setupPost()
    builder.save(str(path))
    if extra_tables:
        font = TTFont(str(path))
        for tag, data in extra_tables.items():
            table = DefaultTable(tag)
            table.data = data  # written as it is, whatever the tag
            font[tag] = table
        font.save(str(path))
    return path.read_bytes()
