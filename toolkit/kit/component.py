"""What every kit generator returns: imposed pages for the PDF, unimposed pieces for SVG, and warnings."""

from __future__ import annotations

from dataclasses import dataclass, field

from toolkit.problems import Problem
from toolkit.render.scene import Page, Shape


@dataclass
class Component:
    """One component group: imposed pages for the PDF, and unimposed pieces for SVG editing."""

    name: str  # file-name slug: board, tokens, schematics, ...
    title: str
    pages: list[Page] = field(default_factory=list)
    pieces: list[tuple[str, Page]] = field(default_factory=list)  # (slug, page) one SVG each
    warnings: list[Problem] = field(default_factory=list)
    # (front art, back art) of each card, when the component is a deck: lets a kit pack several decks
    # of one card size onto shared sheets
    deck: list[tuple[list[Shape], list[Shape]]] = field(default_factory=list)
