"""Shared card furniture: sizes, the face with bleed, and a theme back."""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial

from toolkit.kit.art import fitted
from toolkit.kit.memo import computed_for, laid_out
from toolkit.kit.options import PrintOptions
from toolkit.kit.palette import ACCENT, CARD_FACE, INK
from toolkit.pictures import Art, BackLook
from toolkit.render.impose import (
    BLEED,
    SAFE_ZONE,
    CardGrid,
    card_grid,
    fold_pairs,
    impose_cards,
    one_back,
    place_card,
)
from toolkit.render.scene import Anchor, Circle, Group, Line, Page, Rect, Shape, Style, Text, filled
from toolkit.render.textfit import fit_line

POKER = (63.5, 88.9)  # module cards
SCHEMATIC = (70.0, 120.0)  # unit schematics: tarot size, 4 to a sheet on A4 and US Letter
FRAME_STROKE = 0.35
# the card frame: its ink 3 mm inside the trim (the path a half stroke and a hair further), so 1-2 mm of
# cutting or duplex drift never shows
FRAME = SAFE_ZONE + FRAME_STROKE / 2 + 0.025
SAFE = FRAME + 1.0  # text keeps this far inside the trim (1 mm inside the frame)


def card_face(width: float, height: float, fill: str = CARD_FACE, frame: str = ACCENT) -> list[Shape]:
    """Background running into the bleed, and a thin frame at the safe zone."""
    return [
        Rect(-BLEED, -BLEED, width + 2 * BLEED, height + 2 * BLEED, filled(fill)),
        Rect(FRAME, FRAME, width - 2 * FRAME, height - 2 * FRAME, Style(stroke=frame, width=FRAME_STROKE),
             radius=2.0),
    ]


def card_back(width: float, height: float, game: str, kind: str, accent: str = ACCENT,
              ink_saver: bool = False, look: BackLook | None = None) -> list[Shape]:
    """A symmetric back (it reads the same after any flip): solid colour, rings, game and card kind.
    With `ink_saver` the same design in outline on white paper: no large fills. A project's `look`
    (`back:` in duelkit.yaml) gives the colour and the medallion's words, or a picture fitted whole (never
    cropped) on that colour, which runs to the bleed (its words, if any, in the medallion); ink saver keeps
    to the outline design."""
    if look is not None:
        accent = look.color or accent
        game = look.text or game
        if look.image is not None and not ink_saver:
            return _picture_back(width, height, look.image, game if look.text else None, kind, accent)
    cx, cy = width / 2, height / 2
    paper, ink = ("#ffffff", accent) if ink_saver else (accent, "#ffffff")
    items: list[Shape] = [Rect(-BLEED, -BLEED, width + 2 * BLEED, height + 2 * BLEED, filled(paper))]
    light = Style(stroke=ink, width=0.4)
    items.append(Rect(SAFE, SAFE, width - 2 * SAFE, height - 2 * SAFE, light, radius=2.5))
    if not ink_saver:
        step = 6.0
        x = SAFE + step
        while x < width - SAFE:
            items.append(Line(x, SAFE, x, height - SAFE, Style(stroke=ink, width=0.1)))
            x += step
    radius = min(width, height) * 0.32
    items += [Circle(cx, cy, radius, filled(paper, ink, 0.6)),
              Circle(cx, cy, radius * 0.82, Style(stroke=ink, width=0.3))]
    title = fit_line(game, radius * 1.5, "bold", 11, 6)
    items.append(Text(cx, cy - 1, title.lines[0], title.size, "bold", ink, "middle"))
    label = fit_line(kind, radius * 1.5, "regular", 7, 5)
    items.append(Text(cx, cy + 4.5, label.lines[0], label.size, "regular", ink, "middle"))
    return items


def _picture_back(width: float, height: float, picture: Art, words: str | None, kind: str,
                  accent: str) -> list[Shape]:
    items = fitted(picture, 0, 0, width, height, accent, bleed=BLEED)
    if words:
        radius = min(width, height) * 0.32
        items.append(Circle(width / 2, height / 2, radius, filled(accent, "#ffffff", 0.6)))
        title = fit_line(words, radius * 1.5, "bold", 11, 6)
        items.append(Text(width / 2, height / 2 - 1, title.lines[0], title.size, "bold", "#ffffff", "middle"))
        label = fit_line(kind, radius * 1.5, "regular", 7, 5)
        items.append(Text(width / 2, height / 2 + 4.5, label.lines[0], label.size, "regular", "#ffffff", "middle"))
    return items


def impose_deck(fronts: Sequence[Sequence[Shape]], backs: Sequence[Sequence[Shape]], card_w: float, card_h: float,
                paper: str, label: str, options: PrintOptions) -> list[Page]:
    """Cards laid out as the user asked: a grid of fronts, each sheet followed by its mirrored backs; or,
    with `--layout fold`, each front beside its back with a fold line, on one-sided sheets. `backs` holds
    one back per front, or one back for every card."""
    if options.layout == "fold":
        pairs = fold_pairs(fronts, backs, card_w, card_h)
        pages = impose_cards(pairs, None, card_grid(paper, 2 * card_w, card_h, count=len(pairs)), f"{label} (fold)")
        for page in pages:
            page.folds = "cards"
        return pages
    return impose_cards(fronts, backs, card_grid(paper, card_w, card_h, count=len(fronts)), label,
                        _remembered_place, _remembered_back)


def _remembered_place(art: Sequence[Shape], grid: CardGrid, slot: int, back: bool) -> Group:
    """`place_card`, the same group again in a watch for a card laid out once (`kit.memo`), so its sheet's
    hash and smallest text are found again."""
    if not isinstance(art, tuple):
        return place_card(art, grid, slot, back)
    return computed_for("placed_card", art, partial(place_card, art, grid, slot, back), (grid, slot, back))


def _remembered_back(items: Sequence[Shape]) -> tuple[Shape, ...]:
    frozen = tuple(items)
    return laid_out("card_back_form", frozen, partial(one_back, frozen))


def card_piece(art: Sequence[Shape], width: float, height: float, label: str = "") -> Page:
    """One unimposed card with its bleed, for SVG editing."""
    return Page(width + 2 * BLEED, height + 2 * BLEED, [Group(tuple(art), dx=BLEED, dy=BLEED)], label=label)


def heading(x: float, y: float, text: str, width: float, size: float = 10, min_size: float = 6,
            color: str = INK, anchor: Anchor = "start") -> tuple[Text, bool]:
    """A one-line heading that shrinks to fit; returns (text item, overflowed)."""
    fitted = fit_line(text, width, "bold", size, min_size)
    return Text(x, y, fitted.lines[0], fitted.size, "bold", color, anchor), fitted.overflow
