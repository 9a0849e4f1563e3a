"""A component's PDF joined from its pages, each a one-page PDF that reportlab wrote (`page_cache.draw_page`),
without qpdf: parsing every page's fonts with qpdf and comparing them object by object was most of
assembling a large deck, and importing pikepdf a tenth of a `build --only`.

The pages are duelkit's own output, so this reads only what reportlab writes: an xref table, objects
`N 0 obj ... endobj`, dictionaries without literal strings (a page whose objects hold one is handed to
`toolkit.render.assemble` instead). Every object but the page itself is kept once by content: its bytes
with each reference replaced by the content key of what it refers to (so the seeded font subsets every
page embeds, `shared_subsets`, are written once) and without a font's obsolete `/Name` (its resource
name in the one page). Object numbers follow the pages in order; the file ID is a hash of the content.
Font subsets that differ but share a name are named apart, as `assemble` does.
"""

from __future__ import annotations

import hashlib
import re
import string
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from toolkit.errors import DuelkitError

TAG_LENGTH = 6  # a subset font's name starts with six capital letters and '+' (PDF 32000, 9.6.4)

_REF_END = re.compile(rb" 0 R(?=[\s\]>/])")  # then the digits before it (a leading \d+ makes a search crawl)
_LENGTH = re.compile(rb"/Length (\d+)")
_NAME = re.compile(rb"/Name /[^\s/\[\]<>()]+ ?")
_BASE_FONT = re.compile(rb"/BaseFont /([^\s/\[\]<>()]+)")
_FONT_NAME = re.compile(rb"/FontName /([^\s/\[\]<>()]+)")
_VERSION = re.compile(rb"%PDF-1\.(\d)")
_BINARY_MARK = b"%\x93\x8c\x8b\x9e duelkit\n"


class _Unsupported(DuelkitError):
    """A page PDF this reader does not take apart (it goes to qpdf instead)."""


@dataclass(frozen=True)
class _Object:
    """One object of a page PDF: its dictionary (or other value) and where its stream's bytes lie."""

    head: bytes
    stream: tuple[int, int] | None


@dataclass(frozen=True)
class _Page:
    data: bytes
    objects: dict[int, _Object]
    page: int  # the number of the page object
    tree: int  # and of the page tree (its /Parent)
    info: bytes  # the document information dictionary, as written
    version: int  # PDF 1.x
    keys: dict[int, bytes]  # content keys of the objects (made as they are needed)


def join_pages(sources: Sequence[bytes], title: str) -> tuple[bytes, bool]:
    """The PDF of these one-page PDFs in order, titled `title`, and whether font subsets may have been named
    apart (the pages' bytes then depend on one another). The same bytes object passed twice is read once."""
    try:
        return _Joined([_parsed(data) for data in sources], title).write()
    except _Unsupported:
        from toolkit.render.assemble import assemble_pdf  # qpdf: only for what this reader does not take

        return assemble_pdf(sources, [(index, 0) for index in range(len(sources))], title=title), True


# pages taken apart, by the id of their bytes (held by the entry), most recently used last: a watch joins the
# same pages again at every save; what was used least recently goes past this many bytes of pages
_PARSED: dict[int, _Page] = {}
_KEPT_BYTES = 64 * 1024 * 1024
_held = [0]
_PARSED_LOCK = threading.Lock()


def _parsed(data: bytes) -> _Page:
    with _PARSED_LOCK:  # the studio may build two tables' kits in threads
        found = _PARSED.pop(id(data), None)
        if found is None or found.data is not data:
            if found is not None:
                _held[0] -= len(found.data)
            found = _parse(data)
            _held[0] += len(data)
            while _PARSED and _held[0] > _KEPT_BYTES:
                _held[0] -= len(_PARSED.pop(next(iter(_PARSED))).data)
        _PARSED[id(data)] = found
    return found


def _parse(data: bytes) -> _Page:
    """Take a one-page PDF apart by its xref table (reportlab writes one, without object streams); anything
    else is `_Unsupported` (qpdf's to read)."""
    try:
        return _parse_table(data)
    except (KeyError, ValueError, IndexError) as error:
        raise _Unsupported from error


