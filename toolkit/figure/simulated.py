"""Which written effects the figure engine executes, and which it only prints ("not simulated").

A Purple segment's `effect` text is simulated when the segment also says what it does as data
(`inflicts` and/or `board_effect`); a subroutine's `text` when the subroutine has an `effect`.
Anything else is printed on the cards but ignored by the engine, and `validate` says so.
"""

from __future__ import annotations

from toolkit.figure.model import Unit


def unsimulated_texts(unit: Unit) -> list[tuple[tuple, str]]:
    """(location inside the unit's YAML, what is not simulated) for each effect text the engine ignores."""
    found: list[tuple[tuple, str]] = []
    for index, segment in enumerate(unit.disk):
        if segment.effect and not (segment.inflicts or segment.board_effect):
            found.append((("disk", index, "effect"), f"the effect of '{segment.move}'"))
    if unit.subroutine is not None and unit.subroutine.effect is None:
        found.append((("subroutine", "text"), f"subroutine '{unit.subroutine.name}'"))
    return found
