"""One PDF assembled from pages of PDFs already rendered, with pikepdf: a component's PDF from its pages
(each drawn alone, so a watch redraws only the pages that changed) and kit.pdf from the component PDFs.

qpdf copies the objects; content streams are not decoded or re-encoded. Fonts, forms and pictures that
several sources carry with the same content are kept once (pages drawn alone each embed their fonts;
`render_pdf(shared_fonts=True)` makes those subsets identical). Two different font subsets that would share
a name get distinct names, since some RIPs and editors mix such fonts up. The output is reproducible:
object numbers follow the order of the pages and the file ID is computed from the content.
"""

from __future__ import annotations

import hashlib
import io
import re
import string
from collections.abc import Hashable, Sequence

import pikepdf

_TAG_LENGTH = 6  # a subset font's name starts with six capital letters and '+' (PDF 32000, 9.6.4)
_SHARED = ("/Font", "/XObject")
_REFERENCE = re.compile(rb"\d+ \d+ R")  # "12 0 R" in written text (a match inside a string only costs time)
_OWN = frozenset({"/Length", "/Name"})  # the resources worth sharing between pages: they hold the large streams


def assemble_pdf(sources: Sequence[bytes], pages: Sequence[tuple[int, int]], info_from: int = 0,
                 title: str | None = None) -> bytes:
    """A PDF of `pages`, each (source index, page index), taking its document information (author,
    creator) from `sources[info_from]`, and `title` when given. A source passed twice (the same bytes
    object: a deck's identical backs) is opened once."""
    opened: dict[int, int] = {}
    distinct: list[bytes] = []
    for data in sources:
        if opened.setdefault(id(data), len(distinct)) == len(distinct):
            distinct.append(data)
    documents = [pikepdf.open(io.BytesIO(data)) for data in distinct]
    try:
        result = pikepdf.new()
        info = result.copy_foreign(documents[opened[id(sources[info_from])]].docinfo)
        if isinstance(info, pikepdf.Dictionary):
            result.docinfo = info
            if title is not None:
                result.docinfo["/Title"] = pikepdf.String(title)
        sharing = _Sharing()
        for source, index in pages:
            number = opened[id(sources[source])]
            page = documents[number].pages[index]
            result.pages.append(page)
            sharing.walk(result.pages[-1].obj.get("/Resources"), page.obj.get("/Resources"),
                         _source_keys(distinct[number]))
        _name_subsets_apart(sharing.fonts)
        buffer = io.BytesIO()
        # streams are copied as the sources hold them: re-encoding the ones reportlab wraps in ASCII85
        # would save 3 % of the file for 8 times the assembly time
        result.save(buffer, deterministic_id=True, compress_streams=False,
                    stream_decode_level=pikepdf.StreamDecodeLevel.none,
                    min_version=max(d.pdf_version for d in documents))
        return buffer.getvalue()
    finally:
        for document in documents:
            document.close()


_KEYS: dict[int, tuple[bytes, dict[tuple[int, int], Hashable]]] = {}  # by source: its objects' content keys
_KEPT_SOURCES = 1024


def _source_keys(data: bytes) -> dict[tuple[int, int], Hashable]:
    """The content keys of a source's objects, remembered for the same bytes object: a watch assembles the
    same page PDFs (and kit.pdf the same component PDFs) again at every save, and walking their fonts was
    most of the assembly."""
    known = _KEYS.pop(id(data), None)
    keys = known[1] if known is not None and known[0] is data else {}
    if known is None and len(_KEYS) >= _KEPT_SOURCES:
        del _KEYS[next(iter(_KEYS))]
    _KEYS[id(data)] = (data, keys)  # most recently used last
    return keys


