"""Spinners write the 1-96 ranges exactly as the schematic card's table does, so a player reads one number
format across the kit."""

from __future__ import annotations

import re

from toolkit.figure.database import find_datasets, load_database
from toolkit.figure.kit.context import KitContext
from toolkit.figure.kit.schematics import build_schematics
from toolkit.figure.kit.spinners import build_spinners
from toolkit.render.scene import Group, Page, Shape, Text

RANGE = re.compile(r"\d+–\d+")


def strings(items: list[Shape] | tuple[Shape, ...]) -> list[str]:
    found: list[str] = []
    for item in items:
        if isinstance(item, Group):
            found += strings(item.items)
        elif isinstance(item, Text):
            found.append(item.text)
    return found


def ranges_written(page: Page) -> list[str]:
    return [text for text in strings(page.items) if RANGE.fullmatch(text)]


def test_spinner_and_card_write_the_same_ranges() -> None:
    dataset = next(d for d in find_datasets(None)[0] if d.theme_id == "duel-protocol")
    ctx = KitContext(load_database(dataset), "a4")
    unit = next(u for u in ctx.units() if len(u.disk) >= 4 and min(s.size for s in u.disk) >= 8)
    expected, start = [], 1
    for segment in unit.disk:  # by hand: the first segment covers 1..size, an en dash between the ends
        expected.append(f"{start}–{start + segment.size - 1}")
        start += segment.size
    spinner = dict(build_spinners(ctx).pieces)[f"spinner-{unit.id}"]
    card = dict(build_schematics(ctx).pieces)[f"schematic-{unit.id}"]
    assert ranges_written(card) == expected
    assert sorted(ranges_written(spinner)) == sorted(expected)
    assert not [t for t in strings(spinner.items) if re.fullmatch(r"0\d.*", t)]  # no "01-24" padding
