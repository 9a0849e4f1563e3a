"""`duelkit export pod`: one print-on-demand PDF per deck, one card per page at trim plus bleed, with
TrimBox and BleedBox, fronts and backs in the order the service asks for, optionally in CMYK."""

from __future__ import annotations

from typing import Literal

from toolkit.export.bleed import with_bleed
from toolkit.export.pieces import KIT_BLEED, Deck, ExportSet
from toolkit.render.pdf import render_pdf
from toolkit.render.scene import Document, Page, reusable

Order = Literal["front-back", "back-front"]


def deck_pages(deck: Deck, bleed: float, order: Order) -> list[Page]:
    """Each card's two sides, in `order`; the shared back is stored once in the PDF."""
    back = with_bleed(deck.back.page, KIT_BLEED, bleed)
    back = Page(back.width, back.height, [reusable(back.items)], label=back.label)
    pages: list[Page] = []
    for card in deck.cards:
        front = with_bleed(card.page, KIT_BLEED, bleed)
        pages += [front, back] if order == "front-back" else [back, front]
    return pages


def pod_files(export: ExportSet, title: str, bleed: float, order: Order, cmyk: bool) -> dict[str, bytes]:
    """`<kind>.pdf` for every deck (schematic.pdf, module.pdf, action-a.pdf, ...)."""
    return {f"{deck.name}.pdf": render_pdf(Document(f"{title}: {deck.name} cards", deck_pages(deck, bleed, order)),
                                           bleed=bleed, cmyk=cmyk)
            for deck in export.decks if deck.cards}
