"""The manual's building blocks: paragraphs, lists, tables, drawn figures, sections (data only, so the
HTML and PDF renderers and the teaching pages share them without importing each other)."""

from __future__ import annotations

from dataclasses import dataclass

from toolkit.render.scene import Page


@dataclass(frozen=True)
class Para:
    text: str


@dataclass(frozen=True)
class Bullets:
    items: tuple[str, ...]
    ordered: bool = False


@dataclass(frozen=True)
class Table:
    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    classes: tuple[tuple[str, ...], ...] = ()  # a CSS-like class per cell ("att", "def", "draw", "cmp")
    row_headers: bool = False
    compact: bool = False
    widths: tuple[float, ...] = ()  # each column's share of the width (PDF); empty: the renderer decides


@dataclass(frozen=True)
class Figure:
    page: Page  # a small scene, drawn inline (SVG in HTML, vector in PDF)
    caption: str


Block = Para | Bullets | Table | Figure


@dataclass(frozen=True)
class Section:
    id: str
    title: str
    blocks: tuple[Block, ...]


@dataclass(frozen=True)
class Manual:
    theme_id: str
    title: str
    subtitle: str
    sections: tuple[Section, ...]
    quick: tuple[Section, ...]  # the quick-reference card
