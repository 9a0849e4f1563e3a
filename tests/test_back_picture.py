"""A card back's picture is fitted, never cropped (issue 26): the whole picture lies inside the trim."""

from __future__ import annotations

import pytest

from toolkit.kit.cards import POKER, SCHEMATIC, card_back
from toolkit.pictures import Art, BackLook
from toolkit.render.impose import BLEED
from toolkit.render.scene import Image, Rect


@pytest.mark.parametrize("size", [POKER, SCHEMATIC])
@pytest.mark.parametrize("pixels", [(400, 600), (1200, 400), (300, 300)])
def test_the_whole_back_picture_is_inside_the_trim_on_the_back_colour(size, pixels) -> None:
    width, height = size
    art = Art(b"\x89PNG", "png", *pixels)
    items = card_back(width, height, "Game", "Card", look=BackLook(image=art, color="#224466"))
    picture = next(item for item in items if isinstance(item, Image))
    assert picture.x >= -1e-9
    assert picture.y >= -1e-9
    assert picture.x + picture.w <= width + 1e-9
    assert picture.y + picture.h <= height + 1e-9
    assert picture.w / picture.h == pytest.approx(pixels[0] / pixels[1])  # not stretched
    assert max(picture.w / width, picture.h / height) == pytest.approx(1.0)  # as large as fits
    background = items[0]
    assert isinstance(background, Rect)
    assert background.style.fill == "#224466"
    assert (background.x, background.w) == pytest.approx((-BLEED, width + 2 * BLEED))
