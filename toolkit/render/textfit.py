"""Fit text in a box: wrap at word boundaries, then shrink down to a floor, then report the overflow."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from toolkit.render.fonts import MEASURED, printable, text_width
from toolkit.render.scene import PT_TO_MM, Anchor, FontName, Text

LEADING = 1.18
ELLIPSIS = "…"


@dataclass(frozen=True)
class Fitted:
    lines: tuple[str, ...]
    size: float  # points
    overflow: bool  # True when even the floor size could not hold the whole text (it was cut short)

    def line_height(self) -> float:
        return self.size * PT_TO_MM * LEADING


def wrap(text: str, width: float, font: FontName, size: float, first_width: float | None = None) -> list[str]:
    """Greedy word wrap; explicit newlines are kept; a word wider than the box is broken by characters.
    `first_width` shortens the first line (text run in after a label); a first word that does not fit
    there starts on the second line, leaving the first empty."""
    lines: list[str] = []
    room = width if first_width is None else first_width
    for paragraph in text.split("\n"):
        current = ""
        for word in paragraph.split():
            candidate = f"{current} {word}" if current else word
            if text_width(candidate, font, size) <= room:
                current = candidate
                continue
            if current or (room < width and not lines):
                lines.append(current)
                room = width
            while text_width(word, font, size) > room and len(word) > 1:
                cut = len(word) - 1
                while cut > 1 and text_width(word[:cut], font, size) > room:
                    cut -= 1
                lines.append(word[:cut])
                room = width
                word = word[cut:]
            current = word
        lines.append(current)
        room = width
    return lines


def fit_text(text: str, width: float, height: float, font: FontName = "regular", size: float = 8.0,
             min_size: float = 5.0, step: float = 0.5) -> Fitted:
    text = printable(text, font)
    current = size
    while True:
        lines = wrap(text, width, font, current)
        if len(lines) * current * PT_TO_MM * LEADING <= height + 1e-6:
            return Fitted(tuple(lines), current, False)
        if current - step < min_size - 1e-6:
            break
        current -= step
    keep = max(1, int(height // (current * PT_TO_MM * LEADING)))
    kept = lines[:keep]
    last = kept[-1]
    while last and text_width(last + ELLIPSIS, font, current) > width:
        last = last[:-1]
    kept[-1] = last.rstrip() + ELLIPSIS
    return Fitted(tuple(kept), current, True)


def text_lines(fitted: Fitted, x: float, y: float, font: FontName = "regular", color: str = "#000000",
               anchor: Anchor = "start") -> list[Text]:
    """Text items for a fitted block whose top edge is at y."""
    line_height = fitted.line_height()
    ascent = fitted.size * PT_TO_MM * 0.8
    return [Text(x, y + ascent + i * line_height, line, fitted.size, font, color, anchor)
            for i, line in enumerate(fitted.lines)]


def fit_line(text: str, width: float, font: FontName, size: float, min_size: float) -> Fitted:
    """A single line: shrink to fit, then cut with an ellipsis (cached: a deck fits the same moves and values
    in the same columns again and again; forgotten when the fallback fonts change, `fonts.MEASURED`)."""
    return _fit_line(text, width, font, size, min_size)


@lru_cache(maxsize=16384)
def _fit_line(text: str, width: float, font: FontName, size: float, min_size: float) -> Fitted:
    text = printable(text, font)
    current = size
    while text_width(text, font, current) > width and current - 0.5 >= min_size:
        current -= 0.5
    if text_width(text, font, current) <= width:
        return Fitted((text,), current, False)
    while text and text_width(text + ELLIPSIS, font, current) > width:
        text = text[:-1]
    return Fitted((text.rstrip() + ELLIPSIS,), current, True)


MEASURED.append(_fit_line.cache_clear)
