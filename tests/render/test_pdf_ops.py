"""The renderer writes text objects, colours and shapes itself, from memory (issue 28: a quarter of drawing a
sheet of cards was reportlab's text object and Bezier arcs). What it writes must be what reportlab's own
canvas and text object write, operator for operator, or a page would print differently: here one page of
text (three anchors, four faces, colour changes, a character outside the shared subset, a no-break space, a
fallback font's character) and shapes is drawn both ways and compared, in RGB and CMYK, seeded and not."""

from __future__ import annotations

import io
from collections.abc import Iterator
from pathlib import Path

import pytest
from reportlab.pdfgen.canvas import Canvas

from tests.render.tiny_font import tiny_font
from toolkit.render import pdf
from toolkit.render.fonts import PDF_NAMES, font_runs, register_fonts, shown_text, text_width, use_fallback_fonts
from toolkit.render.scene import PT_TO_MM, Circle, Rect, Shape, Style, Text, Wedge
from toolkit.render.shared_subsets import seed_fonts

FALLBACK_ONLY = "語"  # not in DejaVu Sans

ITEMS: list[Shape] = [
    Text(10, 20, "Thunder Shock", 9, "bold", "#202020"),
    Text(35.5, 20, "30", 9, "regular", "#202020", "end"),
    Text(30, 28.25, "Quick\u00a0Attack ±½ é", 7.5, "condensed", "#c81e1e", "middle"),
    Text(12, 40, "Ωμέγα Ω", 8, "condensed-bold", "#1e40c8"),  # Greek: a page's own second subset
    Text(12, 48, f"Unit {FALLBACK_ONLY} ★", 8, "regular", "#1e40c8", "middle"),
    Rect(2, 3, 60, 90, Style(fill="#ffffff", stroke="#333333", width=0.4), radius=3),
    Rect(5, 5, 10, 10, Style(fill="#ffcc00", stroke=None)),
    Circle(30.25, 60.5, 11.3, Style(fill="#eeeeee", stroke="#000000", width=0.25)),
    Wedge(30.25, 60.5, 11.3, 15, 105.5, Style(fill="#d4af37", stroke="#000000", width=0.2)),
    Wedge(30.25, 60.5, 11.3, 0, 360, Style(fill=None, stroke="#000000", width=0.2)),
    Wedge(30.25, 60.5, 7.1, 200, 40, Style(fill="#7a3cc8", stroke=None)),
    Text(10, 80, "Miss", 9, "bold", "#ffffff"),
]


@pytest.fixture(autouse=True)
def fallback(tmp_path: Path) -> Iterator[None]:
    use_fallback_fonts([tiny_font(tmp_path / "extra.ttf", FALLBACK_ONLY)])
    yield
    use_fallback_fonts(())  # process-wide, like reportlab's font registry


def _canvas(seeded: bool) -> Canvas:
    register_fonts()
    canvas = Canvas(io.BytesIO(), invariant=1, initialFontName=PDF_NAMES["regular"],  # type: ignore[arg-type]
                    initialFontSize=10)
    if seeded:
        seed_fonts(canvas._doc)  # type: ignore[attr-defined]
    return canvas


def _by_reportlab(canvas: Canvas, cmyk: bool) -> None:
    """The items drawn through reportlab's own canvas and text object (the renderer before issue 28)."""
    fill = stroke = width = dash = None
    for item in ITEMS:
        if isinstance(item, Text):
            shown = shown_text(item.text, item.font)
            x = item.x - {"start": 0, "middle": 0.5, "end": 1}[item.anchor] * text_width(shown, item.font, item.size)
            text = canvas.beginText()
            text.setTextTransform(1, 0, 0, -1, x, item.y)
            if item.color != fill:
                text.setFillColor(pdf._color(item.color, cmyk))
                fill = item.color
            for name, chunk in font_runs(shown, item.font):
                text.setFont(name, item.size * PT_TO_MM)
                text.textOut(chunk)
            canvas.drawText(text)
            continue
        assert isinstance(item, (Rect, Circle, Wedge))
        style = item.style
        if style.fill and style.fill != fill:
            canvas.setFillColor(pdf._color(style.fill, cmyk))
            fill = style.fill
        if style.stroke and style.stroke != stroke:
            canvas.setStrokeColor(pdf._color(style.stroke, cmyk))
            stroke = style.stroke
        if style.stroke and style.width != width:
            canvas.setLineWidth(style.width)
            width = style.width
        if style.stroke and style.dash != dash:
            canvas.setDash(list(style.dash))
            dash = style.dash
        paint = {"stroke": int(bool(style.stroke)), "fill": int(bool(style.fill))}
        if isinstance(item, Rect) and item.radius:
            canvas.roundRect(item.x, item.y, item.w, item.h, item.radius, **paint)
        elif isinstance(item, Rect):
            canvas.rect(item.x, item.y, item.w, item.h, **paint)
        elif isinstance(item, Circle) or (isinstance(item, Wedge) and item.extent >= 360):
            canvas.circle(item.cx, item.cy, item.r, **paint)
        else:
            canvas.wedge(item.cx - item.r, item.cy - item.r, item.cx + item.r, item.cy + item.r,
                         item.start - 90, item.extent, **paint)


def _by_renderer(canvas: Canvas, cmyk: bool, seeded: bool) -> None:
    state = pdf._State(cmyk, seeded)
    for item in ITEMS:  # one at a time, as the reference draws them: each text its own text object
        pdf._draw_all(canvas, [item], state)


@pytest.mark.parametrize("cmyk", [False, True])
@pytest.mark.parametrize("seeded", [True, False])
def test_operators_match_reportlabs(cmyk: bool, seeded: bool) -> None:
    mine, theirs = _canvas(seeded), _canvas(seeded)
    _by_renderer(mine, cmyk, seeded)
    _by_reportlab(theirs, cmyk)
    assert mine._code == theirs._code  # type: ignore[attr-defined]
    assert FALLBACK_ONLY not in "".join(mine._code)  # type: ignore[attr-defined]  # encoded, in its own font
    mine.showPage()
    theirs.showPage()
    assert mine.getpdfdata() == theirs.getpdfdata()  # fonts, subsets and PDF version alike
