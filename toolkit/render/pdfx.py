"""PDF/X-1a:2003 for print-on-demand files: what `render_pdf(cmyk=True)` adds to reportlab's output.

reportlab draws the pages (every colour already DeviceCMYK through `cmyk_of`); this module makes the
pictures print-ready (flattened onto white, converted to CMYK within the ink limit, resampled to at least
300 ppi at their placed size) and, with pikepdf, writes what reportlab has no API for: the PDF/X version
key, Trapped, and the GTS_PDFX output intent. `duelkit preflight` checks the same items.
"""

from __future__ import annotations

import io
import math
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from PIL import Image as PILImage

PDFX_VERSION = "PDF/X-1a:2003"
PDF_VERSION = "1.4"  # PDF/X-1a:2003 is based on PDF 1.4
MAX_INK = 240.0  # total ink limit of CMYK output (percent of C+M+Y+K): what print-on-demand printers ask for
MIN_PPI = 300.0  # pictures at least this fine at their placed size
TARGET_PPI = 320.0  # what a coarser picture is resampled to (room for a card scaled a little for a service)
# The printing condition the CMYK values are meant for: a registered characterisation (SWOP coated,
# CGATS TR 001), named without an embedded profile because no CMYK ICC profile can be shipped under
# duelkit's licence (see DESIGN.md); PDF/X-1a allows that for a condition in the ICC registry.
OUTPUT_CONDITION = "CGATS TR 001"
OUTPUT_CONDITION_INFO = "U.S. Web Coated (SWOP), CGATS TR 001"
COLOR_REGISTRY = "http://www.color.org"
MM_PER_INCH = 25.4


def cmyk_of(value: str) -> tuple[float, float, float, float]:
    """'#rrggbb' as (c, m, y, k) fractions: full grey-component replacement (neutrals print on black
    alone), then cyan, magenta and yellow scaled down so the total ink stays within MAX_INK. A simple
    device conversion, not a colour-managed one: order a printed proof before a large run."""
    red, green, blue = (int(value[i:i + 2], 16) / 255 for i in (1, 3, 5))
    black = 1 - max(red, green, blue)
    if black >= 1:
        return 0.0, 0.0, 0.0, 1.0
    cyan, magenta, yellow = ((1 - channel - black) / (1 - black) for channel in (red, green, blue))
    room = MAX_INK / 100 - black
    if cyan + magenta + yellow > room:
        factor = room / (cyan + magenta + yellow)
        cyan, magenta, yellow = cyan * factor, magenta * factor, yellow * factor
    # rounded down, so rounding never pushes the total over the limit
    return tuple(math.floor(part * 10000) / 10000 for part in (cyan, magenta, yellow, black))  # type: ignore[return-value]


def cmyk_picture(data: bytes, width_mm: float, height_mm: float) -> PILImage.Image:
    """A picture ready for PDF/X-1a: transparency flattened onto white paper (PDF/X-1a allows none),
    resampled up to TARGET_PPI when it is coarser than MIN_PPI at its placed size, and converted to CMYK
    as `cmyk_of` converts colours (the same grey replacement and ink limit, pixel by pixel)."""
    import numpy as np  # only print-on-demand files need it: a kit build never imports numpy
    from PIL import Image as PILImage

    with PILImage.open(io.BytesIO(data)) as opened:
        picture = opened.convert("RGBA")
    paper = PILImage.new("RGBA", picture.size, (255, 255, 255, 255))
    rgb = PILImage.alpha_composite(paper, picture).convert("RGB")
    ppi = min(rgb.width / (width_mm / MM_PER_INCH), rgb.height / (height_mm / MM_PER_INCH))
    if ppi < MIN_PPI:
        grow = TARGET_PPI / ppi
        rgb = rgb.resize((math.ceil(rgb.width * grow), math.ceil(rgb.height * grow)), PILImage.Resampling.LANCZOS)
    pixels = np.asarray(rgb, dtype=np.float64) / 255
    black = 1 - pixels.max(axis=2)
    room = np.where(black < 1, 1 - black, 1)
    cmy = np.where(black[..., None] < 1, (1 - pixels - black[..., None]) / room[..., None], 0)
    total = cmy.sum(axis=2)
    limit = MAX_INK / 100 - black
    factor = np.where(total > limit, limit / np.maximum(total, 1e-9), 1)
    cmyk = np.concatenate([cmy * factor[..., None], black[..., None]], axis=2)
    values = np.floor(cmyk * 255).clip(0, 255).astype(np.uint8)  # down, so the limit holds after rounding
    return PILImage.fromarray(values, "CMYK")


def finish_pdfx(pdf: bytes) -> bytes:
    """reportlab's CMYK output made PDF/X-1a:2003: version key, Trapped, the GTS_PDFX output intent,
    PDF 1.4, a document ID. `deterministic_id` keeps equal input byte-identical."""
    import pikepdf

    with pikepdf.open(io.BytesIO(pdf)) as document:
        intent = pikepdf.Dictionary(
            Type=pikepdf.Name.OutputIntent,
            S=pikepdf.Name.GTS_PDFX,
            OutputConditionIdentifier=pikepdf.String(OUTPUT_CONDITION),
            OutputCondition=pikepdf.String(OUTPUT_CONDITION_INFO),
            RegistryName=pikepdf.String(COLOR_REGISTRY),
            Info=pikepdf.String(OUTPUT_CONDITION_INFO),
        )
        document.Root.OutputIntents = pikepdf.Array([document.make_indirect(intent)])
        info = document.docinfo
        info[pikepdf.Name.GTS_PDFXVersion] = pikepdf.String(PDFX_VERSION)
        info[pikepdf.Name.Trapped] = pikepdf.Name("/False")  # no trapping applied; the RIP may trap
        if pikepdf.Name.ModDate not in info and pikepdf.Name.CreationDate in info:
            info[pikepdf.Name.ModDate] = info[pikepdf.Name.CreationDate]
        out = io.BytesIO()
        document.save(out, deterministic_id=True, force_version=PDF_VERSION)
    return out.getvalue()
