"""Colours of the printed kits, shared by every game. A colour that carries meaning travels with a letter,
so greyscale prints work."""

from __future__ import annotations

from dataclasses import dataclass

from toolkit.players import Player


@dataclass(frozen=True)
class Swatch:
    fill: str
    ink: str  # text colour on the fill
    letter: str


# Two team colours far apart in lightness, so they stay distinct on a black-and-white printer.
TEAM: dict[Player, Swatch] = {
    Player.A: Swatch("#1b3a7a", "#ffffff", "A"),
    Player.B: Swatch("#f4c542", "#111111", "B"),
}

INK = "#111111"
MUTED = "#666666"
RULE = "#bbbbbb"
PAPER = "#ffffff"
CARD_FACE = "#fbfaf6"
ACCENT = "#2d3e50"
