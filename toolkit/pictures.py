"""A designer's own pictures (a unit's `art:`, a card back's `image:`): read from the project, checked and
downsampled once (the kit places them: `toolkit/kit/art.py`).

Files are read through `toolkit.safe_fs` (never outside the project, never a FIFO, at most
`MAX_ART_BYTES`). PNG and JPEG are decoded by Pillow; SVG is converted by svglib (a kept library) into a
reportlab drawing, written as a one-page PDF and rasterised by pdfium, so every picture reaches the
renderers as PNG or JPEG bytes. An SVG that declares entities or links to anything but itself is refused:
nothing outside the project is fetched or read. Pictures larger than `ART_PIXELS` on their longest side
(about 300 dpi over 100 mm) are downsampled, so a camera photo does not make the PDF huge; JPEG stays
JPEG (photos), everything else becomes PNG (keeps transparency). Re-encoding is deterministic, so the
same file always gives the same bytes.
"""

from __future__ import annotations

import io
import re
import warnings
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, TypeVar

from PIL import Image as PILImage

from toolkit.safe_fs import FileProblem, project_file, read_file

if TYPE_CHECKING:
    from toolkit.loading import Located, Project
    from toolkit.problems import Problem

Key = TypeVar("Key")

MAX_ART_BYTES = 20 * 1024 * 1024
ART_PIXELS = 1200  # longest side after downsampling: 300 dpi over about 100 mm
MAX_SOURCE_PIXELS = 60_000_000  # larger images are refused (a decompression bomb, not a picture)
JPEG_QUALITY = 88
ART_HINT = "use a PNG, JPEG or SVG file"


@dataclass(frozen=True)
class Art:
    """A picture ready to draw: encoded bytes, and its size in pixels (for the aspect ratio)."""

    data: bytes = field(repr=False)
    kind: Literal["png", "jpeg"]
    width: int
    height: int


def _invalid(path: Path, message: str) -> FileProblem:
    return FileProblem("A001", path, message, ART_HINT)


def read_art(root: Path, relative: str) -> Art:
    """The picture the project names at `relative`. Raises FileProblem (F001-F004, A001)."""
    path = project_file(root, relative)
    data, size = read_file(path, MAX_ART_BYTES, root)
    if size > MAX_ART_BYTES:
        raise _invalid(path, f"'{relative}' is {size} bytes; pictures may be at most {MAX_ART_BYTES // 2**20} MB")
    if path.suffix.lower() == ".svg" or data.lstrip()[:5] in (b"<?xml", b"<svg ", b"<svg>"):
        return _downsampled(_svg_image(path, relative, data), "png")
    return _raster(path, relative, data)


def _raster(path: Path, relative: str, data: bytes) -> Art:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", PILImage.DecompressionBombWarning)
            with PILImage.open(io.BytesIO(data)) as opened:
                if opened.format not in ("PNG", "JPEG"):
                    raise _invalid(path, f"'{relative}' is {opened.format or 'not an image'}, not PNG, JPEG or SVG")
                if opened.width * opened.height > MAX_SOURCE_PIXELS:
                    raise _invalid(path, f"'{relative}' is {opened.width} x {opened.height} pixels; the limit is "
                                   f"{MAX_SOURCE_PIXELS // 1_000_000} million")
                opened.load()
                image = opened.copy()
                kind: Literal["png", "jpeg"] = "jpeg" if opened.format == "JPEG" else "png"
    except FileProblem:
        raise
    except (OSError, ValueError, SyntaxError, PILImage.DecompressionBombError, PILImage.DecompressionBombWarning):
        raise _invalid(path, f"'{relative}' cannot be read as a PNG, JPEG or SVG picture") from None
    return _downsampled(image, kind)


_SVG_REFERENCE = re.compile(rb"<!ENTITY|<!DOCTYPE[^>]*\[|(?:href|src)\s*=\s*[\"'](?!#|data:)", re.IGNORECASE)


def _svg_image(path: Path, relative: str, data: bytes) -> PILImage.Image:
    """An SVG drawn to pixels: svglib's drawing, as PDF, rasterised by pdfium at ART_PIXELS."""
    import pypdfium2  # type: ignore[import-untyped]
    from reportlab.graphics import renderPDF
    from svglib.svglib import svg2rlg

    if _SVG_REFERENCE.search(data):
        raise _invalid(path, f"'{relative}' declares entities or refers to other files or addresses; "
                       "duelkit draws only self-contained SVG")
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            drawing = svg2rlg(io.BytesIO(data))
        if drawing is None or drawing.width <= 0 or drawing.height <= 0:
            raise ValueError("empty drawing")
        pdf = pypdfium2.PdfDocument(renderPDF.drawToString(drawing))
        scale = ART_PIXELS / max(drawing.width, drawing.height)
        image = pdf[0].render(scale=scale, may_draw_forms=True).to_pil()
    except Exception:  # svglib and lxml raise many kinds on a broken file; each means "not a picture"
        raise _invalid(path, f"'{relative}' cannot be read as an SVG picture") from None
    return image


def _downsampled(image: PILImage.Image, kind: Literal["png", "jpeg"]) -> Art:
    if max(image.size) > ART_PIXELS:
        image.thumbnail((ART_PIXELS, ART_PIXELS), PILImage.Resampling.LANCZOS)
    out = io.BytesIO()
    if kind == "jpeg":
        image.convert("RGB").save(out, "JPEG", quality=JPEG_QUALITY, optimize=True)
    else:
        image = image if image.mode in ("RGB", "RGBA", "L", "LA") else image.convert("RGBA")
        image.save(out, "PNG", optimize=True)
    return Art(out.getvalue(), kind, image.width, image.height)


@dataclass(frozen=True)
class BackLook:
    """A project's card back (`back:` in duelkit.yaml): a picture, or the standard design in a colour, and
    the words in its medallion (None: the standard ones)."""

    image: Art | None = None
    color: str | None = None
    text: str | None = None


def read_entry_art(root: Path, entries: Iterable[tuple[Key, Located[Any]]]) -> tuple[dict[Key, Art], list[Problem]]:
    """The `art:` of each located entry (a unit, module or technique), each file read once; a problem is
    located at the entry's `art:` value."""
    read: dict[str, Art | FileProblem] = {}
    pictures: dict[Key, Art] = {}
    problems: list[Problem] = []
    for key, entry in entries:
        relative = entry.value.art
        if relative is None:
            continue
        if relative not in read:
            try:
                read[relative] = read_art(root, relative)
            except FileProblem as exc:
                read[relative] = exc
        found = read[relative]
        if isinstance(found, FileProblem):
            problems.append(entry.source.problem(found.code, entry.pos("art"), found.message, hint=found.hint))
        else:
            pictures[key] = found
    return pictures, problems


def read_back(project: Project | None) -> tuple[BackLook | None, list[Problem]]:
    """The project's card back (`back:` in duelkit.yaml). A picture path outside the project or missing is
    reported with the project file already; one that is not a picture is an A001 at `back: image:`."""
    from toolkit.schema import locate

    back = project.settings.back if project is not None else None
    if project is None or back is None:
        return None, []
    image, problems = None, []
    if back.image and project.path("back", "image") is not None:
        try:
            image = read_art(project.root, back.image)
        except FileProblem as exc:
            problems.append(project.source.problem(exc.code, locate(project.data, ("back", "image")), exc.message,
                                                   hint=exc.hint))
    return BackLook(image, back.color, back.text), problems
