"""DejaVu faces that embed the same first subset in every PDF, so PDFs assembled from pages drawn alone
(`toolkit.render.page_cache`, `toolkit.render.assemble`) carry each face once.

reportlab numbers a TrueType font's characters in the order a document first uses them and embeds subsets
of 256; a page drawn alone would embed its own numbering. Here every document starts from the same first
subset (`seed_face`: SEED_CHARACTERS, filled up with Latin Extended-A), and what every such document embeds
again (the subset's font program, its compressed stream, its character map and width table) is made once,
and its font objects are formatted once (`_Once`).
These are the only places duelkit reaches into reportlab's font objects.
"""

from __future__ import annotations

import copy
import threading
from functools import cache, lru_cache
from typing import Any, cast

from reportlab import rl_config
from reportlab.pdfbase import pdfdoc, pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

from toolkit.render.fonts import FONT_FILES, PDF_NAMES, register_face

# The characters every DejaVu face's first subset holds in a page drawn alone (`seed_fonts`), in this order:
# ASCII (reportlab's own first subset), Latin-1, then the kit's own symbols and punctuation. Pages that use
# no other character embed identical subsets, so an assembled PDF keeps one copy of each face.
SEED_CHARACTERS = "".join(dict.fromkeys(
    [chr(code) for code in range(0xA1, 0x100) if code != 0xAD]
    + list("\u2013\u2014\u2018\u2019\u201c\u201d\u2022\u2026\u2212\u2192\u2190\u2191\u2193\u00d7\u2605\u2606"
           "\u25b2\u25bc\u25c0\u25b6\u2713\u2715\u271a\u279c\u21c4\u21bb\u21b7\u25f7\u26a1\u2642\u2640")))
SUBSET_SIZE = 256  # characters in one reportlab subset (a simple TrueType font)
_SEEDED_NAMES = frozenset(PDF_NAMES.values())
_FACES = {name: face for face, name in PDF_NAMES.items()}


def use_face(name: str, doc: object, seeded: bool) -> None:
    """Before a document's first text in a face: the DejaVu face registered, and seeded when `seeded`
    (`render_pdf(shared_fonts=True)`). A project's fallback font is registered already."""
    face = _FACES.get(name)
    if face is not None:
        register_face(face)
        if seeded:
            seed_face(name, doc)
SUBSET_MEMORY = 64  # subsets remembered per face (a page drawn alone makes its fonts again)


def seed_fonts(doc: object) -> None:
    """Every DejaVu face seeded in this document (`seed_face`)."""
    for font in FONT_FILES:
        seed_face(register_face(font), doc)


def seed_face(name: str, doc: object) -> None:
    """Give a DejaVu face's first subset the same characters in the same order in this reportlab document,
    whatever its pages show (before the document's first use of the face). The subset is filled up (Latin
    Extended-A), so a page's other characters start a second subset of its own instead of changing the
    shared one. A project's fallback font is not seeded."""
    if name not in _SEEDED_NAMES:
        return
    font = cast(TTFont, pdfmetrics.getFont(name))
    seeded = _seeded(name)
    state = copy.copy(seeded)
    state.assignments = dict(seeded.assignments)
    state.subsets = [list(subset) for subset in seeded.subsets]
    font.state[doc] = state


@cache
def _seeded(name: str) -> Any:
    """The face's font state after SEED_CHARACTERS and as many of Latin Extended-A as fill its first
    subset (reportlab's splitString, once; each document then starts from a copy)."""
    font = cast(TTFont, pdfmetrics.getFont(name))
    probe = _Probe()
    font.splitString(SEED_CHARACTERS, probe)
    state = font.state[probe]
    for code in range(0x100, 0x180):
        if state.nextCode >= SUBSET_SIZE:
            break
        font.splitString(chr(code), probe)
    del font.state[probe]
    return state


def first_subset_bytes(name: str, text: str) -> bytes | None:
    """The text as the face's shared first subset numbers it in every seeded document (`seed_fonts`), or None
    when a character lies outside that subset (its number then depends on the document) or the face is a
    project's fallback font (not seeded)."""
    if name not in _SEEDED_NAMES:
        return None
    codes = _seeded(name).assignments
    numbers = []
    for char in text:
        code = ord(char)
        number = codes.get(32 if code == 0xA0 else code)  # reportlab draws a no-break space as a space
        if number is None or number >= SUBSET_SIZE:
            return None
        numbers.append(number)
    return bytes(numbers)


class _Probe:
    """A stand-in document (reportlab keeps per-document font state in a weak dictionary)."""


