"""`duelkit preflight`: a PDF checked as a print shop's preflight checks it, each problem with its page.

What is checked (DESIGN.md, "Preflight"): the PDF/X-1a:2003 items (version key, Trapped, a GTS_PDFX
output intent, PDF 1.4 at most, only CMYK or grey colour, no transparency, every font embedded, pictures
of at least 300 ppi at their placed size), each page's TrimBox and BleedBox (with a service: its card
sizes and its bleed), the smallest type, total ink (at most 240 %) and text inside the safe zone.

The content streams are read with pikepdf (colour operators, graphics states, images, fonts, the text
size through the text and current transformation matrices); where each character sits comes from
pdfium's text page (the engine the exports rasterise with), so the safe-zone check measures glyph boxes,
not guesses. Pure: bytes in, findings out.
"""

from __future__ import annotations

import io
import math
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from toolkit.errors import DuelkitError
from toolkit.export.services import Service
from toolkit.render.pdfx import MAX_INK, MIN_PPI

PT_PER_MM = 72 / 25.4
MIN_TYPE = 4.0  # pt: smaller type breaks up on a digital press (hairline strokes); DESIGN.md says why 4
DEFAULT_SAFE = 25.4 / 8  # mm, without a service: the common 1/8 in
BOX_TOLERANCE = 0.05  # mm
RGB_SPACES = {"/DeviceRGB", "/CalRGB", "/Lab"}
OK_SPACES = {"/DeviceCMYK", "/DeviceGray", "/CalGray", "/Separation", "/DeviceN", "/Pattern"}

Matrix = tuple[float, float, float, float, float, float]
IDENTITY: Matrix = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)


class PreflightError(DuelkitError):
    """The file is not a PDF duelkit can read."""


@dataclass(frozen=True)
class Finding:
    page: int | None  # 1-based; None for the document as a whole
    message: str


@dataclass
class Report:
    pages: int = 0
    findings: list[Finding] = field(default_factory=list)
    smallest_type: float | None = None  # pt, over the whole file

    def add(self, page: int | None, message: str) -> None:
        finding = Finding(page, message)
        if finding not in self.findings:
            self.findings.append(finding)


def _multiply(m: Matrix, n: Matrix) -> Matrix:
    """m then n (PDF's row-vector convention: m x n)."""
    a, b, c, d, e, f = m
    p, q, r, s, t, u = n
    return (a * p + b * r, a * q + b * s, c * p + d * r, c * q + d * s, e * p + f * r + t, e * q + f * s + u)


def _numbers(operands: Any) -> list[float]:
    return [float(value) for value in operands]


