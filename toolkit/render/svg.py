"""Draw one scene Page as SVG (svgwrite). SVG is y-down like the scene, so nothing is flipped here.

Each SVG carries the DejaVu faces its text uses as @font-face data URIs, so it looks the same in an editor
on a machine without DejaVu and its text stays editable. The faces are subsets (fontTools) of Latin-1 and
common punctuation plus whatever else the page writes: edits in Latin text still find their glyphs, and
most pages share one subset per face, made once per process (a full face would add ~1 MB per file).
A project's fallback fonts are embedded the same way, each cut down to the characters the page draws with it.
"""

from __future__ import annotations

import base64
import io
import logging
import math
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from functools import lru_cache
from typing import TYPE_CHECKING

import svgwrite

from toolkit.render.fonts import FONT_DIR, FONT_FILES, SVG_FAMILY, FallbackFont, fallback_fonts, font_runs
from toolkit.render.scene import (
    PT_TO_MM,
    Circle,
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
    texts_in,
)

_ANCHOR = {"start": "start", "middle": "middle", "end": "end"}
# always in an embedded face: printable ASCII, Latin-1, dashes, quotes and bullets, and the symbols duelkit's
# own pieces draw (module icons, stars, arrows, the sword-duel markers), so most pages share one subset
KIT_SYMBOLS = "−→↓↻↷⇄▲▼◷★☆♀♂⚡✓✕✚➜"
BASE_CHARACTERS = frozenset([*map(chr, [*range(0x20, 0x7F), *range(0xA0, 0x100), *range(0x2010, 0x2027)]),
                             *KIT_SYMBOLS])
SHIPPED_FAMILIES = frozenset(family.casefold() for family, _, _ in SVG_FAMILY.values())

if TYPE_CHECKING:
    from fontTools.ttLib import TTFont


def _n(value: float) -> str:
    """Numbers with fixed precision so output is reproducible and compact."""
    text = f"{value:.3f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def render_svg(page: Page, title: str = "", *, embed_fonts: bool = True) -> str:
    drawing = svgwrite.Drawing(size=(f"{_n(page.width)}mm", f"{_n(page.height)}mm"), profile="full",
                               viewBox=f"0 0 {_n(page.width)} {_n(page.height)}", debug=False)
    if title:
        drawing.set_desc(title=title)
    if embed_fonts:
        texts = list(texts_in(page.items))
        rules = [*font_faces(_faces(texts)), *fallback_font_faces(_fallback_faces(texts))]
        if rules:
            drawing.defs.add(drawing.style("\n".join(rules)))
    clip_ids = iter(range(1, 1_000_000))
    for item in page.items:
        drawing.add(_element(drawing, item, clip_ids))
    return drawing.tostring()


def _faces(texts: Iterable[Text]) -> dict[str, frozenset[str]]:
    """The shipped faces the page's text uses, each with the characters written in it beyond the base set."""
    faces: dict[str, set[str]] = {}
    for text in texts:
        faces.setdefault(text.font, set()).update(set(text.text) - BASE_CHARACTERS)
    return {face: frozenset(faces[face]) for face in FONT_FILES if face in faces}


def font_faces(faces: dict[str, frozenset[str]]) -> list[str]:
    """@font-face rules, one per face, matching the family, weight and stretch the text elements ask for."""
    rules = []
    for face, extra in faces.items():
        family, weight, stretch = SVG_FAMILY[face]
        rules.append(f"@font-face {{ font-family: '{family}'; font-weight: {weight}; font-stretch: {stretch}; "
                     f"src: url(data:font/ttf;base64,{_subset_base64(face, extra)}) format('truetype'); }}")
    return rules


@lru_cache(maxsize=64)
def _subset_base64(face: str, extra: frozenset[str]) -> str:
    """The face cut down to the base characters and `extra`, base64 encoded; byte-identical every run."""
    from fontTools.ttLib import TTFont  # only SVG output needs fontTools: keep it out of every other command

    font = TTFont(str(FONT_DIR / FONT_FILES[face]), recalcTimestamp=False)
    return base64.b64encode(_subset(font, BASE_CHARACTERS | extra)).decode("ascii")


