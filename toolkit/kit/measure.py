"""Facts measured from laid-out pages (never typed): what the print test tells the user about the kit."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import partial

from toolkit.kit.memo import computed_for, computed_for_items
from toolkit.render.scene import Group, Page, Reuse, Shape, Text


def smallest_text(pages: Iterable[Page]) -> float | None:
    """The smallest text size (pt) printed on these pages, or None when they hold no text."""
    sizes = [size for page in pages
             if (size := computed_for_items("smallest_text", page.items, partial(_smallest, page.items))) is not None]
    return min(sizes) if sizes else None


def _smallest(items: Sequence[Shape]) -> float | None:
    """Through groups and forms; a group's items (a laid-out card, placed on a sheet again at each watch
    rebuild) are measured once per watch (`computed_for`)."""
    found: float | None = None
    for item in items:
        if isinstance(item, Text):
            size = item.size if item.text.strip() else None
        elif isinstance(item, (Group, Reuse)):
            size = computed_for("smallest_text", item.items, partial(_smallest, item.items))
        else:
            continue
        if size is not None and (found is None or size < found):
            found = size
    return found
