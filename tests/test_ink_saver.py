"""`--ink saver` reaches every component (issue 26): no large area of strong colour is left, and words that
sat white on one turn dark."""

from __future__ import annotations

import pytest

from toolkit.figure.database import bundled_dataset, load_database
from toolkit.figure.kit.build import build_components
from toolkit.kit.ink import LARGE_AREA, _area, _compose, _pale, ink_saver_page
from toolkit.kit.options import PrintOptions
from toolkit.paths import bundled_root
from toolkit.render.scene import Group, Page, Rect, Reuse, Shape, Style, Text, filled


def _strong_fills(items: list[Shape] | tuple[Shape, ...], matrix=(1.0, 0.0, 0.0, 1.0, 0.0, 0.0)) -> list[Shape]:
    found: list[Shape] = []
    for item in items:
        if isinstance(item, Group):
            found += _strong_fills(item.items, _compose(matrix, item))
        elif isinstance(item, Reuse):
            found += _strong_fills(item.items, matrix)
        else:
            style = getattr(item, "style", None)
            scale = abs(matrix[0] * matrix[3] - matrix[1] * matrix[2])
            if isinstance(style, Style) and style.fill and not _pale(style.fill) and _area(item) * scale >= LARGE_AREA:
                found.append(item)
    return found


@pytest.fixture(scope="module")
def components():
    database = load_database(bundled_dataset(bundled_root(), "duel-protocol"))
    full = {c.name: c for c in build_components(database, "a4")}
    saver = {c.name: c for c in build_components(database, "a4", PrintOptions(ink="saver"))}
    return full, saver


def test_every_component_but_the_print_test_saves_ink(components) -> None:
    full, saver = components
    for name in ("tokens", "spinners", "modules", "board", "schematics", "squads"):
        assert any(_strong_fills(page.items) for page in full[name].pages), name  # there was colour to save
        assert not any(_strong_fills(page.items) for page in saver[name].pages), name
    assert any(_strong_fills(page.items) for page in saver["print-test"].pages)  # shows the colours as printed


def test_white_words_on_a_tinted_area_turn_dark_but_not_on_a_small_badge() -> None:
    page = Page(100, 100, [Rect(0, 0, 50, 20, filled("#1b3a7a")), Rect(2, 2, 6, 6, filled("#1b3a7a")),
                           Text(25, 12, "header", 9, "bold", "#ffffff", "middle"),
                           Text(5, 6, "A", 6, "bold", "#ffffff", "middle")])
    saved = ink_saver_page(page)
    header, badge = saved.items[0], saved.items[1]
    assert isinstance(header, Rect)
    assert _pale(header.style.fill or "#000000")
    assert isinstance(badge, Rect)
    assert badge.style.fill == "#1b3a7a"
    words = {item.text: item.color for item in saved.items if isinstance(item, Text)}
    assert words["header"] != "#ffffff"
    assert words["A"] == "#ffffff"
