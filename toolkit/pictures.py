"""A designer's own pictures (a unit's `art:`, a card back's `image:`): read from the project, checked and
downsampled once (the kit places them: `toolkit/kit/art.py`).

Files are read through `toolkit.safe_fs` (never outside the project, never a FIFO, at most
`MAX_ART_BYTES`). PNG and JPEG are decoded by Pillow; SVG is converted by svglib (a kept library) into a
reportlab drawing, written as a one-page PDF and rasterised by pdfium, so every picture reaches the
renderers as PNG or JPEG bytes. An SVG is screened on its parsed tree (`_screen_svg`; lxml, whatever the
file's encoding), and svglib draws that very tree: one that declares entities or links to anything but
itself is refused (nothing outside the project is fetched or read), as is one whose `<use>` copies expand
past `MAX_SVG_ELEMENTS` (or `MAX_SVG_NUMBERS` path coordinates) or whose embedded (`data:`) pictures hold
more than `MAX_SOURCE_PIXELS` in all.
Pictures larger than `ART_PIXELS` on their longest side (about 300 dpi over 100 mm) are downsampled, so a
camera photo does not make the PDF huge; JPEG stays JPEG (photos), everything else becomes PNG (keeps
transparency). Re-encoding is deterministic, so the same file always gives the same bytes.
"""

from __future__ import annotations

import io
import re
import warnings
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, TypeVar

from toolkit.safe_fs import FileProblem, project_file, read_file

if TYPE_CHECKING:
    from PIL import Image as PILImage

    from toolkit.loading import Located, Project
    from toolkit.problems import Problem

Key = TypeVar("Key")

MAX_ART_BYTES = 20 * 1024 * 1024
ART_PIXELS = 1200  # longest side after downsampling: 300 dpi over about 100 mm
MAX_SOURCE_PIXELS = 60_000_000  # larger images are refused (a decompression bomb, not a picture)
# What an SVG may draw once every <use> is expanded: svglib takes about a millisecond per element and per
# hundred path coordinates, so these keep any SVG within a few seconds (a drawn icon has hundreds of each)
MAX_SVG_ELEMENTS = 4_000
MAX_SVG_NUMBERS = 60_000
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
        return _downsampled(_svg_image(path, relative, data, root), "png")
    return _raster(path, relative, data)


def _too_large(relative: str, size: tuple[int, int] | None, inside: str = "") -> str:
    limit = f"the limit is {MAX_SOURCE_PIXELS // 1_000_000} million pixels"
    what = f"'{relative}'{inside}"
    if size is None:
        return f"{what} is too large: more than {_bomb_pixels() // 1_000_000} million pixels; {limit}"
    return f"{what} is too large: {size[0]:,} x {size[1]:,} pixels; {limit}"


def _pil() -> Any:
    """Pillow's Image module, imported when a picture is read (most projects have none, and `validate`
    starts faster without it)."""
    from PIL import Image

    return Image


def _bomb_pixels() -> int:
    """Pillow refuses to open larger images (DecompressionBombError)."""
    return 2 * (_pil().MAX_IMAGE_PIXELS or 89_478_485)


def _pixel_size(data: bytes) -> tuple[str | None, tuple[int, int] | None]:
    """(format, (width, height)) from the header alone: nothing is decoded. The size is None when Pillow
    refuses to open the picture for its size; the format is None when it is not a picture at all."""
    PILImage = _pil()
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", PILImage.DecompressionBombWarning)
            with PILImage.open(io.BytesIO(data)) as opened:
                return opened.format, opened.size
    except PILImage.DecompressionBombError:
        return ("PNG" if data[:8] == b"\x89PNG\r\n\x1a\n" else "JPEG"), _png_size(data)
    except (OSError, ValueError, SyntaxError):
        return None, None


def _png_size(data: bytes) -> tuple[int, int] | None:
    """A PNG's size from its IHDR chunk (what Pillow does not say when it refuses a bomb)."""
    if data[:8] != b"\x89PNG\r\n\x1a\n" or data[12:16] != b"IHDR":
        return None
    return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")


