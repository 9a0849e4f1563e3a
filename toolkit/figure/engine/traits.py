"""A unit's structured subroutine, read once when the game is compiled."""

from __future__ import annotations

from toolkit.model import Unit


def slot_traits(unit: Unit) -> frozenset[str]:
    """The kinds of the unit's structured subroutine effects (empty when it has none)."""
    subroutine = unit.subroutine
    effect = getattr(subroutine, "effect", None) if subroutine is not None else None
    return frozenset({effect.kind}) if effect is not None else frozenset()
