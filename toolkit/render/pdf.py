"""Draw a scene Document with reportlab. The only place where y is flipped: `_begin_page`.

For print-on-demand files, `render_pdf` can also set each page's TrimBox and BleedBox and write every
colour as DeviceCMYK (`cmyk_of`, the one RGB-to-CMYK conversion) as PDF/X-1a:2003 (`pdfx.py`).
"""

from __future__ import annotations

import io
from functools import lru_cache

from reportlab import rl_config
from reportlab.lib.colors import CMYKColor, Color, HexColor
from reportlab.lib.units import mm
from reportlab.lib.utils import ImageReader
from reportlab.pdfgen.canvas import Canvas

from toolkit.render.fonts import PDF_NAMES, register_face
from toolkit.render.pdf_ops import Colors, line_width_op, shape_ops
from toolkit.render.pdf_text import write_texts
from toolkit.render.pdfx import cmyk_of, cmyk_picture, finish_pdfx
from toolkit.render.scene import (
    Circle,
    Document,
    Group,
    Image,
    Line,
    Page,
    Polygon,
    Rect,
    Reuse,
    Shape,
    Style,
    Text,
    Wedge,
)
from toolkit.render.shared_subsets import format_form_once, format_info_once


class _State:
    """The graphics state we last set, so unchanged colours and widths are not written again.
    Forgotten whenever reportlab's state is restored (end of a group)."""

    def __init__(self, cmyk: bool = False, seeded: bool = False) -> None:
        self.forget()
        self.cmyk = cmyk
        self.seeded = seeded  # the DejaVu faces start from the shared first subset (`seed_face`)
        self.coloured = False  # a colour was set: the document is PDF 1.4
        self.subset_names: dict[tuple[str, int, float], str] = {}  # `pdf_text`: the document's Tf operators
        self.faces: set[str] = set()  # `pdf_text`: the faces the document has used (registered, seeded)
        self.forms: set[str] = set()

    def forget(self) -> None:
        self.fill: str | None = None
        self.stroke: str | None = None
        self.width: float | None = None
        self.dash: tuple[float, ...] | None = None


def render_pdf(document: Document, *, bleed: float | None = None, cmyk: bool = False,
               shared_fonts: bool = False) -> bytes:
    """PDF bytes; `invariant=1` makes the same scene give byte-identical files.

    `bleed` (mm): every page is a piece at trim size plus this bleed on each side: its BleedBox is the
    whole page and its TrimBox lies `bleed` inside. `cmyk`: colours as DeviceCMYK, at most MAX_INK
    total ink, pictures flattened to CMYK at 300 ppi or more, made PDF/X-1a:2003 (`pdfx.finish_pdfx`).
    `shared_fonts`: every DejaVu face used embeds the same first subset (`seed_face`), whatever the page
    shows, so PDFs assembled from pages drawn alone carry each face once (`toolkit.render.assemble`).
    """
    register_face("regular")  # the canvas starts in it; the other faces are read when first drawn
    rl_config.useA85 = 0  # binary streams: ASCII85 would make every page and picture 25% larger, for 7-bit mail
    buffer = io.BytesIO()
    first = document.pages[0] if document.pages else Page(210, 297)
    canvas = Canvas(buffer, pagesize=(first.width * mm, first.height * mm), invariant=1, pageCompression=1,
                    initialFontName=PDF_NAMES["regular"],  # type: ignore[arg-type]  # a font name; the stubs say float
                    initialFontSize=10)
    canvas.setTitle(document.title)
    canvas.setAuthor("duelkit")
    canvas.setCreator("duelkit")
    state = _State(cmyk, shared_fonts)
    for page in document.pages or [first]:
        canvas.setPageSize((page.width * mm, page.height * mm))
        if bleed is not None:
            _set_print_boxes(canvas, page, bleed)
        canvas.saveState()
        _begin_page(canvas, page)
        state.forget()
        _draw_all(canvas, page.items, state)
        canvas.restoreState()
        canvas.showPage()
    if shared_fonts:
        format_info_once(canvas._doc)  # type: ignore[attr-defined]
    canvas.save()
    return finish_pdfx(buffer.getvalue()) if cmyk else buffer.getvalue()


def _set_print_boxes(canvas: Canvas, page: Page, bleed: float) -> None:
    """BleedBox: the whole page; TrimBox: where the cutter cuts (PDF points, bottom-left origin)."""
    width, height = page.width * mm, page.height * mm
    inset = bleed * mm
    canvas.setBleedBox((0, 0, _pt(width), _pt(height)))
    canvas.setTrimBox((_pt(inset), _pt(inset), _pt(width - inset), _pt(height - inset)))


def _pt(value: float) -> float:
    return round(value, 4)


def _begin_page(canvas: Canvas, page: Page) -> None:
    """From here on, user space is millimetres with the origin top-left and y growing downwards."""
    canvas.transform(mm, 0, 0, -mm, 0, page.height * mm)


@lru_cache(maxsize=512)
def _color(value: str, cmyk: bool = False) -> Color:
    """Parsing '#rrggbb' is slow in reportlab; a kit uses a few dozen colours, so parse each once."""
    if cmyk:
        return CMYKColor(*cmyk_of(value))
    return HexColor(value)