def _raster(path: Path, relative: str, data: bytes) -> Art:
    kind_name, size = _pixel_size(data)
    if kind_name is not None and kind_name not in ("PNG", "JPEG"):
        raise _invalid(path, f"'{relative}' is {kind_name}, not PNG, JPEG or SVG")
    if kind_name is not None and (size is None or size[0] * size[1] > MAX_SOURCE_PIXELS):
        raise _invalid(path, _too_large(relative, size))
    PILImage = _pil()
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", PILImage.DecompressionBombWarning)
            with PILImage.open(io.BytesIO(data)) as opened:
                opened.load()
                image = opened.copy()
                kind: Literal["png", "jpeg"] = "jpeg" if opened.format == "JPEG" else "png"
    except (OSError, ValueError, SyntaxError, PILImage.DecompressionBombError, PILImage.DecompressionBombWarning):
        raise _invalid(path, f"'{relative}' cannot be read as a PNG, JPEG or SVG picture") from None
    return _downsampled(image, kind)


_XLINK = "{http://www.w3.org/1999/xlink}href"
_EMBEDDED = re.compile(r"data:image/(?:png|jpe?g);base64,", re.IGNORECASE)
_NUMBER = re.compile(r"[-+]?(?:[0-9]*\.)?[0-9]+(?:[eE][-+]?[0-9]+)?")
_CSS_REFERENCE = re.compile(r"@import|url\(\s*[\"']?\s*(?!#|data:)", re.IGNORECASE)


def _screen_svg(path: Path, relative: str, data: bytes) -> Any:
    """The SVG's parsed root, once it is known to draw only itself within the bounds; A001 saying what
    is wrong otherwise. Screened on the tree, so no encoding (UTF-16, say) hides a declaration."""
    from lxml import etree  # type: ignore[import-untyped]

    parser = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False, remove_comments=True,
                             remove_pis=True, huge_tree=False)
    try:
        tree = etree.parse(io.BytesIO(data), parser)
    except (etree.XMLSyntaxError, ValueError):
        raise _invalid(path, f"'{relative}' cannot be read as an SVG picture (not well-formed XML)") from None
    root = tree.getroot()
    by_id = _self_contained(root) if tree.docinfo.internalDTD is None else None
    if by_id is None:
        raise _invalid(path, f"'{relative}' declares entities or refers to other files or addresses; "
                       "duelkit draws only self-contained SVG")
    try:
        elements, numbers, pixels = _expanded(root, by_id, {}, set())
    except RecursionError:
        raise _invalid(path, f"'{relative}' nests its <use> copies too deeply to draw") from None
    except _Cycle:
        raise _invalid(path, f"'{relative}' has a <use> that copies itself (a loop)") from None
    except _Oversized as exc:
        raise _invalid(path, _too_large(relative, exc.size, " embeds a picture that")) from None
    if elements > MAX_SVG_ELEMENTS:
        raise _invalid(path, f"'{relative}' draws more than {MAX_SVG_ELEMENTS:,} elements once its <use> copies "
                       "are expanded, the limit; simplify it or use a PNG")
    if numbers > MAX_SVG_NUMBERS:
        raise _invalid(path, f"'{relative}' draws paths of more than {MAX_SVG_NUMBERS:,} coordinates (copies "
                       "counted); simplify the paths (Inkscape: Path > Simplify) or use a PNG")
    if pixels > MAX_SOURCE_PIXELS:
        raise _invalid(path, f"'{relative}' draws more than {MAX_SOURCE_PIXELS // 1_000_000} million pixels of "
                       "embedded pictures (copies counted), the limit")
    return root


def _self_contained(root: Any) -> dict[str, Any] | None:
    """Every element by its id, or None when the tree holds an entity reference, an XInclude, or an address
    (href, src, CSS url() or @import) other than a fragment of itself or an embedded PNG/JPEG."""
    by_id: dict[str, Any] = {}
    for node in root.iter():
        if not isinstance(node.tag, str) or node.tag.startswith("{http://www.w3.org/2001/XInclude}"):
            return None  # an entity reference left unexpanded, or an inclusion
        for name, value in node.attrib.items():
            local = name.rsplit("}", 1)[-1]
            if local in ("href", "src") and not (value.strip().startswith("#") or _EMBEDDED.match(value.strip())):
                return None
            if _CSS_REFERENCE.search(value):
                return None
            if local == "id":
                by_id.setdefault(value, node)
        if node.tag.rsplit("}", 1)[-1] == "style" and _CSS_REFERENCE.search(node.text or ""):
            return None
    return by_id


