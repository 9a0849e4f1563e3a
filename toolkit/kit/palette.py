"""Colours of the printed kit. Segment colours always travel with a letter, so greyscale prints work."""

from __future__ import annotations

from dataclasses import dataclass

from toolkit.figure.model import Color


@dataclass(frozen=True)
class Swatch:
    fill: str
    ink: str  # text colour on the fill
    letter: str


SEGMENT: dict[Color, Swatch] = {
    Color.WHITE: Swatch("#f2f2f2", "#111111", "W"),
    Color.GOLD: Swatch("#e5b82a", "#111111", "G"),
    Color.PURPLE: Swatch("#7d3c98", "#ffffff", "P"),
    Color.BLUE: Swatch("#2471c8", "#ffffff", "B"),
    Color.RED: Swatch("#c0392b", "#ffffff", "R"),
}

# Two team colours far apart in lightness, so they stay distinct on a black-and-white printer.
TEAM: dict[str, Swatch] = {
    "A": Swatch("#1b3a7a", "#ffffff", "A"),
    "B": Swatch("#f4c542", "#111111", "B"),
}

INK = "#111111"
MUTED = "#666666"
RULE = "#bbbbbb"
PAPER = "#ffffff"
CARD_FACE = "#fbfaf6"
ACCENT = "#2d3e50"