class _PageScan:
    """One page's content (its forms included) walked once for colour, transparency, fonts, images and
    type size."""

    def __init__(self, report: Report, number: int) -> None:
        self.report = report
        self.number = number
        self.smallest: float | None = None
        self.fonts_seen: set[int] = set()

    def problem(self, message: str) -> None:
        self.report.add(self.number, message)

    def colour_space(self, name: Any, resources: Any) -> str:
        """The family of a colour space operand: '/DeviceRGB', '/DeviceCMYK', ... ('/ICCBased3' for an
        RGB ICC profile)."""
        key = str(name)
        if key in RGB_SPACES | OK_SPACES:
            return key
        space = resources.get("/ColorSpace", {}).get(key) if resources is not None else None
        return self.describe_space(space)

    def describe_space(self, space: Any) -> str:
        import pikepdf

        if space is None:
            return "unknown"
        if isinstance(space, pikepdf.Name):
            return str(space)
        if isinstance(space, pikepdf.Array) and len(space):
            family = str(space[0])
            if family == "/ICCBased":
                return f"/ICCBased{int(space[1].get('/N', 0))}"
            if family == "/Indexed":
                return self.describe_space(space[1])
            return family
        return "unknown"

    def check_space(self, family: str, what: str) -> None:
        if family in RGB_SPACES or family == "/ICCBased3":
            self.problem(f"{what} in RGB ({family.lstrip('/')}); a print shop wants CMYK or grey")
        elif family not in OK_SPACES and family not in {"/ICCBased1", "/ICCBased4"}:
            self.problem(f"{what} in colour space {family.lstrip('/')}; PDF/X-1a allows CMYK, grey and spot colours")

    def ink(self, values: list[float], what: str) -> None:
        total = sum(values) * 100
        if total > MAX_INK + 0.5:
            self.problem(f"{what} uses {total:.0f}% total ink (at most {MAX_INK:.0f}%)")

    def walk(self, stream: Any, resources: Any, ctm: Matrix, depth: int = 0) -> None:  # noqa: C901 - one flat dispatch
        import pikepdf

        if depth > 20:
            self.problem("forms nested more than 20 deep")
            return
        stack: list[Matrix] = []
        fill_space = stroke_space = "/DeviceGray"
        text_matrix: Matrix = IDENTITY
        font_size = 0.0
        for instruction in pikepdf.parse_content_stream(stream):
            if isinstance(instruction, pikepdf.ContentStreamInlineImage):
                self.inline_image(instruction, ctm)
                continue
            operands, operator = instruction.operands, str(instruction.operator)
            if operator == "q":
                stack.append(ctm)
            elif operator == "Q":
                ctm = stack.pop() if stack else ctm
            elif operator == "cm":
                ctm = _multiply(tuple(_numbers(operands)), ctm)  # type: ignore[arg-type]
            elif operator in {"rg", "RG"}:
                self.problem("colour set in RGB (DeviceRGB); a print shop wants CMYK or grey")
            elif operator in {"k", "K"}:
                self.ink(_numbers(operands), "a CMYK colour")
            elif operator == "cs":
                fill_space = self.colour_space(operands[0], resources)
                self.check_space(fill_space, "a fill colour")
            elif operator == "CS":
                stroke_space = self.colour_space(operands[0], resources)
                self.check_space(stroke_space, "a stroke colour")
            elif operator in {"sc", "scn", "SC", "SCN"}:
                space = fill_space if operator in {"sc", "scn"} else stroke_space
                numbers = [v for v in operands if not isinstance(v, pikepdf.Name)]
                if space == "/DeviceCMYK" or space == "/ICCBased4":
                    self.ink(_numbers(numbers), "a CMYK colour")
            elif operator == "gs":
                self.graphics_state(resources, operands[0])
            elif operator == "sh":
                shading = (resources or {}).get("/Shading", {}).get(str(operands[0]))
                if shading is not None:
                    self.check_space(self.describe_space(shading.get("/ColorSpace")), "a shading")
            elif operator == "BT":
                text_matrix = IDENTITY
            elif operator == "Tm":
                text_matrix = tuple(_numbers(operands))  # type: ignore[assignment]
            elif operator == "Tf":
                font_size = float(operands[1])
                self.font(resources, operands[0])
            elif operator in {"Tj", "TJ", "'", '"'}:
                self.type_size(font_size, text_matrix, ctm)
            elif operator == "Do":
                self.xobject(resources, operands[0], ctm, depth)

    def type_size(self, font_size: float, text_matrix: Matrix, ctm: Matrix) -> None:
        _, _, c, d, _, _ = _multiply(text_matrix, ctm)
        size = abs(font_size) * math.hypot(c, d)
        if size > 0 and (self.smallest is None or size < self.smallest):
            self.smallest = size

    def graphics_state(self, resources: Any, name: Any) -> None:
        state = (resources or {}).get("/ExtGState", {}).get(str(name))
        if state is None:
            return
        for key in ("/CA", "/ca"):
            if key in state and float(state[key]) < 1:
                self.problem(f"transparency ({key.lstrip('/')} {float(state[key]):g}); PDF/X-1a needs it flattened")
        if "/SMask" in state and str(state["/SMask"]) != "/None":
            self.problem("a soft mask (transparency); PDF/X-1a needs it flattened")
        if "/BM" in state and str(state["/BM"]) not in {"/Normal", "/Compatible"}:
            self.problem(f"blend mode {str(state['/BM']).lstrip('/')} (transparency); PDF/X-1a needs it flattened")

    def font(self, resources: Any, name: Any) -> None:
        font = (resources or {}).get("/Font", {}).get(str(name))
        if font is None or font.objgen in self.fonts_seen:
            return
        self.fonts_seen.add(font.objgen)
        subtype = str(font.get("/Subtype"))
        if subtype == "/Type3":
            return
        target = font.DescendantFonts[0] if subtype == "/Type0" else font
        descriptor = target.get("/FontDescriptor")
        if descriptor is None or not any(key in descriptor for key in ("/FontFile", "/FontFile2", "/FontFile3")):
            self.problem(f"font {str(font.get('/BaseFont', name)).lstrip('/')} is not embedded")

    def xobject(self, resources: Any, name: Any, ctm: Matrix, depth: int) -> None:
        xobject = (resources or {}).get("/XObject", {}).get(str(name))
        if xobject is None:
            return
        if xobject.get("/Subtype") == "/Form":
            if "/Group" in xobject and str(xobject.Group.get("/S")) == "/Transparency":
                self.problem("a transparency group; PDF/X-1a needs it flattened")
            matrix = tuple(_numbers(list(xobject.get("/Matrix", [1, 0, 0, 1, 0, 0]))))
            self.walk(xobject, xobject.get("/Resources", resources), _multiply(matrix, ctm), depth + 1)  # type: ignore[arg-type]
        elif xobject.get("/Subtype") == "/Image":
            self.image(xobject, ctm)

    def image(self, image: Any, ctm: Matrix) -> None:
        if image.get("/ImageMask", False):
            return
        if "/SMask" in image:
            self.problem("a picture with a soft mask (transparency); PDF/X-1a needs it flattened")
        family = self.describe_space(image.get("/ColorSpace"))
        self.check_space(family, "a picture")
        self.resolution(int(image.Width), int(image.Height), ctm)
        if family in {"/DeviceCMYK", "/ICCBased4"}:
            self.picture_ink(image)

    def inline_image(self, instruction: Any, ctm: Matrix) -> None:
        inline = instruction.iimage
        family = self.describe_space(inline.obj.get("/ColorSpace", inline.obj.get("/CS")))
        self.check_space(family, "an inline picture")
        self.resolution(int(inline.width), int(inline.height), ctm)

    def resolution(self, width: int, height: int, ctm: Matrix) -> None:
        a, b, c, d, _, _ = ctm
        placed_w, placed_h = math.hypot(a, b) / 72, math.hypot(c, d) / 72  # inches
        if placed_w <= 0 or placed_h <= 0:
            return
        ppi = min(width / placed_w, height / placed_h)
        if ppi < MIN_PPI - 0.5:
            self.problem(f"a picture of {width} x {height} px is {ppi:.0f} ppi at its placed size "
                         f"(at least {MIN_PPI:.0f})")

    def picture_ink(self, image: Any) -> None:
        import numpy as np
        import pikepdf

        try:
            pixels = np.asarray(pikepdf.PdfImage(image).as_pil_image(), dtype=np.float64)
        except Exception:  # a filter pikepdf cannot decode: say so instead of guessing
            self.problem("a CMYK picture whose pixels cannot be read to measure its ink")
            return
        if pixels.ndim == 3 and pixels.shape[2] == 4:
            total = float(pixels.sum(axis=2).max()) / 255 * 100
            if total > MAX_INK + 0.5:
                self.problem(f"a picture uses {total:.0f}% total ink (at most {MAX_INK:.0f}%)")


