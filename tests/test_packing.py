"""Sheets holding a single card are avoided where packing allows (issue 26): between layouts that need as
few sheets, the one without a lone card on its last sheet."""

from __future__ import annotations

import math

import pytest

from toolkit.render.impose import card_grid

POKER = (63.5, 88.9)


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("count", range(1, 40))
def test_fewest_sheets_and_no_lone_card_when_another_layout_needs_as_few(paper: str, count: int) -> None:
    chosen = card_grid(paper, *POKER, count=count)
    options = {card_grid(paper, *POKER).per_sheet, card_grid(paper, *POKER[::-1]).per_sheet, chosen.per_sheet}
    fewest = min(math.ceil(count / per) for per in options)
    sheets = math.ceil(count / chosen.per_sheet)
    assert sheets == fewest
    lone = sheets > 1 and count % chosen.per_sheet == 1
    if lone:  # only when no layout with as few sheets avoids it
        for per in options:
            assert math.ceil(count / per) > sheets or count % per == 1


def test_seven_poker_cards_on_letter_go_four_and_three() -> None:
    grid = card_grid("letter", *POKER, count=7)
    assert (grid.per_sheet, grid.rotated) == (4, False)
    assert card_grid("letter", *POKER).per_sheet == 6  # without the count: the most a sheet, as before
