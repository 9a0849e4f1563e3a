"""A kit's files in memory: each component's PDF assembled from its pages (each drawn once, `PageCache`),
kit.pdf assembled from the component PDFs with its print plan, and SVG pieces on request. Writing them is
`toolkit.output`'s job."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Hashable, Sequence
from functools import partial
from typing import TYPE_CHECKING

from toolkit.errors import DuelkitError
from toolkit.kit.component import Component
from toolkit.kit.options import PrintOptions
from toolkit.kit.plan import component_pages, kit_layout
from toolkit.output import safe_name
from toolkit.render.join import join_pages
from toolkit.render.page_cache import PageCache
from toolkit.render.pdf import render_pdf
from toolkit.render.scene import Document, Page

if TYPE_CHECKING:
    from toolkit.render.assemble import Assembler

KIT_FILE = "kit.pdf"


def kit_files(components: Sequence[Component], title: str, svg: bool,
              on_render: Callable[[str], None] | None = None,
              options: PrintOptions | None = None, *, with_kit: bool = True,
              cache: RenderCache | None = None) -> dict[str, bytes]:
    """Every output file's name and bytes: one PDF per component, kit.pdf (the print plan first, then
    every sheet on its own two pages: see `toolkit.kit.plan`), and SVG pieces on request.

    Each page is drawn once, alone (`PageCache`, by the hash of what it shows: a kit's identical backs
    are drawn once), and each component's PDF is assembled from its pages; kit.pdf is assembled from the
    component PDFs (`toolkit.render.assemble`). `with_kit=False` leaves kit.pdf out (`build --only`). A
    `cache` (`duelkit watch`) keeps the pages and files drawn, so a rebuild draws only what changed."""
    options = options or PrintOptions()
    cache = cache or RenderCache(keep=False)
    files: dict[str, bytes] = {}
    rendered: list[bytes] = []
    fingerprints: list[str] = []
    page_keys: list[list[str]] = []
    laid_out = []
    for component in components:
        name = safe_name(component.name)
        pdf_title = document_title(title, component.title)
        pages = component_pages(component, options)
        keys = [cache.pages.key(page) for page in pages]
        laid_out.append((name, pdf_title, pages, keys, _digest((pdf_title, keys))))
    # the pages of every PDF to assemble, drawn together first: processes share out the whole kit's pages
    redrawn = [(key, page) for name, _, pages, keys, fingerprint in laid_out
               if not cache.known(f"{name}.pdf", fingerprint) for key, page in zip(keys, pages, strict=True)]
    cache.pages.get_all([key for key, _ in redrawn], [page for _, page in redrawn])
    for component, (name, pdf_title, pages, keys, fingerprint) in zip(components, laid_out, strict=True):
        fingerprints.append(fingerprint)
        page_keys.append(keys)
        pdf = cache.get(f"{name}.pdf", fingerprint, partial(_pdf, pdf_title, pages, keys, cache, f"{name}.pdf"))
        rendered.append(pdf)
        _add_once(files, f"{name}.pdf", pdf)
        if on_render:
            on_render(name)
        if svg:
            for slug, page in component.pieces:
                file_name = f"{safe_name(slug)}.svg"
                _add_once(files, file_name, cache.get(file_name, _digest((slug, cache.pages.key(page))),
                                                      partial(_svg, page, slug)))
    if with_kit:
        # the plan follows from the parts' pages (sizes, sides) and titles, all in their fingerprints
        fingerprint = _digest((title, repr(options), [(c.name, f) for c, f in zip(components, fingerprints,
                                                                                      strict=True)]))
        ids = _page_ids(components, fingerprints, page_keys, cache)
        files[KIT_FILE] = cache.get(KIT_FILE, fingerprint, partial(kit_pdf, components, title, options, rendered,
                                                                   cache.assembler, ids, cache))
        if on_render:
            on_render("kit")
    return files


def kit_pdf(components: Sequence[Component], title: str, options: PrintOptions, rendered: Sequence[bytes],
            assembler: Assembler | None = None, ids: Sequence[Sequence[Hashable]] = (),
            cache: RenderCache | None = None) -> bytes:
    """kit.pdf from the component PDFs already rendered (`rendered[n]` is component n's): only the plan
    and the blank pages are drawn here (the plan again only when its pages changed, with a `cache`). With
    an `assembler` (a watch), only the pages whose id changed (`ids[n][i]`: page i of component n) are
    copied into the kit.pdf kept from the last rebuild."""
    layout = kit_layout(components, title, options)
    document = Document(f"{title}: print-and-play kit", layout.plan)
    if cache is None:
        plan = render_pdf(document, shared_fonts=True)
    else:
        plan_key = _digest((document.title, [cache.pages.key(page) for page in layout.plan]))
        if cache.plan is None or cache.plan[0] != plan_key:
            cache.plan = (plan_key, render_pdf(document, shared_fonts=True))
        plan = cache.plan[1]
    if assembler is None:
        from toolkit.render.assemble import assemble_pdf  # qpdf (pikepdf): kit.pdf only, not `build --only`

        return assemble_pdf([plan, *rendered], layout.pages)
    plan_id = hashlib.blake2b(plan, digest_size=20).hexdigest()
    page_ids = [ids[source - 1][index] if source else ("plan", plan_id, index) for source, index in layout.pages]
    return assembler.assemble(KIT_FILE, [plan, *rendered], layout.pages, page_ids)


def _page_ids(components: Sequence[Component], fingerprints: Sequence[str], keys: Sequence[list[str]],
              cache: RenderCache) -> list[Sequence[Hashable]]:
    """What each page of each component PDF shows, for kit.pdf's assembly: its page key, unless its
    PDF had font subsets named apart (then a page's bytes depend on the other pages: the PDF's own
    fingerprint is part of it)."""
    if cache.assembler is None:
        return []
    return [page_keys if not cache.renamed.get(f"{safe_name(component.name)}.pdf", True)
            else [(fingerprint, index) for index in range(len(page_keys))]
            for component, fingerprint, page_keys in zip(components, fingerprints, keys, strict=True)]


def _digest(value: object) -> str:
    return hashlib.blake2b(repr(value).encode("utf-8"), digest_size=20).hexdigest()


class RenderCache:
    """Files drawn in this process, by name, with the fingerprint of what each was drawn from (its pages'
    keys, `PageCache.key`), and the pages themselves (`pages`): `duelkit watch` keeps one for its whole
    run, so a rebuild draws only the pages that changed and assembles only the files that changed.
    `keep=False`: files are not remembered (a build), pages only within the build."""

    def __init__(self, keep: bool = True, pages: PageCache | None = None) -> None:
        self.keep = keep
        self.pages = pages or PageCache()
        self.entries: dict[str, tuple[str, bytes]] = {}
        self.drawn: list[str] = []  # the files drawn since `start`
        # the PDFs assembled, kept open so the next rebuild copies in only the pages that changed
        self.assembler: Assembler | None = None
        if keep:
            from toolkit.render.assemble import Assembler

            self.assembler = Assembler()
        self.renamed: dict[str, bool] = {}  # component PDFs by name: whether font subsets were named apart
        self.plan: tuple[str, bytes] | None = None  # kit.pdf's print plan drawn last, by its pages' keys

    def start(self) -> None:
        self.drawn = []
        self.pages.start()

    def known(self, name: str, fingerprint: str) -> bool:
        """Whether `get` has the file made from these pages."""
        found = self.entries.get(name)
        return found is not None and found[0] == fingerprint

    def get(self, name: str, fingerprint: str, render: Callable[[], bytes]) -> bytes:
        """The bytes made last time from the same pages, or `render()` (remembered)."""
        known = self.entries.get(name)
        if known is not None and known[0] == fingerprint:
            return known[1]
        data = render()
        if self.keep:
            self.entries[name] = (fingerprint, data)
        self.drawn.append(name)
        return data


def _pdf(title: str, pages: list[Page], keys: list[str], cache: RenderCache, name: str) -> bytes:
    """A component's PDF: its pages, each drawn alone (or found in the cache), assembled in order."""
    if not pages:
        return render_pdf(Document(title, []), shared_fonts=True)
    pdf, cache.renamed[name] = join_pages(cache.pages.get_all(keys, pages), title)
    return pdf


def _svg(page: Page, slug: str) -> bytes:
    from toolkit.render.svg import render_svg  # here: svgwrite's import is a tenth of a PDF-only build

    return render_svg(page, slug).encode("utf-8")


def document_title(game: str, part: str) -> str:
    """'Game: part', without naming the game twice when the part's title already starts with it."""
    return part if part.casefold().startswith(game.casefold()) else f"{game}: {part}"


def _add_once(files: dict[str, bytes], name: str, data: bytes) -> None:
    """Piece names are namespaced by kind (`schematic-<id>`, `back-schematic`); should two ever meet
    anyway, stop rather than let one silently replace the other."""
    if name in files:
        raise DuelkitError(f"two pieces of the kit would both be written as '{name}'; rename one of them")
    files[name] = data