def _subset(font: TTFont, characters: frozenset[str]) -> bytes:
    """The font's glyphs for `characters` (and what they need: accents, ligatures) as a TrueType file."""
    from fontTools import subset

    options = subset.Options()
    options.hinting = False  # screens and editors do without; halves the size
    options.drop_tables += ["FFTM"]  # FontForge's build stamp: fontTools cannot subset it and would warn
    options.name_IDs = ["*"]  # keep the copyright and licence strings the fonts' licences ask to keep
    subsetter = subset.Subsetter(options)
    subsetter.populate(text="".join(sorted(characters)))
    with _fonttools_quiet():
        subsetter.subset(font)
    buffer = io.BytesIO()
    font.save(buffer)
    return buffer.getvalue()


@contextmanager
def _fonttools_quiet() -> Iterator[None]:
    """fontTools logs each table it cannot subset (and drops) to stderr; a project's font names them, and
    untrusted text never reaches the terminal raw. The subset is the same without the message."""
    logger = logging.getLogger("fontTools")
    level = logger.level
    logger.setLevel(logging.CRITICAL + 1)
    try:
        yield
    finally:
        logger.setLevel(level)


def svg_family(font: FallbackFont) -> str:
    """The family name the SVG gives a fallback font: its own (an editor with the font installed names it), unless
    that cannot sit in a quoted CSS string inside the style's CDATA (a quote, a backslash, a control character,
    ']]>'), is empty, or is a shipped family (the fallback face would compete with DejaVu's): then a neutral one."""
    family = font.family
    if (family.strip() and family.isprintable() and not any(bad in family for bad in ("'", "\\", "]]>"))
            and family.casefold() not in SHIPPED_FAMILIES):
        return family
    return font.pdf_name.replace("-", " ")  # 'Duelkit Fallback 0123456789ab': one per font file


def _fallback_faces(texts: Iterable[Text]) -> dict[FallbackFont, frozenset[str]]:
    """The project's fallback fonts the page's text falls to (`font_runs`), each with the characters it draws."""
    fonts = {font.pdf_name: font for font in fallback_fonts()}
    if not fonts:
        return {}
    used: dict[str, set[str]] = {}
    for text in texts:
        for name, run in font_runs(text.text, text.font):
            if name in fonts:
                used.setdefault(name, set()).update(run)
    return {font: frozenset(used[name]) for name, font in fonts.items() if name in used}


def fallback_font_faces(faces: dict[FallbackFont, frozenset[str]]) -> list[str]:
    """@font-face rules, one per fallback font, under the family the text elements list. A fallback font has one
    weight and width, which the PDF draws for bold and condensed text alike: declaring the full ranges lets
    that face match every text element without the viewer faking bold. unicode-range keeps two fallbacks
    of one family apart (each draws only the characters it is used for)."""
    return [f"@font-face {{ font-family: '{svg_family(font)}'; font-weight: 100 900; font-stretch: 50% 200%; "
            f"unicode-range: {_unicode_range(characters)}; "
            f"src: url(data:font/ttf;base64,{_fallback_base64(font, characters)}) format('truetype'); }}"
            for font, characters in faces.items()]


def _unicode_range(characters: frozenset[str]) -> str:
    """'U+41-43, U+8A9E': the characters as CSS code point ranges, consecutive ones merged."""
    ranges: list[list[int]] = []
    for code in sorted(map(ord, characters)):
        if ranges and ranges[-1][1] == code - 1:
            ranges[-1][1] = code
        else:
            ranges.append([code, code])
    return ", ".join(f"U+{low:X}" if low == high else f"U+{low:X}-{high:X}" for low, high in ranges)


@lru_cache(maxsize=256)
def _fallback_base64(font: FallbackFont, characters: frozenset[str]) -> str:
    """The subset base64 encoded, or the whole file should fontTools fail on a font reportlab accepted (or
    leave a character out): bigger, never missing."""
    subset = fallback_subset(font, characters)
    return _whole_font_base64(font) if subset is None else base64.b64encode(subset).decode("ascii")


@lru_cache(maxsize=8)
def _whole_font_base64(font: FallbackFont) -> str:
    """One copy per font, however many pages embed it whole (a CJK font is megabytes)."""
    return base64.b64encode(font.data).decode("ascii")


def fallback_subset(font: FallbackFont, characters: frozenset[str]) -> bytes | None:
    """The fallback font cut down to `characters`, byte-identical every run; None when fontTools cannot make a
    subset holding every one of them."""
    from fontTools.ttLib import TTFont

    try:
        # a collection (.ttc): reportlab draws its first font, so that is the one to cut down
        parsed = TTFont(io.BytesIO(font.data), recalcTimestamp=False,
                        fontNumber=0 if font.data[:4] == b"ttcf" else -1)
        data = _subset(parsed, characters)
        cmap = TTFont(io.BytesIO(data)).getBestCmap() or {}
    except Exception:  # any fontTools failure on an odd font
        return None
    return data if all(ord(ch) in cmap for ch in characters) else None


