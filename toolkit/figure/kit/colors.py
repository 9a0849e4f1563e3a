"""The Data Disk's segment colours on paper: each with its ink and its letter (W/G/P/B/R) for greyscale."""

from __future__ import annotations

from toolkit.figure.model import Color
from toolkit.kit.palette import Swatch

SEGMENT: dict[Color, Swatch] = {
    Color.WHITE: Swatch("#f2f2f2", "#111111", "W"),
    Color.GOLD: Swatch("#e5b82a", "#111111", "G"),
    Color.PURPLE: Swatch("#7d3c98", "#ffffff", "P"),
    Color.BLUE: Swatch("#2471c8", "#ffffff", "B"),
    Color.RED: Swatch("#c0392b", "#ffffff", "R"),
}
# The one order the kit lists colours in (spinner legends, the print test's swatches): the damage colours
# first. The combat matrix keeps Table 2.1's order, which is `Color`'s own.
LEGEND_ORDER: tuple[Color, ...] = tuple(SEGMENT)