class _SharedSubsetFont(TTFont):
    """A DejaVu face as duelkit registers it: reportlab's TrueType font, with each subset's width table
    formatted once (a page drawn alone writes the same shared subset again, and formatting 256 numbers
    was a third of drawing a small page)."""

    def addObjects(self, doc: object) -> None:
        from reportlab.pdfbase.ttfonts import SUBSETN, makeToUnicodeCMap

        try:
            state = self.state[doc]
        except KeyError:
            state = self.state[doc] = TTFont.State(self._asciiReadable)  # type: ignore[attr-defined]
        state.frozen = 1
        for n, subset in enumerate(state.subsets):
            internal = self.getSubsetInternalName(n, doc)[1:]
            base = b"".join((SUBSETN(n), b"+", self.face.name, self.face.subfontNameX)).decode("pdfdoc")
            font: Any = pdfdoc.PDFTrueTypeFont()
            font.__Comment__ = f"Font {self.fontName} subset {n}"
            font.Name = internal
            font.BaseFont = base
            font.FirstChar = 0
            font.LastChar = len(subset) - 1
            font.Widths = _widths(self.fontName, tuple(subset))
            cmap = pdfdoc.PDFStream()
            cmap.content = makeToUnicodeCMap(base, subset)
            if doc.compression:  # type: ignore[attr-defined]
                cmap.filters = [pdfdoc.PDFZCompress]
            font.ToUnicode = doc.Reference(_Once(cmap, ("cmap", cmap.content, doc.compression)),  # type: ignore[attr-defined]
                                           "toUnicodeCMap:" + base)
            font.FontDescriptor = self.face.addSubsetObjects(doc, base, subset)
            _format_once(doc, font.FontDescriptor.name, self.face, base)
            once = _Once(font, ("font", self.face, internal, base, font.LastChar, font.Widths),
                         (font.ToUnicode, font.FontDescriptor))
            doc.Reference(once, internal)  # type: ignore[attr-defined]
            doc.idToObject["BasicFonts"].dict[internal] = once  # type: ignore[attr-defined]
        del self.state[doc]


class _Once(pdfdoc.PDFObject):
    """A subset's font objects (font, descriptor, program, character map) are the same in every page drawn
    alone but for the numbers of the objects they refer to, and reportlab formatted them anew for each page
    (a tenth of drawing a page): formatted once per `key` (what they hold) and those numbers."""

    __RefOnly__ = 1  # as reportlab's fonts and streams: written as objects of their own, referred to

    def __init__(self, inner: object, key: tuple[object, ...], refs: tuple[Any, ...] = ()) -> None:
        self.inner = inner
        self.key = key
        self.refs = refs

    def format(self, document: object) -> bytes:
        key = (*self.key, *(ref.format(document) for ref in self.refs))
        with _FORMATTED_LOCK:
            found = _FORMATTED.pop(key, None)
        if found is None:
            found = cast(bytes, self.inner.format(document))  # type: ignore[attr-defined]
        with _FORMATTED_LOCK:
            while len(_FORMATTED) >= FORMATTED_MEMORY:
                del _FORMATTED[next(iter(_FORMATTED))]
            _FORMATTED[key] = found  # most recently used last
        return found


_FORMATTED: dict[tuple[object, ...], bytes] = {}
# the studio may build kits of two tables at once: two threads trimming the memory would delete one key twice
_FORMATTED_LOCK = threading.Lock()
FORMATTED_MEMORY = 256  # font objects kept formatted (a program is 30-50 KB); a kit numbers them a few ways


def _format_once(doc: Any, descriptor: str, face: Any, base: str) -> None:
    """reportlab's descriptor and font program of a subset (`addSubsetObjects`), formatted once (`_Once`)."""
    found = doc.idToObject[descriptor]
    program_ref = found.dict["FontFile2"]
    program = doc.idToObject[program_ref.name]
    doc.idToObject[program_ref.name] = _named(_Once(program, ("program", program.content, doc.compression)),
                                              program_ref.name)
    doc.idToObject[descriptor] = _named(_Once(found, ("descriptor", face, base), (program_ref,)), descriptor)


_PLAIN = (bytes, str, int, float, type(None))


def format_form_once(doc: Any, name: str) -> None:
    """A form drawn again on every page drawn alone (a card's frame, `scene.Reuse`) is formatted once (`_Once`):
    by all it holds, when that is plain values (a resource table of its own would be an object: not kept)."""
    internal = pdfdoc.xObjectName(name)
    form = doc.idToObject[internal]
    fields = {name: value if isinstance(value, _PLAIN) else repr(value) for name, value in vars(form).items()
              if not (isinstance(value, (list, dict)) and not value)}  # reportlab's empty tables: nothing written
    if any(not isinstance(value, _PLAIN) for value in vars(form).values() if value):
        return
    key = ("form", rl_config.useA85, form.hasImages, *sorted(fields.items()))
    doc.idToObject[internal] = _named(_Once(form, key, (pdfdoc.PDFObjectReference("BasicFonts"),)), internal)


