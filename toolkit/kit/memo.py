"""Layout remembered between the rebuilds of one `duelkit watch`: a piece laid out from the same inputs
is not laid out again (a save that changes one unit lays out that unit's disc alone).

Only pure layout goes through here: a function of its arguments (frozen, hashable data) and of the
project's fallback fonts (text is measured with them, so they are part of every key). Outside a watch
(`remembering` not entered) nothing is remembered. What the last rebuild did not use is forgotten at the
next `start`, so the memory holds one kit's pieces at most."""

from __future__ import annotations

import operator
from collections.abc import Callable, Hashable
from contextlib import AbstractContextManager
from contextvars import ContextVar
from typing import Any, TypeVar

from toolkit.kit.fits import TextFits
from toolkit.rebuild_memo import RebuildMemo, in_effect
from toolkit.render.fonts import fallback_fonts

R = TypeVar("R")


class LayoutMemo(RebuildMemo[Any]):
    """Laid-out pieces by (what, inputs, fallback fonts); `misses` counts the pieces laid out since `start`.
    `derived` holds what is computed from data by identity (`computed_for`), apart from that count."""

    def __init__(self) -> None:
        super().__init__()
        self.derived: RebuildMemo[Any] = RebuildMemo()

    def start(self) -> None:
        super().start()
        self.derived.start()


_MEMO: ContextVar[LayoutMemo | None] = ContextVar("duelkit_layout_memo", default=None)
_FONTS: list[Any] = [None, ()]  # the fallback fonts last seen, and their names (part of every key)


def _fonts() -> tuple[str, ...]:
    fonts = fallback_fonts()
    if _FONTS[0] is not fonts:  # `use_fallback_fonts` sets a new tuple
        _FONTS[:] = [fonts, tuple(font.pdf_name for font in fonts)]
    return _FONTS[1]


class Same:
    """Frozen data in a memory key by identity instead of by value: a definition whose file was not parsed
    again is the same object at every rebuild (`loading.CheckMemo`), and hashing a unit's whole model for
    each piece it is on was most of looking its pieces up. A definition parsed again is a new object, so
    its pieces are laid out again. The key holds the object, so its id is not reused meanwhile."""

    __slots__ = ("held",)

    def __init__(self, held: object) -> None:
        self.held = held

    def __hash__(self) -> int:
        return id(self.held)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Same) and other.held is self.held


def remembering(memo: LayoutMemo) -> AbstractContextManager[LayoutMemo]:
    """Layout done inside this block through `laid_out` is looked up in `memo` first."""
    return in_effect(_MEMO, memo)


def laid_out(what: str, inputs: Hashable, compute: Callable[[], R]) -> R:
    """`compute()`, or what it returned for the same `what` and `inputs` earlier in this watch. The caller
    must not change what it gets (it is shared between rebuilds)."""
    memo = _MEMO.get()
    if memo is None:
        return compute()
    fonts = _fonts()
    return memo.get((what, inputs, fonts), compute)


def computed_for(what: str, held: object, compute: Callable[[], R], inputs: Hashable = ()) -> R:
    """`compute()`, a pure function of `held` (data shared between rebuilds and never changed: a parsed
    definition, a laid-out card's items), of `inputs` and of the fallback fonts, or what it returned for the
    same object earlier in this watch. `held` is looked up by identity, so it is not hashed; the memory holds
    it, so its id is not reused meanwhile."""
    memo = _MEMO.get()
    if memo is None:
        return compute()
    kept, result = memo.derived.get((what, id(held), inputs, _fonts()), lambda: (held, compute()))
    return result if kept is held else compute()


def computed_for_items(what: str, items: list[Any], compute: Callable[[], R]) -> R:
    """`computed_for` a page's list of items (a list changes, so it is held as a tuple and found again when
    it holds the same objects: a page whose pieces were all remembered)."""
    memo = _MEMO.get()
    if memo is None:
        return compute()
    frozen = tuple(items)
    kept, result = memo.derived.get((what, tuple(map(id, frozen)), _fonts()), lambda: (frozen, compute()))
    return result if all(map(operator.is_, kept, frozen)) else compute()


def laid_out_reporting(what: str, inputs: Hashable, fits: TextFits, compute: Callable[[], R]) -> R:
    """`laid_out` for a layout that reports text cut short to `fits` as it goes: what it reported is kept
    with it and reported again when it is found (each rebuild's warnings are its own)."""
    memo = _MEMO.get()
    if memo is None:
        return compute()

    def recorded() -> tuple[R, tuple[Any, ...]]:
        with fits.recording() as calls:
            result = compute()
        return result, tuple(calls)

    before = memo.misses
    fonts = _fonts()
    result, calls = memo.get((what, inputs, fonts), recorded)
    if memo.misses == before:
        fits.replay(calls)
    return result
