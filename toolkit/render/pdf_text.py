"""Text objects for the PDF renderer, written as reportlab's PDFTextObject writes them, byte for byte, but
without its per-call work: a kit draws tens of thousands of short strings (a card's table, its numbers),
and reportlab's text object re-parsed the colour, re-split the string into font subsets and re-escaped it
for every one (about half of drawing a schematics sheet).

What stays per call is what depends on the document: the subset's name (`/F1+0`, numbered in the order a
document first uses each face) and characters outside the shared first subset (`shared_subsets`), which
reportlab numbers per document; those go through reportlab's own `splitString`.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Protocol

from reportlab.lib.rl_accel import escapePDF, fp_str
from reportlab.pdfbase.pdfmetrics import getFont

from toolkit.render.fonts import font_runs, shown_text, text_width
from toolkit.render.pdf_ops import Colors
from toolkit.render.scene import PT_TO_MM, Text
from toolkit.render.shared_subsets import first_subset_bytes, use_face

LEADING = 1.2  # reportlab's default leading (a TL operator follows every Tf; it moves nothing here)


class TextState(Protocol):
    """What the renderer last set that outlives a text object: the fill colour (as written), and whether the
    document's faces start from the shared first subset (`render_pdf(shared_fonts=True)`)."""

    fill: str | None
    cmyk: bool
    seeded: bool
    subset_names: dict[tuple[str, int, float], str]  # the document's Tf operators by face, subset and size
    faces: set[str]  # the faces this document has used (`use_face`)


def write_texts(canvas: Any, items: list[Text], state: TextState, colors: Colors) -> None:
    """A run of consecutive text items as one text object (BT ... ET), appended to the canvas's page.

    `colors` holds the renderer's colour operators; the operators are those reportlab's
    `beginText`, `setTextTransform`, `setFillColor`, `setFont` and `textOut` write."""
    doc = canvas._doc
    code = ["BT", "1 0 0 1 0 0 Tm"]  # reportlab's text object starts at its origin
    font: tuple[str, float] | None = None
    subset = -1
    for item in items:
        shown = shown_text(item.text, item.font)  # never a missing-glyph box, whoever built the item
        x = item.x
        if item.anchor != "start":
            width = text_width(shown, item.font, item.size)
            x -= width / 2 if item.anchor == "middle" else width
        code.append(_tm(x, item.y))  # glyphs upright again inside the flipped page
        if item.color != state.fill:
            code.append(colors.fill(item.color, state.cmyk))
            state.fill = item.color  # the fill colour outlives the text object
        for name, chunk in font_runs(shown, item.font):  # a fallback font for what the font lacks
            if font != (name, item.size):
                font = (name, item.size)
                subset = -1  # reportlab writes Tf lazily, at the next string
                if name not in state.faces:
                    use_face(name, doc, state.seeded)
                    state.faces.add(name)
            shown_op = _first_subset_op(name, chunk) if state.seeded else None
            if shown_op is not None and subset == 0:
                code.append(shown_op)
                continue
            pieces = [(0, b"")] if shown_op is not None else _face(name).splitString(chunk, doc)
            for number, data in pieces:
                if number != subset:
                    tf = state.subset_names.get((name, number, item.size))
                    if tf is None:
                        tf = state.subset_names[name, number, item.size] = \
                            f"{_face(name).getSubsetInternalName(number, doc)} {_tf(item.size * PT_TO_MM)}"
                    code.append(tf)
                    subset = number
                code.append(shown_op or f"({escapePDF(data)}) Tj")
    code.append("ET")
    canvas._code.append(" ".join(code))


@lru_cache(maxsize=65536)
def _first_subset_op(name: str, chunk: str) -> str | None:
    """The show-string operator for characters all in the face's shared first subset (numbered alike in
    every seeded document), else None."""
    data = first_subset_bytes(name, chunk)
    return None if data is None else f"({escapePDF(data)}) Tj"


@lru_cache(maxsize=65536)
def _tm(x: float, y: float) -> str:
    """The text matrix at (x, y), upright in the flipped page (a card's rows sit at the same places on
    every card of a sheet: each card is a group moved into place)."""
    return f"{fp_str(1, 0, 0, -1, x, y)} Tm"


def _face(name: str) -> Any:
    """The registered TrueType font (reportlab's TTFont: the stubs know only its base class)."""
    return getFont(name)


@lru_cache(maxsize=256)
def _tf(size: float) -> str:
    return f"{fp_str(size)} Tf {fp_str(size * LEADING)} TL"
