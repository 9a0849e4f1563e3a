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
from collections import Counter
from collections.abc import Hashable, Sequence

import pikepdf

from toolkit.render.join import subset_names_apart

_SHARED = ("/Font", "/XObject")
_REFERENCE = re.compile(rb"\d+ \d+ R")  # "12 0 R" in written text (a match inside a string only costs time)
_OWN = frozenset({"/Length", "/Name"})  # the resources worth sharing between pages: they hold the large streams


def assemble_pdf(sources: Sequence[bytes], pages: Sequence[tuple[int, int]], info_from: int = 0,
                 title: str | None = None) -> bytes:
    """A PDF of `pages`, each (source index, page index), taking its document information (author,
    creator) from `sources[info_from]`, and `title` when given. A source passed twice (the same bytes
    object: a deck's identical backs) is opened once."""
    assembled = _Assembled(sources, pages, (), info_from, title)
    try:
        return assembled.save()
    finally:
        assembled.close()


class _Assembled:
    """One assembled document, kept open (with the sources its pages were copied from: qpdf reads their
    streams when it writes) so that `Assembler` can replace some of its pages later."""

    def __init__(self, sources: Sequence[bytes], pages: Sequence[tuple[int, int]], ids: Sequence[Hashable],
                 info_from: int, title: str | None) -> None:
        opened: dict[int, int] = {}
        distinct: list[bytes] = []
        for data in sources:
            if opened.setdefault(id(data), len(distinct)) == len(distinct):
                distinct.append(data)
        self.documents = [pikepdf.open(io.BytesIO(data)) for data in distinct]
        self.held = sum(map(len, distinct))  # bytes of the sources kept open
        self.versions = [self.documents[opened[id(data)]].pdf_version for data in sources]
        self.sources = list(sources)
        self.ids = list(ids)
        self.result = pikepdf.new()
        self.sharing = _Sharing()
        self._info(self.documents[opened[id(sources[info_from])]], title)
        for source, index in pages:
            number = opened[id(sources[source])]
            page = self.documents[number].pages[index]
            self.result.pages.append(page)
            self.sharing.walk(self.result.pages[-1].obj.get("/Resources"), page.obj.get("/Resources"),
                              _source_keys(distinct[number]))
        self.renamed = _name_subsets_apart(self.sharing.fonts)

    def _info(self, document: pikepdf.Pdf, title: str | None) -> None:
        self.title = title
        info = self.result.copy_foreign(document.docinfo)
        if isinstance(info, pikepdf.Dictionary):
            self.result.docinfo = info
            if title is not None:
                self.result.docinfo["/Title"] = pikepdf.String(title)

    def replace(self, sources: Sequence[bytes], pages: Sequence[tuple[int, int]], ids: Sequence[Hashable],
                info_from: int, title: str | None) -> bool:
        """Replace the pages whose id changed, in place; False (the document is then spoiled) when that
        could come out differently from assembling the whole anew: more than half the pages changed, a
        changed page equal to another one (a fresh assembly shares their objects), font subsets named
        apart, or too many sources held open already."""
        if self.renamed or not self.ids or len(ids) != len(self.ids) or len(sources) != len(self.sources):
            return False
        changed = [index for index, (old, new) in enumerate(zip(self.ids, ids, strict=True)) if old != new]
        counts = Counter(ids)
        if 2 * len(changed) > len(ids) or any(counts[ids[index]] > 1 for index in changed):
            return False
        if len(self.documents) > _KEPT_DOCUMENTS or self.held > _KEPT_BYTES:
            return False
        same_info = sources[info_from] is self.sources[info_from] and title == self.title
        fresh: dict[int, pikepdf.Pdf] = {}
        for number, data in enumerate(sources):
            if data is not self.sources[number]:
                fresh[id(data)] = document = pikepdf.open(io.BytesIO(data))
                self.documents.append(document)
                self.held += len(data)
                self.versions[number] = document.pdf_version
        self.sources = list(sources)
        fonts = len(self.sharing.fonts)
        for index in changed:
            source, number = pages[index]
            holder = fresh.get(id(sources[source]))
            if holder is None:  # a changed page from a source that did not change: not expected, start anew
                return False
            page = holder.pages[number]
            self.result.pages[index] = page
            self.sharing.walk(self.result.pages[index].obj.get("/Resources"), page.obj.get("/Resources"),
                              _source_keys(sources[source]))
        if len(self.sharing.fonts) > fonts:
            names = [str(font.get("/BaseFont")) for font in self.sharing.fonts]
            if len(set(names)) != len(names):
                return False  # a new subset under a name already taken: they would be named apart
        if not same_info:
            with pikepdf.open(io.BytesIO(sources[info_from])) as info:
                self._info(info, title)
        self.ids = list(ids)
        return True

    def save(self) -> bytes:
        buffer = io.BytesIO()
        # streams are copied as the sources hold them: re-encoding the ones reportlab wraps in ASCII85
        # would save 3 % of the file for 8 times the assembly time
        self.result.save(buffer, deterministic_id=True, compress_streams=False,
                         stream_decode_level=pikepdf.StreamDecodeLevel.none, min_version=max(self.versions))
        return buffer.getvalue()

    def close(self) -> None:
        self.result.close()
        for document in self.documents:
            document.close()


