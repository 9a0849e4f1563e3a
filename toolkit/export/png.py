"""`duelkit export png`: one PNG per card face and back (with bleed), board, mat and token."""

from __future__ import annotations

from toolkit.errors import DuelkitError
from toolkit.export.bleed import with_bleed
from toolkit.export.pieces import KIT_BLEED, ExportSet, Piece
from toolkit.export.raster import png_bytes, rasterise
from toolkit.export.services import Service, fit_card


def png_files(export: ExportSet, dpi: float, bleed: float, service: Service | None = None) -> dict[str, bytes]:
    """`<kind>-<id>.png` for every card, `back-<kind>.png` for every deck's back, and `<slug>.png` for the
    board, mats and tokens (round tokens transparent outside the disc). A service preset draws each card
    at the service's pixel size (its trim and bleed at its resolution) inside its safe zone."""
    files: dict[str, bytes] = {}
    for deck in export.decks:
        cards = [*deck.cards, deck.back]
        if service is None:
            pages = [with_bleed(card.page, KIT_BLEED, bleed) for card in cards]
            images = rasterise(pages, dpi)
        else:
            size = service.size_for(deck)
            images = rasterise([fit_card(card.page, size, service) for card in cards], service.dpi,
                               exact=service.pixels(size))
        for card, image in zip(cards, images, strict=True):
            _add(files, f"{card.slug}.png", png_bytes(image, service.dpi if service else dpi))
    for transparent in (False, True):
        pieces: list[Piece] = [piece for piece in export.pieces if piece.round == transparent]
        images = rasterise([piece.page for piece in pieces], service.dpi if service else dpi, transparent=transparent)
        for piece, image in zip(pieces, images, strict=True):
            _add(files, f"{piece.slug}.png", png_bytes(image, service.dpi if service else dpi))
    return files


def _add(files: dict[str, bytes], name: str, data: bytes) -> None:
    if name in files:
        raise DuelkitError(f"two pieces would both be written as '{name}'; rename one of them")
    files[name] = data