class _OnceInfo(_Once):
    """The document information of a page drawn alone: the same in every such page (no title, the invariant
    date), and formatting its dates and strings was a twentieth of drawing a card sheet."""

    def digest(self, md5object: object) -> None:  # reportlab signs the document with its information
        self.inner.digest(md5object)  # type: ignore[attr-defined]


def format_info_once(doc: Any) -> None:
    """The document's information formatted once per process (`_OnceInfo`), when the document is invariant
    (its dates fixed) and the information holds plain values."""
    info = doc.info
    fields = vars(info)
    if not doc.invariant or not all(isinstance(value, _PLAIN) for value in fields.values()):
        return
    names = ("title", "author", "subject", "creator", "producer", "keywords", "trapped", "_dateFormatter")
    doc.info = _OnceInfo(info, ("info", doc._timeStamp.t, *(getattr(info, name) for name in names)))


def _named(once: _Once, name: str) -> _Once:
    once.__InternalName__ = name  # type: ignore[attr-defined]  # reportlab's mark of a registered object
    return once


class _Written(pdfdoc.PDFArray):
    """A PDF array formatted once, written as it is."""

    def __init__(self, written: bytes) -> None:
        super().__init__([])
        self.written = written

    def format(self, document: object, IND: bytes = b"") -> bytes:  # noqa: ARG002 - reportlab's signature
        return self.written


@lru_cache(maxsize=SUBSET_MEMORY * 4)
def _widths(name: str, subset: tuple[int, ...]) -> _Written:
    face = cast(TTFont, pdfmetrics.getFont(name)).face
    return _Written(pdfdoc.PDFArray(list(map(face.getCharWidth, subset))).format(None))


def _remember_subsets(font: TTFont) -> None:
    """Building a subset's font program is reportlab's slowest step for a small PDF; seeded pages ask for the
    same subsets again and again, so the last few are kept per face (the bytes are the same)."""
    make = font.face.makeSubset
    made: dict[tuple[int, ...], bytes] = {}

    def remembered(subset: list[int]) -> bytes:
        key = tuple(subset)
        found = made.pop(key, None)
        if found is None:
            found = make(subset)
            _REUSED.keep(found)
        made[key] = found  # most recently used last
        while len(made) > SUBSET_MEMORY:
            _REUSED.forget(made.pop(next(iter(made))))
        return found

    font.face.makeSubset = remembered  # type: ignore[method-assign, assignment]


class _Reused:
    """Font programs and character maps that every page drawn alone embeds again: reportlab compresses each
    stream it writes, so their compressed form is kept too (by the identity of the object remembered)."""

    def __init__(self) -> None:
        self.compressed: dict[int, tuple[object, bytes]] = {}
        self.installed = False

    def keep(self, content: object) -> None:
        self.compressed[id(content)] = (content, b"")

    def forget(self, content: object) -> None:
        self.compressed.pop(id(content), None)

    def install(self) -> None:
        """Route reportlab's Flate filter and ToUnicode maps through here (once per process)."""
        if self.installed:
            return
        self.installed = True
        from reportlab.pdfbase import ttfonts

        compress = pdfdoc.PDFZCompress.encode
        cmap = ttfonts.makeToUnicodeCMap
        maps: dict[tuple[str, tuple[int, ...]], str] = {}

        def encode(text: object) -> bytes:
            known = self.compressed.get(id(text))
            if known is None or known[0] is not text:
                return cast(bytes, compress(text))
            if not known[1]:
                self.compressed[id(text)] = (text, cast(bytes, compress(text)))
            return self.compressed[id(text)][1]

        def to_unicode(fontname: str, subset: list[int]) -> str:
            key = (fontname, tuple(subset))
            found = maps.get(key)
            if found is None:
                if len(maps) >= SUBSET_MEMORY * len(PDF_NAMES):
                    self.forget(maps.pop(next(iter(maps))))
                found = maps[key] = cmap(fontname, subset)
                self.keep(found)
            return found

        pdfdoc.PDFZCompress.encode = encode  # type: ignore[method-assign]
        ttfonts.makeToUnicodeCMap = to_unicode


_REUSED = _Reused()


def shared_subset_font(name: str, path: str) -> TTFont:
    """A DejaVu face for reportlab, its subsets made once (`_remember_subsets`)."""
    _REUSED.install()
    font = _SharedSubsetFont(name, path)
    _remember_subsets(font)
    return font
