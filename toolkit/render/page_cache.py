"""Pages drawn once: each printed page is drawn alone into a one-page PDF, found again by the hash of what
it shows, so a kit's many identical backs are drawn once per build and a `duelkit watch` rebuild draws only
the pages a save changed. PDFs are then assembled from these pages (`toolkit.render.assemble`).

The key is a BLAKE2 hash of the page's size and scene items (pickled: frozen dataclasses of numbers,
strings and picture bytes), the project's fallback fonts, and the duelkit and reportlab versions, so a
key never outlives the renderer that drew the page. Optionally the pages are kept on disk too
(`output/.cache`, one file per key, safe to delete: a missing, unreadable or damaged entry is drawn again;
each file ends with a checksum of the page's bytes, so a file changed anywhere is not read as a page).
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import io
import operator
import pickle
from collections.abc import Callable
from functools import cache
from pathlib import Path

from toolkit.render import scene
from toolkit.render.fonts import fallback_fonts
from toolkit.render.pdf import render_pdf
from toolkit.render.scene import Document, Group, Page, Reuse

CACHE_FORMAT = 2  # bump when what a cached page file holds changes


RENDERER_FILES = ("pdf.py", "pdf_text.py", "pdf_ops.py", "fonts.py", "scene.py", "pdfx.py", "page_cache.py",
                  "shared_subsets.py")


@cache
def renderer_version() -> str:
    """What drew a page, as text: a cached page drawn by another duelkit or reportlab, or by a changed
    renderer (the files that draw, by content: a development copy keeps its version number), is not used."""
    import reportlab

    from toolkit import __version__

    here = Path(__file__).resolve().parent
    code = hashlib.blake2b(digest_size=12)
    for name in RENDERER_FILES:
        code.update((here / name).read_bytes())
    return f"duelkit {__version__} ({code.hexdigest()}), reportlab {reportlab.Version}, format {CACHE_FORMAT}"


def draw_page(page: Page) -> bytes:
    """One page alone as a PDF, with the shared font subsets (`render_pdf(shared_fonts=True)`)."""
    return render_pdf(Document("", [page]), shared_fonts=True)


class PageCache:
    """One-page PDFs by key. In memory, what the last `start`'s rebuild did not use is forgotten at the next
    one (so it holds one kit's pages); `folder`, when given, keeps them on disk as well. `drawn` counts the
    pages drawn since `start` (the rest came from memory or disk)."""

    def __init__(self, folder: Path | None = None, write: Callable[[Path, bytes], None] | None = None,
                 read: Callable[[Path], bytes | None] | None = None, jobs: int = 1, by_identity: bool = False) -> None:
        self.folder = folder
        # a build that keeps nothing (no disk cache, nothing remembered for a next rebuild) needs keys only to
        # draw each page once within the build: `_identity_key` finds equal pages without hashing their content
        self.by_identity = by_identity and folder is None
        self._signatures: dict[tuple[object, ...], str] = {}
        self.jobs = jobs  # processes drawing the pages `get_all` lacks (`toolkit.render.parallel`)
        self.write = write
        self.read = read
        self.entries: dict[str, bytes] = {}
        self.used: dict[str, bytes] = {}
        self.drawn = 0
        self._keys: dict[int, tuple[Page, str]] = {}
        self._salt = b""
        self._parts = _PartDigests()

    def start(self) -> None:
        """A new rebuild: keep only the pages the last one used."""
        if self.used:
            self.entries, self.used = self.used, {}
        self.drawn = 0
        self._keys.clear()
        self._salt = b""
        self._parts.start()

    def key(self, page: Page) -> str:
        """The hash of what the page shows and of what draws it (the same page object is hashed once
        per rebuild: a deck's backs are one page repeated)."""
        known = self._keys.get(id(page))
        if known is not None and known[0] is page:
            return known[1]
        if self.by_identity:
            key = self._identity_key(page)
            self._keys[id(page)] = (page, key)
            return key
        if not self._salt:
            fonts = tuple(font.pdf_name for font in fallback_fonts())
            self._salt = repr((renderer_version(), fonts)).encode("utf-8")
        key = self._parts.page(page, self._salt)
        self._keys[id(page)] = (page, key)
        return key

    def _identity_key(self, page: Page) -> str:
        """A key for this build only: a laid-out card or form is one tuple of items wherever it is placed (a
        deck's backs), so pages are told apart by their size, each group's or form's placement and the
        identity of its items, and their other items' text (`repr` tells 1 from 1.0, as a hash of the content
        does). Pages equal in content but made of other objects are drawn twice, into the same bytes. The
        pages are held (`_keys`), so no id is reused meanwhile."""
        signature = (repr((page.width, page.height)), *map(_placed, page.items))
        return self._signatures.setdefault(signature, f"build-{len(self._signatures)}")

    def get_all(self, keys: list[str], pages: list[Page]) -> list[bytes]:
        """Each page's PDF: from memory, from the disk cache, or drawn now (each distinct page once, the pages
        missing drawn together by up to `jobs` processes) and kept."""
        missing: dict[str, Page] = {}
        for key, page in zip(keys, pages, strict=True):
            if key not in missing and key not in self.used:
                found = self.entries.get(key) or self._read(key)
                if found is None:
                    missing[key] = page
                else:
                    self.used[key] = found
        if missing:
            from toolkit.render.parallel import draw_pages

            for key, found in zip(missing, draw_pages(list(missing.values()), self.jobs), strict=True):
                self.drawn += 1
                self._store(key, found)
                self.used[key] = found
        return [self.used[key] for key in keys]

    def prune(self) -> None:
        """Delete the disk cache's pages this rebuild did not use (after a whole kit: the pages of
        earlier versions of the data would only fill the disk)."""
        if self.folder is None:
            return
        with contextlib.suppress(OSError):
            for path in self.folder.iterdir():
                if path.suffix == ".pdf" and path.stem not in self.used:
                    path.unlink()

    def _path(self, key: str) -> Path | None:
        return self.folder / f"{key}.pdf" if self.folder is not None else None

    def _read(self, key: str) -> bytes | None:
        path = self._path(key)
        if path is None or self.read is None:
            return None
        data = self.read(path)
        if not data or len(data) <= _CHECKSUM_LENGTH:
            return None
        page = data[:-_CHECKSUM_LENGTH]
        return page if data[-_CHECKSUM_LENGTH:] == _checksum(page) else None

    def _store(self, key: str, data: bytes) -> None:
        path = self._path(key)
        if path is None or self.write is None:
            return
        with contextlib.suppress(OSError):  # the cache only saves time: a full disk draws again next time
            self.write(path, data + _checksum(data))


_CHECKSUM_LENGTH = 34


def _checksum(page: bytes) -> bytes:
    """A PDF comment line after the page's `%%EOF` (the file still opens as a PDF): the page's BLAKE2 hash."""
    return b"%" + hashlib.blake2b(page, digest_size=16).hexdigest().encode("ascii") + b"\n"


class _PartDigests:
    """Page keys without pickling what was hashed before. A group's or form's items (a laid-out card: one
    tuple object that a watch places again at every rebuild, `kit.memo`) are hashed once, by identity; a page
    is hashed as its top-level items with those hashes in place of the groups' items; and a page made of
    the same item objects as one hashed before (pieces a watch remembers) is not hashed again. Objects are
    held with their hashes (so an id is not reused meanwhile); what the last rebuild did not use is
    forgotten at the next `start`."""

    def __init__(self) -> None:
        self.entries: dict[int, tuple[tuple[object, ...], bytes]] = {}
        self.used: dict[int, tuple[tuple[object, ...], bytes]] = {}
        self.pages: dict[tuple[object, ...], tuple[tuple[object, ...], str]] = {}
        self.pages_used: dict[tuple[object, ...], tuple[tuple[object, ...], str]] = {}

    def start(self) -> None:
        if self.used:
            self.entries, self.used = self.used, {}
        if self.pages_used:
            self.pages, self.pages_used = self.pages_used, {}

    def page(self, page: Page, salt: bytes) -> str:
        """The page's key: the hash of `salt`, its size and its items (groups' items by their hash)."""
        items = tuple(page.items)
        signature = (salt, page.width, page.height, *map(id, items))
        known = self.pages_used.get(signature) or self.pages.get(signature)
        if known is None or not all(map(operator.is_, known[0], items)):
            digest = hashlib.blake2b(salt, digest_size=20)
            shallow = [self.shallow(item) for item in items]
            digest.update(_pickled((page.width, page.height, shallow)))
            known = (items, digest.hexdigest())
        self.pages_used[signature] = known
        return known[1]

    def shallow(self, item: object) -> object:
        """The item with a group's or form's items replaced by their hash (the type is part of the value,
        so a group and a form never meet)."""
        if type(item) is Group:
            return (Group, item.dx, item.dy, item.rotate, item.clip, item.mirror_x, item.mirror_y, item.scale,
                    self.digest(item.items))
        if type(item) is Reuse:
            return (Reuse, item.key, self.digest(item.items))
        return item

    def digest(self, items: tuple[object, ...]) -> bytes:
        known = self.used.get(id(items)) or self.entries.get(id(items))
        if known is None or known[0] is not items:
            known = (items, hashlib.blake2b(_pickled(items), digest_size=20).digest())
        self.used[id(items)] = known
        return known[1]


def _placed(item: object) -> object:
    if type(item) is Group:
        return (id(item.items), repr((item.dx, item.dy, item.rotate, item.clip, item.mirror_x, item.mirror_y,
                                      item.scale)))
    if type(item) is Reuse:
        return (id(item.items), repr(item.key))
    return repr(item)


def _as_fields(kind: type) -> Callable[[object], tuple[object, ...]]:
    getter = operator.attrgetter(*(item.name for item in dataclasses.fields(kind)))
    return lambda item: (kind, getter(item))


# each scene item pickled as its class and its fields' values (what it shows, nothing else): half the time of
# pickle's own way for a dataclass (its __dict__ with the field names), the tenth of a build spent on page keys
_AS_FIELDS = {kind: _as_fields(kind) for kind in (scene.Style, scene.Rect, scene.Circle, scene.Line, scene.Polygon,
                                                  scene.Wedge, scene.Text, scene.Group, scene.Image, scene.Reuse)}


def _pickled(value: object) -> bytes:
    buffer = io.BytesIO()
    pickler = pickle.Pickler(buffer, protocol=5)
    pickler.dispatch_table = _AS_FIELDS  # type: ignore[assignment]
    pickler.dump(value)
    return buffer.getvalue()