def _box(page: Any, name: str) -> tuple[float, float, float, float] | None:
    if name not in page.obj:
        return None
    x0, y0, x1, y1 = (float(v) for v in page.obj[name])
    return min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1)


def _check_boxes(report: Report, number: int, page: Any, service: Service | None) -> tuple[float, ...] | None:
    trim = _box(page, "/TrimBox") or _box(page, "/ArtBox")
    bleed = _box(page, "/BleedBox")
    if trim is None:
        report.add(number, "no TrimBox: the printer cannot tell where the page is cut")
    if bleed is None:
        report.add(number, "no BleedBox: the printer cannot tell how far the art runs past the cut")
    if trim is None or bleed is None:
        return trim
    sides = (trim[0] - bleed[0], trim[1] - bleed[1], bleed[2] - trim[2], bleed[3] - trim[3])
    least = min(sides) / PT_PER_MM
    wanted = service.bleed if service else 0.0
    if least < wanted - BOX_TOLERANCE or least < 0:
        report.add(number, f"bleed of {least:.2f} mm (at least {wanted:.3g} mm)")
    if service is not None:
        width, height = (trim[2] - trim[0]) / PT_PER_MM, (trim[3] - trim[1]) / PT_PER_MM
        if not any(abs(width - size.width) <= BOX_TOLERANCE and abs(height - size.height) <= BOX_TOLERANCE
                   for size in service.sizes):
            offered = ", ".join(f"{s.name} {s.width:g} x {s.height:g}" for s in service.sizes)
            report.add(number, f"trim {width:.2f} x {height:.2f} mm is none of {service.name}'s card sizes "
                               f"({offered} mm)")
    return trim


