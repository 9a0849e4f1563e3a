"""A card piece at any bleed: cut down when the requested bleed is smaller than the drawn one, and
extended by mirroring the art's outer edge when it is wider (how print-on-demand tools make bleed), so
a US service's 1/8 in (3.175 mm) works with art drawn to 3 mm."""

from __future__ import annotations

from dataclasses import replace

from toolkit.render.scene import Group, Page, Rect, Reuse, Shape, Text, reusable

MAX_BLEED = 6.35  # mm (1/4 in): beyond this a mirrored edge would show the card's inside


def with_bleed(piece: Page, drawn: float, bleed: float) -> Page:
    """`piece` holds a card with `drawn` mm of bleed; the same card with `bleed` mm instead."""
    if not 0 <= bleed <= MAX_BLEED:
        raise ValueError(f"bleed {bleed} mm is outside 0 to {MAX_BLEED} mm")
    if abs(bleed - drawn) < 1e-9:
        return piece
    trim_w, trim_h = piece.width - 2 * drawn, piece.height - 2 * drawn
    width, height = trim_w + 2 * bleed, trim_h + 2 * bleed
    shift = bleed - drawn  # where the old piece's top-left corner lands
    if bleed <= drawn:
        art = Group(tuple(piece.items), dx=shift, dy=shift)
        return Page(width, height, [Group((art,), clip=Rect(0, 0, width, height))], label=piece.label)
    art_box = Rect(shift, shift, piece.width, piece.height)
    items = tuple(piece.items)
    # the card once, then its background (no text: a mirrored word in the bleed is nothing a reader
    # needs, and a preflight would see its letters past the trim) mirrored up to eight times as one form
    shared: tuple[Shape, ...] = (reusable(without_text(items)),)
    copies: list[Shape] = [Group((reusable(items),), dx=shift, dy=shift)]
    left, top = art_box.x, art_box.y
    right, bottom = art_box.x + art_box.w, art_box.y + art_box.h
    for mirror_x, mirror_y, band in (
        (True, False, Rect(0, top, left, art_box.h)),  # left edge
        (True, False, Rect(right, top, width - right, art_box.h)),  # right edge
        (False, True, Rect(left, 0, art_box.w, top)),  # top edge
        (False, True, Rect(left, bottom, art_box.w, height - bottom)),  # bottom edge
        (True, True, Rect(0, 0, left, top)),  # corners
        (True, True, Rect(right, 0, width - right, top)),
        (True, True, Rect(0, bottom, left, height - bottom)),
        (True, True, Rect(right, bottom, width - right, height - bottom)),
    ):
        # mirror about the art's edge nearest the band: x -> 2 * edge - x
        axis_x = (left if band.x < left else right) if mirror_x else 0.0
        axis_y = (top if band.y < top else bottom) if mirror_y else 0.0
        mirrored = Group(shared, dx=2 * axis_x - shift if mirror_x else shift,
                         dy=2 * axis_y - shift if mirror_y else shift, mirror_x=mirror_x, mirror_y=mirror_y)
        copies.append(Group((mirrored,), clip=band))
    return Page(width, height, copies, label=piece.label)


def without_text(items: tuple[Shape, ...]) -> tuple[Shape, ...]:
    """The same art with every text item left out, inside groups and reused forms too."""
    kept: list[Shape] = []
    for item in items:
        if isinstance(item, Text):
            continue
        if isinstance(item, Group):
            kept.append(replace(item, items=without_text(item.items)))
        elif isinstance(item, Reuse):
            kept.append(reusable(without_text(item.items)))
        else:
            kept.append(item)
    return tuple(kept)
