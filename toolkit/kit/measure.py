"""Facts measured from laid-out pages (never typed): what the print test tells the user about the kit."""

from __future__ import annotations

from collections.abc import Iterable

from toolkit.render.scene import Page, texts_in


def smallest_text(pages: Iterable[Page]) -> float | None:
    """The smallest text size (pt) printed on these pages, or None when they hold no text."""
    sizes = [text.size for page in pages for text in texts_in(page.items) if text.text.strip()]
    return min(sizes) if sizes else None