def _style(style: Style) -> dict[str, str]:
    attrs = {"fill": style.fill or "none"}
    if style.stroke:
        attrs.update({"stroke": style.stroke, "stroke_width": _n(style.width)})
        if style.dash:
            attrs["stroke_dasharray"] = ",".join(_n(d) for d in style.dash)
    else:
        attrs["stroke"] = "none"
    return attrs


def _point(cx: float, cy: float, r: float, angle: float) -> tuple[float, float]:
    radians = math.radians(angle)
    return cx + r * math.sin(radians), cy - r * math.cos(radians)


def _element(drawing: svgwrite.Drawing, item: Shape, clip_ids):  # noqa: C901 - one flat branch per shape type
    if isinstance(item, Image):
        href = f"data:image/{item.kind};base64," + base64.b64encode(item.data).decode("ascii")
        extra = {} if item.smooth else {"style": "image-rendering:pixelated"}
        return drawing.image(href, insert=(_n(item.x), _n(item.y)), size=(_n(item.w), _n(item.h)),
                             preserveAspectRatio="none", **extra)
    if isinstance(item, Reuse):
        group = drawing.g()
        for child in item.items:
            group.add(_element(drawing, child, clip_ids))
        return group
    if isinstance(item, Group):
        transform = f"translate({_n(item.dx)},{_n(item.dy)})"
        if item.rotate:
            transform += f" rotate({_n(item.rotate)})"
        if item.mirror_x or item.mirror_y:
            transform += f" scale({-1 if item.mirror_x else 1},{-1 if item.mirror_y else 1})"
        if item.scale != 1.0:
            transform += f" scale({_n(item.scale)})"
        group = drawing.g(transform=transform)
        target = group
        if item.clip is not None:
            clip_id = f"clip{next(clip_ids)}"
            clip = drawing.clipPath(id=clip_id)
            clip.add(drawing.rect((_n(item.clip.x), _n(item.clip.y)), (_n(item.clip.w), _n(item.clip.h))))
            group.add(clip)
            target = drawing.g(clip_path=f"url(#{clip_id})")
            group.add(target)
        for child in item.items:
            target.add(_element(drawing, child, clip_ids))
        return group
    if isinstance(item, Text):
        family, weight, stretch = SVG_FAMILY[item.font]
        # the viewer falls back glyph by glyph through the list, and orders right-to-left text itself
        families = "".join(f"'{name}', " for name in (family, *map(svg_family, fallback_fonts())))
        return drawing.text(item.text, insert=(_n(item.x), _n(item.y)), fill=item.color,
                            font_family=f"{families}sans-serif", font_weight=weight, font_stretch=stretch,
                            font_size=_n(item.size * PT_TO_MM), text_anchor=_ANCHOR[item.anchor])
    if isinstance(item, Rect):
        extra = {"rx": _n(item.radius)} if item.radius else {}
        return drawing.rect((_n(item.x), _n(item.y)), (_n(item.w), _n(item.h)), **extra, **_style(item.style))
    if isinstance(item, Circle):
        return drawing.circle((_n(item.cx), _n(item.cy)), _n(item.r), **_style(item.style))
    if isinstance(item, Line):
        return drawing.line((_n(item.x1), _n(item.y1)), (_n(item.x2), _n(item.y2)), **_style(item.style))
    if isinstance(item, Polygon):
        points = [(_n(x), _n(y)) for x, y in item.points]
        factory = drawing.polygon if item.closed else drawing.polyline
        return factory(points, **_style(item.style))
    if isinstance(item, Wedge):
        if item.extent >= 360:
            return drawing.circle((_n(item.cx), _n(item.cy)), _n(item.r), **_style(item.style))
        x1, y1 = _point(item.cx, item.cy, item.r, item.start)
        x2, y2 = _point(item.cx, item.cy, item.r, item.start + item.extent)
        large = 1 if item.extent > 180 else 0
        path = (f"M{_n(item.cx)},{_n(item.cy)} L{_n(x1)},{_n(y1)} "
                f"A{_n(item.r)},{_n(item.r)} 0 {large} 1 {_n(x2)},{_n(y2)} Z")
        return drawing.path(d=path, **_style(item.style))
    raise TypeError(f"cannot draw {type(item).__name__}")
