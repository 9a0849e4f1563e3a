"""What a game hands the exports: its card decks (one back per deck) and its other pieces (board, mats,
tokens), each a vector `Page` drawn in millimetres."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from toolkit.kit.component import Component
from toolkit.problems import Problem
from toolkit.render.impose import BLEED
from toolkit.render.scene import Page

KIT_BLEED = BLEED  # the bleed every card piece of a kit is drawn with (`card_piece`)
PieceKind = Literal["board", "mat", "token"]


@dataclass(frozen=True)
class Card:
    slug: str  # `<kind>-<id>`, as the SVG pieces are named
    title: str
    page: Page  # the card with KIT_BLEED around its trim


@dataclass(frozen=True)
class Deck:
    """Cards that share one back: one print-on-demand PDF, one Tabletop Simulator deck."""

    name: str  # the card kind: schematic, module, action-a, technique, role
    cards: tuple[Card, ...]
    back: Card  # slug `back-<kind>`

    @property
    def width(self) -> float:
        """Trim width, mm."""
        return self.back.page.width - 2 * KIT_BLEED

    @property
    def height(self) -> float:
        return self.back.page.height - 2 * KIT_BLEED


@dataclass(frozen=True)
class Piece:
    """A board, a player mat or a token: drawn to its edges, no bleed."""

    slug: str
    title: str
    page: Page
    kind: PieceKind
    round: bool = False  # cut round: images are transparent outside the disc
    side: str = ""  # the player ("A", "B"), or "" for a shared piece
    color: str = ""  # the player's colour, "#rrggbb"
    copies: int = 1  # how many a game uses (status markers, evade tokens)


@dataclass
class ExportSet:
    """Everything of one game that the exports write."""

    decks: list[Deck] = field(default_factory=list)
    pieces: list[Piece] = field(default_factory=list)
    warnings: list[Problem] = field(default_factory=list)


def decks_of(component: Component) -> list[Deck]:
    """The decks of a card component, read from its pieces: each `back-<kind>` piece closes the deck of
    the `<kind>-<id>` cards before it (the naming every card generator already uses for SVG pieces)."""
    decks: list[Deck] = []
    cards: list[Card] = []
    for slug, page in component.pieces:
        if slug.startswith("back-"):
            kind = slug.removeprefix("back-")
            strays = [card.slug for card in cards if not card.slug.startswith(kind + "-")]
            if strays:
                raise ValueError(f"{component.name}: cards {strays} come before back '{slug}' of another kind")
            decks.append(Deck(kind, tuple(cards), Card(slug, page.label or slug, page)))
            cards = []
        else:
            cards.append(Card(slug, page.label or slug, page))
    if cards:
        raise ValueError(f"{component.name}: cards {[c.slug for c in cards]} have no back piece")
    return decks