class _Cycle(Exception):
    """A <use> that reaches itself."""


class _Oversized(Exception):
    def __init__(self, size: tuple[int, int] | None) -> None:
        super().__init__()
        self.size = size


Cost = tuple[int, int, int]  # what an SVG element draws, <use> copies expanded: (elements, path numbers, pixels)


def _over(cost: Cost) -> bool:
    return cost[0] > MAX_SVG_ELEMENTS or cost[1] > MAX_SVG_NUMBERS or cost[2] > MAX_SOURCE_PIXELS


def _expanded(node: Any, by_id: dict[str, Any], memo: dict[Any, Cost], active: set[Any]) -> Cost:
    """What `node` draws with every <use> expanded; the sums stop growing once one is over its limit (the
    caller refuses then), so a copy of a copy of ... costs no time."""
    if node in memo:
        return memo[node]
    if node in active:
        raise _Cycle
    active.add(node)
    href = (node.get(_XLINK) or node.get("href") or "").strip()
    local = node.tag.rsplit("}", 1)[-1]
    numbers = sum(len(_NUMBER.findall(node.get(name) or "")) for name in ("d", "points"))
    cost: Cost = (1, numbers, _embedded_pixels(href) if local == "image" and _EMBEDDED.match(href) else 0)
    parts = [by_id[href[1:]]] if href.startswith("#") and href[1:] in by_id else []
    for part in [*parts, *node]:
        if _over(cost):
            break
        more = _expanded(part, by_id, memo, active)
        cost = (cost[0] + more[0], cost[1] + more[1], cost[2] + more[2])
    active.discard(node)
    memo[node] = cost
    return cost


def _embedded_pixels(href: str) -> int:
    """The pixel count of a base64 `data:` picture, from its header; _Oversized when one alone is too large."""
    import base64
    import binascii

    try:
        data = base64.b64decode(href.split(",", 1)[1], validate=False)
    except (binascii.Error, ValueError):
        return 0  # svglib cannot draw it either: it is left out
    kind, size = _pixel_size(data)
    if kind is None:
        return 0
    if size is None or size[0] * size[1] > MAX_SOURCE_PIXELS:
        raise _Oversized(size)
    return size[0] * size[1]


def _svg_image(path: Path, relative: str, data: bytes, root_folder: Path) -> PILImage.Image:
    """An SVG drawn to pixels: svglib's drawing of the screened tree, as PDF, rasterised by pdfium."""
    import pypdfium2  # type: ignore[import-untyped]
    from reportlab.graphics import renderPDF
    from svglib.svglib import SvgRenderer

    svg = _screen_svg(path, relative, data)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            drawing = SvgRenderer(str(path), external_reference_root=str(root_folder)).render(svg)
        if drawing is None or drawing.width <= 0 or drawing.height <= 0:
            raise ValueError("empty drawing")
        pdf = pypdfium2.PdfDocument(_drawn_pdf(renderPDF, drawing))
        scale = ART_PIXELS / max(drawing.width, drawing.height)
        image = pdf[0].render(scale=scale, may_draw_forms=True).to_pil()
    except Exception:  # svglib and reportlab raise many kinds on a broken file; each means "not a picture"
        raise _invalid(path, f"'{relative}' cannot be read as an SVG picture") from None
    return image


def _drawn_pdf(render_pdf: Any, drawing: Any) -> bytes:
    """The drawing as a one-page PDF for pdfium. With ASCII85 switched off (`render/pdf.py` does, for the kit)
    reportlab 4 puts an embedded picture's bytes among the page's text and fails, so this intermediate PDF,
    which only pdfium reads, is written with ASCII85 whatever the kit uses (a watch re-reads art after a build)."""
    from reportlab import rl_config

    saved, rl_config.useA85 = rl_config.useA85, 1
    try:
        return bytes(render_pdf.drawToString(drawing))
    finally:
        rl_config.useA85 = saved


def _downsampled(image: PILImage.Image, kind: Literal["png", "jpeg"]) -> Art:
    if max(image.size) > ART_PIXELS:
        image.thumbnail((ART_PIXELS, ART_PIXELS), _pil().Resampling.LANCZOS)
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