class _Sharing:
    """Every page pointed at one copy of each font, form and picture (by content); the fonts kept, in page
    order. Objects no page uses any more are not written (qpdf writes what is reachable)."""

    def __init__(self) -> None:
        self.kept: dict[Hashable, pikepdf.Object] = {}
        self.fonts: list[pikepdf.Object] = []
        self.seen: set[tuple[int, int]] = set()  # resource dictionaries walked (a source's pages share one)

    def walk(self, resources: object, source: object, keys: dict[tuple[int, int], Hashable]) -> None:
        """`resources` as copied into the result; `source`: the same dictionary in its source, whose objects
        are keyed (`keys`: that source's memory)."""
        if not isinstance(resources, pikepdf.Dictionary) or not isinstance(source, pikepdf.Dictionary):
            return
        if resources.is_indirect:
            if resources.objgen in self.seen:
                return
            self.seen.add(resources.objgen)
        for kind in _SHARED:
            table, origin = resources.get(kind), source.get(kind)
            if isinstance(table, pikepdf.Dictionary) and isinstance(origin, pikepdf.Dictionary):
                self.share(kind, table, origin, keys)

    def share(self, kind: str, table: pikepdf.Dictionary, origin: pikepdf.Dictionary,
              keys: dict[tuple[int, int], Hashable]) -> None:
        for name in list(table.keys()):
            obj, original = table[name], origin.get(name)
            if not obj.is_indirect or not isinstance(original, pikepdf.Object) or not original.is_indirect:
                continue
            key = _key(original, keys)
            first = self.kept.get(key)
            if first is None:
                self.kept[key] = obj
                if kind == "/Font":
                    self.fonts.append(obj)
                elif isinstance(obj, pikepdf.Stream) and isinstance(original, pikepdf.Stream):
                    # a form's own fonts and pictures
                    self.walk(obj.stream_dict.get("/Resources"), original.stream_dict.get("/Resources"), keys)
            elif first.objgen != obj.objgen:
                table[name] = first


def _key(obj: object, keys: dict[tuple[int, int], Hashable]) -> Hashable:
    """What an object holds, as a hashable value: equal keys mean equal content, whichever source each
    came from. References are followed (`keys`: one source's memory of its indirect objects); a direct
    value that refers to nothing is its text as qpdf writes it."""
    if not isinstance(obj, pikepdf.Object):  # pikepdf hands out numbers and booleans as Python values
        return (type(obj).__name__, repr(obj))
    if obj.is_indirect:
        known = keys.get(obj.objgen)
        if known is not None:
            return known
    elif not isinstance(obj, pikepdf.Stream):
        text = obj.unparse()
        if not _REFERENCE.search(text):
            return text
    if isinstance(obj, pikepdf.Stream):
        body = hashlib.blake2b(obj.read_raw_bytes(), digest_size=20).digest()
        key: Hashable = ("stream", body, _items_key(obj.stream_dict, keys))
    elif isinstance(obj, pikepdf.Dictionary):
        key = ("dict", _items_key(obj, keys))
    elif isinstance(obj, pikepdf.Array):
        key = ("array", tuple(_key(item, keys) for item in obj))
    else:
        key = ("value", obj.unparse())
    if obj.is_indirect:
        keys[obj.objgen] = key
    return key


def _items_key(obj: pikepdf.Dictionary, keys: dict[tuple[int, int], Hashable]) -> Hashable:
    # /Length is the stream's own; a font's /Name is its resource name in one source (obsolete since PDF 1.1)
    return tuple(sorted((name, _key(value, keys)) for name, value in obj.items() if name not in _OWN))


def _name_subsets_apart(fonts: list[pikepdf.Object]) -> None:
    """Each source names its font subsets from AAAAAA up, so two different subsets may arrive under one
    name; the later ones get the next tags no font uses yet (deterministic: in page order)."""
    used = {str(font.get("/BaseFont")) for font in fonts}
    taken: set[str] = set()
    counter = 0
    for font in fonts:
        name = font.get("/BaseFont")
        text = str(name)[1:] if isinstance(name, pikepdf.Name) else ""
        if not _is_subset(text) or text not in taken:
            taken.add(text)
            continue
        while True:
            counter += 1
            renamed = _letters(counter, _TAG_LENGTH) + text[_TAG_LENGTH:]
            if "/" + renamed not in used and renamed not in taken:
                break
        taken.add(renamed)
        font["/BaseFont"] = pikepdf.Name("/" + renamed)
        descriptor = font.get("/FontDescriptor")
        if isinstance(descriptor, pikepdf.Dictionary) and "/FontName" in descriptor:
            descriptor["/FontName"] = pikepdf.Name("/" + renamed)


def _is_subset(name: str) -> bool:
    return len(name) > _TAG_LENGTH and name[_TAG_LENGTH] == "+" and name[:_TAG_LENGTH].isupper()


def _letters(number: int, width: int) -> str:
    """`number` in base 26 written with capital letters, `width` letters long (AAA, AAB, ...)."""
    letters = []
    for _ in range(width):
        number, digit = divmod(number, 26)
        letters.append(string.ascii_uppercase[digit])
    if number:
        raise ValueError("too many font subsets to name apart in one PDF")
    return "".join(reversed(letters))


def page_count(pdf: bytes) -> int:
    """How many pages a PDF has (read from its page tree, nothing drawn)."""
    with pikepdf.open(io.BytesIO(pdf)) as document:
        return len(document.pages)
