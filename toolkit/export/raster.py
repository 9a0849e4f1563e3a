"""Vector pages to images: drawn to PDF by the kit's renderer, rasterised by pdfium (pypdfium2, the PDF
engine of Chromium), written as PNG by Pillow with the DPI and the sRGB intent recorded and nothing that
varies between runs, so the same input gives the same bytes."""

from __future__ import annotations

import io
from collections.abc import Iterator, Sequence

from PIL import Image, PngImagePlugin

from toolkit.render.pdf import render_pdf
from toolkit.render.scene import Document, Page

MM_PER_INCH = 25.4
SRGB_PERCEPTUAL = b"\x00"  # the sRGB chunk's rendering intent


def rasterise(pages: Sequence[Page], dpi: float, *, transparent: bool = False,
              exact: tuple[int, int] | None = None) -> Iterator[Image.Image]:
    """One image per page at `dpi`: RGB on white, or RGBA with a transparent background (round tokens).
    All pages go through one PDF, so fonts and shared art are converted once; images come one at a time,
    so 400 cards at 300 DPI never sit in memory together. `exact`: the pixel size every image must have
    (a print service's template); pdfium's rounding is corrected by resampling at most a pixel."""
    import pypdfium2 as pdfium  # type: ignore[import-untyped]

    if not pages:
        return
    pdf = pdfium.PdfDocument(render_pdf(Document("duelkit export", list(pages))))
    try:
        fill = (255, 255, 255, 0) if transparent else (255, 255, 255, 255)
        for index in range(len(pdf)):
            page = pdf[index]
            bitmap = page.render(scale=dpi / 72, fill_color=fill, may_draw_forms=False)
            image = bitmap.to_pil().convert("RGBA" if transparent else "RGB")
            if exact is not None and image.size != exact:
                image = image.resize(exact, Image.Resampling.LANCZOS)
            bitmap.close()
            page.close()
            yield image
    finally:
        pdf.close()


def png_bytes(image: Image.Image, dpi: float) -> bytes:
    """PNG with pHYs (the DPI) and sRGB chunks and no time or text chunks: equal images, equal bytes."""
    info = PngImagePlugin.PngInfo()
    info.add(b"sRGB", SRGB_PERCEPTUAL)
    buffer = io.BytesIO()
    image.save(buffer, "PNG", dpi=(dpi, dpi), pnginfo=info, compress_level=3)
    return buffer.getvalue()


def pixels(mm: float, dpi: float) -> int:
    return round(mm / MM_PER_INCH * dpi)
