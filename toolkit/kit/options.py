"""How the user wants the kit printed: the `duelkit build` options every game's kit honours."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Layout = Literal["grid", "fold"]
Ink = Literal["full", "saver"]


@dataclass(frozen=True)
class PrintOptions:
    """`simplex`: no backs at all; `back_offset`: (dx, dy) mm the print test measured, seen from the
    front (right and down positive); `guides`: draw trim, bleed and safe zones; `layout`: "fold" puts
    each card's and token's back beside its front with a fold line; `ink`: "saver" backs are outline and
    text only; `board_paper`: a larger paper for the board alone (one sheet), or None for the kit's paper."""

    simplex: bool = False
    back_offset: tuple[float, float] = (0.0, 0.0)
    guides: bool = False
    layout: Layout = "grid"
    ink: Ink = "full"
    board_paper: str | None = None