def _document_checks(report: Report, pdf: Any) -> None:
    info = pdf.docinfo
    version = str(info.get("/GTS_PDFXVersion", ""))
    if not version.startswith("PDF/X-1a"):
        report.add(None, "not PDF/X-1a: no GTS_PDFXVersion 'PDF/X-1a:2003' in the document information"
                   if not version else f"GTS_PDFXVersion is '{version}', not PDF/X-1a")
    if str(info.get("/Trapped", "")) not in {"/True", "/False"}:
        report.add(None, "Trapped is not set to True or False (PDF/X requires it)")
    intents = pdf.Root.get("/OutputIntents", [])
    if not any(str(intent.get("/S")) == "/GTS_PDFX" and "/OutputConditionIdentifier" in intent for intent in intents):
        report.add(None, "no GTS_PDFX output intent naming the printing condition")
    if pdf.pdf_version > "1.4":
        report.add(None, f"PDF {pdf.pdf_version}; PDF/X-1a:2003 is PDF 1.4 at most")


def _safe_zone(report: Report, pdf_bytes: bytes, trims: dict[int, tuple[float, ...]], margin: float) -> None:
    """Every character's glyph box inside its page's TrimBox shrunk by `margin` mm (pdfium's text page)."""
    import pypdfium2 as pdfium  # type: ignore[import-untyped]

    document = pdfium.PdfDocument(pdf_bytes)
    try:
        for number, trim in trims.items():
            page = document[number - 1]
            text = page.get_textpage()
            inset = margin * PT_PER_MM - BOX_TOLERANCE * PT_PER_MM
            left, bottom, right, top = trim[0] + inset, trim[1] + inset, trim[2] - inset, trim[3] - inset
            worst: tuple[float, int] | None = None
            for index in range(text.count_chars()):
                char = text.get_text_range(index, 1)
                if not char.strip():
                    continue
                x0, y0, x1, y1 = text.get_charbox(index)
                outside = max(left - x0, bottom - y0, x1 - right, y1 - top)
                if outside > 0 and (worst is None or outside > worst[0]):
                    worst = (outside, index)
            if worst is not None:
                start = max(0, worst[1] - 8)
                snippet = " ".join(text.get_text_range(start, 16).split())
                distance = margin - worst[0] / PT_PER_MM - BOX_TOLERANCE
                report.add(number, f"text '{snippet}' comes {max(distance, 0):.2f} mm from the trim (keep "
                                   f"{margin:.3g} mm clear)")
            text.close()
            page.close()
    finally:
        document.close()


def preflight(pdf_bytes: bytes, service: Service | None = None, min_type: float = MIN_TYPE) -> Report:
    """Every problem a print shop's preflight would raise about this PDF, each with its page."""
    import pikepdf

    report = Report()
    try:
        pdf = pikepdf.open(io.BytesIO(pdf_bytes))
    except pikepdf.PdfError as error:
        raise PreflightError(f"not a readable PDF ({str(error).splitlines()[0][:120]})") from None
    with pdf:
        report.pages = len(pdf.pages)
        _document_checks(report, pdf)
        trims: dict[int, tuple[float, ...]] = {}
        for number, page in enumerate(pdf.pages, start=1):
            trim = _check_boxes(report, number, page, service)
            if trim is not None:
                trims[number] = trim
            scan = _PageScan(report, number)
            if "/Group" in page.obj and str(page.obj.Group.get("/S")) == "/Transparency":
                report.add(number, "a transparency group; PDF/X-1a needs it flattened")
            scan.walk(page.obj, page.obj.get("/Resources"), IDENTITY)
            if scan.smallest is not None:
                if scan.smallest < min_type - 0.005:
                    report.add(number, f"type as small as {scan.smallest:.2f} pt (at least {min_type:g} pt)")
                if report.smallest_type is None or scan.smallest < report.smallest_type:
                    report.smallest_type = scan.smallest
    _safe_zone(report, pdf_bytes, trims, service.safe if service else DEFAULT_SAFE)
    report.findings.sort(key=lambda f: (f.page or 0))
    return report


def lines(report: Report) -> Iterator[str]:
    for finding in report.findings:
        where = "document" if finding.page is None else f"page {finding.page}"
        yield f"{where}: {finding.message}"
