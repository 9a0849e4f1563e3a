"""Ranges and the three position-resolution tables of spec 002 ("Position Resolution")."""

from __future__ import annotations

from enum import Enum


class Range(str, Enum):
    APART = "apart"
    SWORD = "sword"
    CLOSE = "close"


class Move(str, Enum):
    ADVANCE = "advance"
    RETREAT = "retreat"
    STAY = "stay"


ORDER = (Range.APART, Range.SWORD, Range.CLOSE)  # far to near

# Spec 002, verbatim, keyed by the unordered pair of moves. Both-retreat at Sword and Close moves
# two steps (Close -> Apart); one retreat against a stay moves one step; an advance against a retreat
# cancels out.
TABLE: dict[Range, dict[frozenset[Move], Range]] = {
    Range.APART: {
        frozenset({Move.ADVANCE}): Range.SWORD,
        frozenset({Move.ADVANCE, Move.STAY}): Range.SWORD,
        frozenset({Move.ADVANCE, Move.RETREAT}): Range.APART,
        frozenset({Move.STAY}): Range.APART,
        frozenset({Move.RETREAT}): Range.APART,
        frozenset({Move.RETREAT, Move.STAY}): Range.APART,
    },
    Range.SWORD: {
        frozenset({Move.ADVANCE}): Range.CLOSE,
        frozenset({Move.ADVANCE, Move.STAY}): Range.CLOSE,
        frozenset({Move.ADVANCE, Move.RETREAT}): Range.SWORD,
        frozenset({Move.STAY}): Range.SWORD,
        frozenset({Move.RETREAT}): Range.APART,
        frozenset({Move.RETREAT, Move.STAY}): Range.APART,
    },
    Range.CLOSE: {
        frozenset({Move.ADVANCE}): Range.CLOSE,
        frozenset({Move.ADVANCE, Move.STAY}): Range.CLOSE,
        frozenset({Move.ADVANCE, Move.RETREAT}): Range.CLOSE,
        frozenset({Move.STAY}): Range.CLOSE,
        frozenset({Move.RETREAT}): Range.APART,
        frozenset({Move.RETREAT, Move.STAY}): Range.SWORD,
    },
}


_AFTER = {(current, a, b): TABLE[current][frozenset({a, b})] for current in Range for a in Move for b in Move}


def resolve_position(current: Range, move_a: Move, move_b: Move) -> Range:
    """The range after both players' movement cards are revealed (TABLE, looked up by the ordered triple)."""
    return _AFTER[current, move_a, move_b]


def can_attack(distance: Range) -> bool:
    """Attacks need Sword Range or Close Combat."""
    return distance is not Range.APART
