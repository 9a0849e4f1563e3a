"""A build that keeps nothing tells its pages apart by what they are made of (`PageCache(by_identity=True)`),
without hashing their content: a deck's backs are still drawn once, and the files are those that content
keys give."""

from __future__ import annotations

from toolkit.kit.component import Component
from toolkit.kit.files import RenderCache, kit_files
from toolkit.render.page_cache import PageCache
from toolkit.render.scene import Group, Line, Page, Rect, Text


def _deck() -> list[Page]:
    back = (Rect(0, 0, 40, 60), Text(20, 30, "back", 9, "bold", anchor="middle"))  # one laid-out back
    fronts = [(Rect(0, 0, 40, 60), Text(5, 10, f"card {n}", 9)) for n in range(4)]
    marks = [Line(1, 0, 1, 3), Line(1.0, 0, 1, 3)]  # equal, but written 1 and 1.0
    pages = []
    for first in (0, 2):
        pages.append(Page(100, 100, [Group(fronts[first], 5, 5), Group(fronts[first + 1], 50, 5), marks[0]]))
        pages.append(Page(100, 100, [Group(back, 5, 5), Group(back, 50, 5), marks[0]]))
    pages.append(Page(100, 100, [Group(back, 5, 5), Group(back, 50, 5), marks[1]]))
    return pages


def test_pages_of_the_same_placed_items_are_drawn_once() -> None:
    cache = PageCache(by_identity=True)
    pages = _deck()
    keys = [cache.key(page) for page in pages]
    assert keys[1] == keys[3]  # two back sheets: the same groups of the same laid-out back
    assert len(set(keys)) == 4  # the fronts differ; a mark written 1.0 is another page (as its content key)
    cache.get_all(keys, pages)
    assert cache.drawn == 4


def test_a_build_keeping_nothing_writes_what_content_keys_write() -> None:
    parts = [Component("cards", "Cards", pages=_deck())]
    by_identity = RenderCache(keep=False, pages=PageCache(by_identity=True))
    assert kit_files(parts, "Game", svg=False, cache=by_identity) == kit_files(parts, "Game", svg=False)
