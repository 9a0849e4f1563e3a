"""Print-on-demand presets (`export pod|png --service S`): each service's card sizes, bleed, safe zone,
resolution and side order, and the one way a kit card is fitted to them.

The numbers and where they come from are listed in DESIGN.md ("Print-on-demand presets"). A kit card is
drawn at its own size with 3 mm of bleed and its frame 3 mm inside the trim; `fit_card` scales it
uniformly about its centre so that everything inside that frame lands inside the service's safe zone,
then extends the background to the service's bleed by mirroring the art's edge (`with_bleed`).
"""

from __future__ import annotations

from dataclasses import dataclass

from toolkit.errors import DuelkitError
from toolkit.export.bleed import with_bleed
from toolkit.export.pieces import KIT_BLEED, Deck
from toolkit.render.impose import SAFE_ZONE
from toolkit.render.scene import Group, Page, Rect, Text, texts_in

INCH = 25.4
SAFE_MARGIN = 0.05  # mm the kit's safe area is kept inside the service's, so a half-stroke never touches it
SIZE_TOLERANCE = 1.5  # mm: a kit card this close to a service size in both directions is printed at it


@dataclass(frozen=True)
class CardSize:
    name: str  # poker, tarot
    width: float  # trim, mm
    height: float


@dataclass(frozen=True)
class Service:
    id: str
    name: str
    bleed: float  # mm on each side of the trim
    safe: float  # mm inside the trim that important content keeps clear of
    dpi: int
    order: str  # "front-back" or "back-front": the side order of a deck PDF
    sizes: tuple[CardSize, ...]

    def size_for(self, deck: Deck) -> CardSize:
        """The service's card size a deck prints at; a deck of no size it sells is a DuelkitError."""
        for size in self.sizes:
            if abs(size.width - deck.width) <= SIZE_TOLERANCE and abs(size.height - deck.height) <= SIZE_TOLERANCE:
                return size
        offered = ", ".join(f"{s.name} {s.width:g} x {s.height:g} mm" for s in self.sizes)
        raise DuelkitError(f"{self.name} has no card size for the {deck.name} cards ({deck.width:g} x "
                           f"{deck.height:g} mm); its presets are {offered}")

    def pixels(self, size: CardSize) -> tuple[int, int]:
        """The image size the service asks for: trim plus bleed at its resolution."""
        return (round((size.width + 2 * self.bleed) / INCH * self.dpi),
                round((size.height + 2 * self.bleed) / INCH * self.dpi))


POKER = CardSize("poker", 2.5 * INCH, 3.5 * INCH)  # 63.5 x 88.9 mm
TAROT = CardSize("tarot", 2.75 * INCH, 4.75 * INCH)  # 69.85 x 120.65 mm

SERVICES: dict[str, Service] = {
    # 1/8 in bleed, nothing important within 1/8 in of the cut, 300 dpi, CMYK at most 240% ink,
    # PDF/X-1a:2003, one PDF per deck whose first page is card 1's back, then its front.
    "drivethrucards": Service("drivethrucards", "DriveThruCards", INCH / 8, INCH / 8, 300, "back-front",
                              (POKER, TAROT)),
    # images of 825 x 1125 px (poker) and 900 x 1500 px (tarot) at 300 dpi: 1/8 in bleed; safe zone
    # 1/8 in inside the trim (675 x 975 px on poker).
    "thegamecrafter": Service("thegamecrafter", "The Game Crafter", INCH / 8, INCH / 8, 300, "front-back",
                              (POKER, TAROT)),
    # images of 822 x 1122 px (poker) at 300 dpi: 36 px (3.048 mm) of bleed; the same bleed around
    # tarot (897 x 1497 px); safe zone taken as 1/8 in inside the trim.
    "makeplayingcards": Service("makeplayingcards", "MakePlayingCards", 36 / 300 * INCH, INCH / 8, 300,
                                "front-back", (POKER, TAROT)),
}


def service_named(name: str) -> Service:
    try:
        return SERVICES[name]
    except KeyError:
        raise DuelkitError(f"unknown print service '{name}'; known: {', '.join(SERVICES)}") from None


def fit_scale(card_w: float, card_h: float, size: CardSize, service: Service) -> float:
    """How much a kit card is scaled so that its safe area (SAFE_ZONE inside its trim) fits inside the
    service's safe zone: the largest such scale, uniform, so nothing is distorted."""
    room = service.safe + SAFE_MARGIN - SAFE_ZONE  # how far the kit's safe area must move in, at most
    return min((size.width - 2 * SAFE_ZONE - 2 * room) / (card_w - 2 * SAFE_ZONE),
               (size.height - 2 * SAFE_ZONE - 2 * room) / (card_h - 2 * SAFE_ZONE))


def fit_card(piece: Page, size: CardSize, service: Service) -> Page:
    """A kit card piece (drawn with KIT_BLEED) at the service's trim and bleed: scaled about its centre
    by `fit_scale`, its background extended into the service's bleed by mirroring."""
    card_w, card_h = piece.width - 2 * KIT_BLEED, piece.height - 2 * KIT_BLEED
    scale = fit_scale(card_w, card_h, size, service)
    # the scaled art reaches `reach` mm past the new trim on its tighter side: an intermediate piece with
    # that much bleed, which `with_bleed` then extends (or cuts) to the service's bleed
    reach = min((piece.width * scale - size.width) / 2, (piece.height * scale - size.height) / 2)
    if reach <= 0:
        raise DuelkitError(f"a {card_w:g} x {card_h:g} mm card cannot be fitted to {service.name}'s "
                           f"{size.name} size")
    width, height = size.width + 2 * reach, size.height + 2 * reach
    art = Group(tuple(piece.items), dx=(width - piece.width * scale) / 2, dy=(height - piece.height * scale) / 2,
                scale=scale)
    fitted = Page(width, height, [Group((art,), clip=Rect(0, 0, width, height))], label=piece.label)
    return with_bleed(fitted, reach, service.bleed)


def smallest_fitted_text(deck: Deck, service: Service) -> float | None:
    """The smallest text (pt) of a deck once fitted to the service: what the text-fit notes report."""
    size = service.size_for(deck)
    scale = fit_scale(deck.width, deck.height, size, service)
    sizes = [text.size * scale for card in (*deck.cards, deck.back) for text in texts_in(card.page.items)
             if isinstance(text, Text) and text.text.strip()]
    return min(sizes) if sizes else None
