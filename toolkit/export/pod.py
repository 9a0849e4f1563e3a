"""`duelkit export pod`: one print-on-demand PDF per deck, one card per page at trim plus bleed, with
TrimBox and BleedBox, fronts and backs in the order the service asks for, optionally in CMYK (PDF/X-1a).
With a service preset (`services.py`) every card is fitted to the service's size and safe zone."""

from __future__ import annotations

from typing import Literal

from toolkit.export.bleed import with_bleed
from toolkit.export.pieces import KIT_BLEED, Card, Deck, ExportSet
from toolkit.export.services import Service, fit_card, fit_scale
from toolkit.render.pdf import render_pdf
from toolkit.render.scene import Document, Page, reusable

Order = Literal["front-back", "back-front"]


def card_page(card: Card, deck: Deck, bleed: float, service: Service | None) -> Page:
    """One card side at the requested bleed, or at the service's size and bleed."""
    if service is None:
        return with_bleed(card.page, KIT_BLEED, bleed)
    return fit_card(card.page, service.size_for(deck), service)


def deck_pages(deck: Deck, bleed: float, order: Order, service: Service | None = None) -> list[Page]:
    """Each card's two sides, in `order`; the shared back is stored once in the PDF."""
    back = card_page(deck.back, deck, bleed, service)
    back = Page(back.width, back.height, [reusable(back.items)], label=back.label)
    pages: list[Page] = []
    for card in deck.cards:
        front = card_page(card, deck, bleed, service)
        pages += [front, back] if order == "front-back" else [back, front]
    return pages


def pod_files(export: ExportSet, title: str, bleed: float, order: Order, cmyk: bool,
              service: Service | None = None) -> dict[str, bytes]:
    """`<kind>.pdf` for every deck (schematic.pdf, module.pdf, action-a.pdf, ...). A service sets the
    bleed, the side order and CMYK (PDF/X-1a:2003)."""
    if service is not None:
        bleed, order, cmyk = service.bleed, service.order, True  # type: ignore[assignment]
    return {f"{deck.name}.pdf": render_pdf(Document(f"{title}: {deck.name} cards",
                                                    deck_pages(deck, bleed, order, service)),
                                           bleed=bleed, cmyk=cmyk)
            for deck in export.decks if deck.cards}


def fit_notes(export: ExportSet, service: Service) -> list[str]:
    """What fitting did to each deck, in words: its size, the scale, the smallest text it now prints."""
    from toolkit.export.services import smallest_fitted_text

    notes = []
    for deck in export.decks:
        if not deck.cards:
            continue
        size = service.size_for(deck)
        scale = fit_scale(deck.width, deck.height, size, service)
        smallest = smallest_fitted_text(deck, service)
        from toolkit.preflight import MIN_TYPE

        text = f", smallest text {smallest:.1f} pt" if smallest is not None else ""
        if smallest is not None and smallest < MIN_TYPE:
            text += f" (under the {MIN_TYPE:g} pt a print shop's preflight accepts: shorten that text)"
        notes.append(f"{deck.name} cards: {service.name} {size.name} ({size.width:g} x {size.height:g} mm, "
                     f"{service.bleed:.3g} mm bleed), drawn at {scale:.1%} to keep {service.safe:.3g} mm clear{text}")
        notes += coarse_pictures(deck, scale)
    return notes


def coarse_pictures(deck: Deck, scale: float) -> list[str]:
    """Pictures finer than 300 ppi only after resampling (which adds no detail): said, once per card."""
    import io

    from PIL import Image as PILImage

    from toolkit.render.pdfx import MIN_PPI, MM_PER_INCH
    from toolkit.render.scene import Group, Image, Reuse, Shape

    def images(items: list[Shape] | tuple[Shape, ...]) -> list[Image]:
        found: list[Image] = []
        for item in items:
            if isinstance(item, Image):
                found.append(item)
            elif isinstance(item, (Group, Reuse)):
                found += images(item.items)
        return found

    notes = []
    for card in (*deck.cards, deck.back):
        for picture in images(card.page.items):
            with PILImage.open(io.BytesIO(picture.data)) as opened:
                width, height = opened.size
            ppi = min(width / (picture.w * scale / MM_PER_INCH), height / (picture.h * scale / MM_PER_INCH))
            if ppi < MIN_PPI:
                notes.append(f"{card.slug}: its picture is {ppi:.0f} ppi at its printed size, resampled to "
                             f"{MIN_PPI:.0f}+ ppi (no new detail: give art of {MIN_PPI:.0f} ppi or more)")
                break
    return notes