# what one kept document holds open at most (each replaced page's source stays open: qpdf reads its streams
# when it writes); past this it is assembled anew, which lets the old sources go
_KEPT_DOCUMENTS = 512
_KEPT_BYTES = 64 * 1024 * 1024


class Assembler:
    """Documents assembled before, kept open by name (`duelkit watch`): assembling one again with the
    same number of pages copies only the pages whose id changed (`ids[n]`: equal ids mean equal pages)
    into the kept document and saves it. The bytes are those a fresh `assemble_pdf` writes: qpdf numbers
    the objects as it walks the pages, and shared fonts and forms are found by content whichever page
    brought them; when that could differ, the document is assembled anew."""

    def __init__(self) -> None:
        self.kept: dict[str, _Assembled] = {}

    def assemble(self, name: str, sources: Sequence[bytes], pages: Sequence[tuple[int, int]],
                 ids: Sequence[Hashable], info_from: int = 0, title: str | None = None) -> bytes:
        kept = self.kept.pop(name, None)
        if kept is None or not kept.replace(sources, pages, ids, info_from, title):
            if kept is not None:
                kept.close()
            kept = _Assembled(sources, pages, ids, info_from, title)
        self.kept[name] = kept
        return kept.save()

    def renamed(self, name: str) -> bool:
        """Whether the document last assembled under `name` had font subsets named apart (its pages then
        depend on one another)."""
        kept = self.kept.get(name)
        return kept is None or kept.renamed

    def close(self) -> None:
        for kept in self.kept.values():
            kept.close()
        self.kept.clear()


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
                # which page brought it first must not show: its own name for it (obsolete) is dropped
                own = obj.stream_dict if isinstance(obj, pikepdf.Stream) else obj
                if isinstance(own, pikepdf.Dictionary) and "/Name" in own:
                    del own["/Name"]
                if kind == "/Font":
                    self.fonts.append(obj)
                elif isinstance(obj, pikepdf.Stream) and isinstance(original, pikepdf.Stream):
                    # a form's own fonts and pictures; its resource tables are its own copies, since in its
                    # source they are the page's too, and which page brought the form must not show
                    resources = obj.stream_dict.get("/Resources")
                    if isinstance(resources, pikepdf.Dictionary):
                        obj.stream_dict["/Resources"] = _own_copy(resources)
                    self.walk(obj.stream_dict.get("/Resources"), original.stream_dict.get("/Resources"), keys)
            elif first.objgen != obj.objgen:
                table[name] = first


def _own_copy(resources: pikepdf.Dictionary) -> pikepdf.Dictionary:
    """A direct copy of a resource dictionary and of its tables (the fonts, forms and pictures they name
    stay shared)."""
    def direct(value: object) -> object:
        if isinstance(value, pikepdf.Dictionary) and not isinstance(value, pikepdf.Stream):
            return pikepdf.Dictionary({name: item for name, item in value.items()})
        if isinstance(value, pikepdf.Array):
            return pikepdf.Array(list(value))
        return value
    return pikepdf.Dictionary({name: direct(value) for name, value in resources.items()})


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
        if b" R" not in text or not _REFERENCE.search(text):  # the plain test first: the regular expression
            return text  # takes 40 us on a font's width table (256 numbers), a third of a page's assembly
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


def _name_subsets_apart(fonts: list[pikepdf.Object]) -> bool:
    """Font subsets that arrived under one name named apart (`join.subset_names_apart`), in the font and its
    descriptor. Whether any was renamed."""
    names = [str(name)[1:] if isinstance(name := font.get("/BaseFont"), pikepdf.Name) else "" for font in fonts]
    renamed = False
    for font, tag in zip(fonts, subset_names_apart(names), strict=True):
        if tag is None:
            continue
        font["/BaseFont"] = pikepdf.Name("/" + tag)
        descriptor = font.get("/FontDescriptor")
        if isinstance(descriptor, pikepdf.Dictionary) and "/FontName" in descriptor:
            descriptor["/FontName"] = pikepdf.Name("/" + tag)
        renamed = True
    return renamed


def page_count(pdf: bytes) -> int:
    """How many pages a PDF has (read from its page tree, nothing drawn)."""
    with pikepdf.open(io.BytesIO(pdf)) as document:
        return len(document.pages)
