"""Facts measured from laid-out pages (never typed): what the print test tells the user about the kit."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from toolkit.render.scene import Group, Page, Reuse, Shape, Text


def _texts(items: Iterable[Shape]) -> Iterator[Text]:
    for item in items:
        if isinstance(item, Text):
            yield item
        elif isinstance(item, (Group, Reuse)):  # scene groups move and turn, they never scale
            yield from _texts(item.items)


def smallest_text(pages: Iterable[Page]) -> float | None:
    """The smallest text size (pt) printed on these pages, or None when they hold no text."""
    sizes = [text.size for page in pages for text in _texts(page.items) if text.text.strip()]
    return min(sizes) if sizes else None