def _parse_table(data: bytes) -> _Page:
    start = int(data[data.rindex(b"startxref") + 9:].split()[0])
    table = data[start:data.index(b"trailer", start)].split(b"\n")
    count = int(table[1].split()[1])
    offsets = [int(line[:10]) for line in table[3:2 + count]]
    trailer = data[data.index(b"trailer", start):]
    root = int(_value(trailer, b"/Root"))
    info = int(_value(trailer, b"/Info"))
    ends = sorted([*offsets, start])
    objects: dict[int, _Object] = {}
    for number, offset in enumerate(offsets, start=1):
        end = ends[ends.index(offset) + 1]
        header = f"{number} 0 obj\n".encode()
        if not data.startswith(header, offset):
            raise _Unsupported
        body = data[offset + len(header):end]
        split = body.find(b"\nstream\n")
        if split < 0:
            objects[number] = _Object(body[:body.rindex(b"endobj")].rstrip(b"\n"), None)
            continue
        length = _LENGTH.search(body, 0, split)
        if length is None:
            raise _Unsupported
        first = offset + len(header) + split + len(b"\nstream\n")
        if first + int(length[1]) > end:
            raise _Unsupported
        objects[number] = _Object(body[:split], (first, first + int(length[1])))
    pages = int(_value(objects[root].head, b"/Pages"))
    kids = objects[pages].head
    page = int(kids[kids.index(b"/Kids [") + 7:].split()[0])
    if page not in objects:
        raise _Unsupported
    version = _VERSION.match(data)
    return _Page(data, objects, page, pages, objects[info].head, int(version[1]) if version else 4, {})


def _value(text: bytes, key: bytes) -> bytes:
    """The object number a dictionary key refers to."""
    return text[text.index(key) + len(key):].split()[0]


@lru_cache(maxsize=4096)
def _split(head: bytes) -> tuple[tuple[bytes, ...], tuple[int, ...]]:
    """An object's text without a font's `/Name`, cut at its references: the text around them and the
    numbers they refer to (the same font objects come in every page: cut once)."""
    head = _NAME.sub(b"", head)
    pieces = []
    refs = []
    start = 0
    for match in _REF_END.finditer(head):
        digits = match.start()
        while digits > start and head[digits - 1:digits].isdigit():
            digits -= 1
        if digits == match.start():
            continue
        pieces.append(head[start:digits])
        refs.append(int(head[digits:match.start()]))
        start = match.end()
    pieces.append(head[start:])
    return tuple(pieces), tuple(refs)


def _key(page: _Page, number: int) -> bytes:
    """What an object holds, whichever page brought it: its text with references as their targets' keys,
    and its stream's bytes."""
    known = page.keys.get(number)
    if known is not None:
        return known
    obj = page.objects.get(number)
    # a literal string could hold what looks like a reference
    if obj is None or number in (page.page, page.tree) or b"(" in obj.head:
        raise _Unsupported
    pieces, refs = _split(obj.head)
    digest = hashlib.blake2b(pieces[0], digest_size=20)
    for piece, ref in zip(pieces[1:], refs, strict=True):
        digest.update(_key(page, ref))
        digest.update(piece)
    if obj.stream is not None:
        digest.update(memoryview(page.data)[obj.stream[0]:obj.stream[1]])
    page.keys[number] = key = digest.digest()
    return key


class _Joined:
    """Objects numbered as they are first met (catalog 1, page tree 2, information 3, then each page and
    what it uses, depth first), each kept once by content (`_key`); pages are never shared."""

    def __init__(self, pages: list[_Page], title: str) -> None:
        self.pages = pages
        self.title = title
        self.numbers: dict[bytes, int] = {}
        self.bodies: list[list[bytes | memoryview]] = [[], [], []]  # catalog, page tree, information
        self.fonts: list[int] = []  # object numbers of the fonts kept, in order
        self.kids = [self._page(page) for page in pages]
        self.renamed = _name_apart(self.bodies, self.fonts)

    def _page(self, page: _Page) -> int:
        own = page.objects[page.page]
        if b"(" in own.head:
            raise _Unsupported
        number = self._new([])
        pieces, refs = _split(own.head)  # its /Parent: this document's page tree (object 2)
        self.bodies[number - 1].append(self._text(page, pieces, refs, page.tree))
        return number

    def _text(self, page: _Page, pieces: tuple[bytes, ...], refs: tuple[int, ...], tree: int = 0) -> bytes:
        """An object's text with its references renumbered (a page's /Parent to this document's tree)."""
        targets = [b"2 0 R" if ref == tree else self._ref(page, ref, before)
                   for ref, before in zip(refs, pieces[:-1], strict=True)]
        return b"".join(piece for pair in zip(pieces, [*targets, b""], strict=True) for piece in pair)

    def _ref(self, page: _Page, number: int, before: bytes) -> bytes:
        """A reference to the object's one copy; a font table (`/Font N 0 R`) is written in place: kit.pdf's
        assembler shares fonts and forms by content but not the tables naming them, and a table several pages
        shared would make a watch's kit.pdf differ from a fresh one (`assemble.Assembler`)."""
        if before.endswith(b"/Font "):
            obj = page.objects.get(number)
            if obj is not None and obj.stream is None and obj.head.startswith(b"<<"):
                return self._text(page, *_split(obj.head))
        return b"%d 0 R" % self._object(page, number)

    def _object(self, page: _Page, number: int) -> int:
        key = _key(page, number)
        found = self.numbers.get(key)
        if found is not None:
            return found
        obj = page.objects[number]
        found = self.numbers[key] = self._new([])
        pieces, refs = _split(obj.head)
        body: list[bytes | memoryview] = [self._text(page, pieces, refs)]
        if obj.stream is not None:
            body += [b"\nstream\n", memoryview(page.data)[obj.stream[0]:obj.stream[1]], b"\nendstream"]
        elif b"/Type /Font" in obj.head:
            self.fonts.append(found)
        self.bodies[found - 1] = body
        return found

    def _new(self, body: list[bytes | memoryview]) -> int:
        self.bodies.append(body)
        return len(self.bodies)

    def write(self) -> tuple[bytes, bool]:
        version = max((page.version for page in self.pages), default=4)
        self.bodies[0] = [b"<<\n/PageMode /UseNone /Pages 2 0 R /Type /Catalog\n>>"]
        kids = b" ".join(b"%d 0 R" % kid for kid in self.kids)
        self.bodies[1] = [b"<<\n/Count %d /Kids [ %s ] /Type /Pages\n>>" % (len(self.kids), kids)]
        info = self.pages[0].info if self.pages else b"<<\n>>"
        if b"/Title ()" not in info:
            raise _Unsupported
        self.bodies[2] = [info.replace(b"/Title ()", b"/Title " + pdf_string(self.title), 1)]
        out: list[bytes | memoryview] = [b"%%PDF-1.%d\n" % version, _BINARY_MARK]
        offsets = []
        position = sum(map(len, out))
        digest = hashlib.blake2b(digest_size=16)
        for number, body in enumerate(self.bodies, start=1):
            offsets.append(position)
            parts = [b"%d 0 obj\n" % number, *body, b"\nendobj\n"]
            for part in parts:
                digest.update(part)
                position += len(part)
            out += parts
        size = len(self.bodies) + 1
        xref = [b"xref\n0 %d\n0000000000 65535 f \n" % size, *(b"%010d 00000 n \n" % offset for offset in offsets)]
        file_id = digest.hexdigest().encode()
        trailer = (b"trailer\n<<\n/ID [<%s><%s>] /Info 3 0 R /Root 1 0 R /Size %d\n>>\nstartxref\n%d\n%%%%EOF\n"
                   % (file_id, file_id, size, position))
        return b"".join([*out, *xref, trailer]), self.renamed