def _apply(canvas: Canvas, style: Style, state: _State) -> tuple[int, int]:
    """Set what the style changes (operators as reportlab's canvas writes them, `pdf_ops`)."""
    if style.fill and style.fill != state.fill:
        _coloured(canvas, state)
        canvas._code.append(_COLORS.fill(style.fill, state.cmyk))  # type: ignore[attr-defined]
        state.fill = style.fill
    if style.stroke:
        if style.stroke != state.stroke:
            _coloured(canvas, state)
            canvas._code.append(_COLORS.stroke(style.stroke, state.cmyk))  # type: ignore[attr-defined]
            state.stroke = style.stroke
        if style.width != state.width:
            canvas._code.append(line_width_op(style.width))  # type: ignore[attr-defined]
            state.width = style.width
        if style.dash != state.dash:
            canvas.setDash(list(style.dash) if style.dash else [])
            state.dash = style.dash
    return int(bool(style.stroke)), int(bool(style.fill))


def _coloured(canvas: Canvas, state: _State) -> None:
    """reportlab's canvas makes a document PDF 1.4 once it sets a colour (its opacity); so do we."""
    if not state.coloured:
        canvas._doc.ensureMinPdfVersion("transparency")  # type: ignore[attr-defined]
        state.coloured = True


_COLORS = Colors(_color)


def _draw_all(canvas: Canvas, items, state: _State) -> None:
    run: list[Text] = []
    for item in items:
        if isinstance(item, Text):
            run.append(item)
            continue
        if run:
            _texts(canvas, run, state)
            run = []
        _draw(canvas, item, state)
    if run:
        _texts(canvas, run, state)


FORM_EXTENT = 5000  # mm either way: a form's bounding box must hold whatever it draws


def _reuse(canvas: Canvas, item: Reuse, state: _State) -> None:
    """Define the form on first use (drawn in the caller's coordinate system), then place it."""
    name = "F" + "".join(ch if ch.isalnum() else "_" for ch in item.key)
    if name not in state.forms:
        saved = (state.fill, state.stroke, state.width, state.dash)
        canvas.beginForm(name, -FORM_EXTENT, -FORM_EXTENT, FORM_EXTENT, FORM_EXTENT)
        state.forget()
        _draw_all(canvas, item.items, state)
        canvas.endForm()
        if state.seeded:
            format_form_once(canvas._doc, name)  # type: ignore[attr-defined]
        state.fill, state.stroke, state.width, state.dash = saved
        state.forms.add(name)
    canvas.doForm(name)  # a form runs inside its own save/restore: our tracked state still holds


def _image(canvas: Canvas, item: Image, cmyk: bool) -> None:
    canvas.saveState()
    canvas.translate(item.x, item.y + item.h)
    canvas.scale(1, -1)  # images upright again inside the flipped page
    if cmyk:  # PDF/X-1a: no transparency, no RGB
        canvas.drawImage(ImageReader(cmyk_picture(item.data, item.w, item.h)), 0, 0, item.w, item.h)
    else:
        canvas.drawImage(ImageReader(io.BytesIO(item.data)), 0, 0, item.w, item.h, mask="auto")
    canvas.restoreState()


def _draw(canvas: Canvas, item: Shape, state: _State) -> None:
    if isinstance(item, Text):  # _draw_all batches runs of text; a lone one is drawn the same way
        _texts(canvas, [item], state)
        return
    if isinstance(item, Image):
        _image(canvas, item, state.cmyk)
        return
    if isinstance(item, Reuse):
        _reuse(canvas, item, state)
        return
    if isinstance(item, Group):
        _group(canvas, item, state)
        return
    stroke, fill = _apply(canvas, item.style, state)
    if not (stroke or fill):
        return
    if isinstance(item, Rect) and not item.radius:
        canvas.rect(item.x, item.y, item.w, item.h, stroke=stroke, fill=fill)
    elif isinstance(item, (Rect, Circle, Wedge)):  # drawn again and again: their operators are kept
        canvas._code.extend(shape_ops(item, stroke, fill, canvas._fillMode))  # type: ignore[attr-defined]
    elif isinstance(item, Line):
        canvas.line(item.x1, item.y1, item.x2, item.y2)
    elif isinstance(item, Polygon):
        path = canvas.beginPath()
        path.moveTo(*item.points[0])
        for point in item.points[1:]:
            path.lineTo(*point)
        if item.closed:
            path.close()
        canvas.drawPath(path, stroke=stroke, fill=fill and item.closed)


def _texts(canvas: Canvas, items: list[Text], state: _State) -> None:
    """A run of consecutive text items as one text object (one BT ... ET), which is much cheaper."""
    write_texts(canvas, items, state, _COLORS)


def _group(canvas: Canvas, group: Group, state: _State) -> None:
    canvas.saveState()
    canvas.translate(group.dx, group.dy)
    if group.rotate:
        canvas.rotate(group.rotate)  # clockwise on paper, because y is flipped
    if group.mirror_x or group.mirror_y:
        canvas.scale(-1 if group.mirror_x else 1, -1 if group.mirror_y else 1)
    if group.scale != 1.0:
        canvas.scale(group.scale, group.scale)
    if group.clip is not None:
        path = canvas.beginPath()
        path.rect(group.clip.x, group.clip.y, group.clip.w, group.clip.h)
        canvas.clipPath(path, stroke=0, fill=0)
    _draw_all(canvas, group.items, state)
    canvas.restoreState()
    state.forget()