def pdf_string(text: str) -> bytes:
    """A PDF text string: literal when plain ASCII, else UTF-16BE with its byte order mark (PDF 32000, 7.9.2.2)."""
    if text.isascii() and text.isprintable():
        return b"(" + text.encode("ascii").replace(b"\\", b"\\\\").replace(b"(", b"\\(").replace(b")", b"\\)") + b")"
    return b"<" + ("\ufeff" + text).encode("utf-16-be").hex().encode() + b">"


def _name_apart(bodies: list[list[bytes | memoryview]], fonts: list[int]) -> bool:
    """Font subsets that arrived under one name named apart (`subset_names_apart`), in the font and its
    descriptor. Whether any was renamed."""
    heads = [bytes(bodies[number - 1][0]) for number in fonts]
    names = [match[1].decode("latin-1") if (match := _BASE_FONT.search(head)) else "" for head in heads]
    renamed = False
    for number, head, name, tag in zip(fonts, heads, names, subset_names_apart(names), strict=True):
        if tag is None:
            continue
        new = tag.encode("latin-1")
        bodies[number - 1][0] = head.replace(b"/BaseFont /" + name.encode("latin-1"), b"/BaseFont /" + new, 1)
        descriptor = re.search(rb"/FontDescriptor (\d+) 0 R", head)
        if descriptor is not None:
            own = bodies[int(descriptor[1]) - 1]
            own[0] = _FONT_NAME.sub(b"/FontName /" + new, bytes(own[0]), 1)
        renamed = True
    return renamed


def subset_names_apart(names: Sequence[str]) -> list[str | None]:
    """Each page names its font subsets from AAAAAA up, so two different subsets may arrive under one name:
    for each font in order, its new name (None: kept), the later ones of a name getting the next tags no font
    uses yet (deterministic: in page order). Shared by this joiner and qpdf's (`assemble`)."""
    used = set(names)
    taken: set[str] = set()
    counter = 0
    found: list[str | None] = []
    for name in names:
        if not is_subset(name) or name not in taken:
            taken.add(name)
            found.append(None)
            continue
        while True:
            counter += 1
            tag = letters(counter, TAG_LENGTH) + name[TAG_LENGTH:]
            if tag not in used and tag not in taken:
                break
        taken.add(tag)
        found.append(tag)
    return found


def is_subset(name: str) -> bool:
    return len(name) > TAG_LENGTH and name[TAG_LENGTH] == "+" and name[:TAG_LENGTH].isupper()


def letters(number: int, width: int) -> str:
    """`number` in base 26 written with capital letters, `width` letters long (AAA, AAB, ...)."""
    found = []
    for _ in range(width):
        number, digit = divmod(number, 26)
        found.append(string.ascii_uppercase[digit])
    if number:
        raise ValueError("too many font subsets to name apart in one PDF")
    return "".join(reversed(found))
