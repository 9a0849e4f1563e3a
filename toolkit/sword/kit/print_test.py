"""sword-duel's print test: the shared page (`toolkit.kit.print_test`) with the colours this kit prints:
each player's pieces, the two roles and the three range tokens, each with the letter or number it carries."""

from __future__ import annotations

from toolkit.kit.component import Component
from toolkit.kit.plan import one_sided
from toolkit.kit.print_test import PrintTestSpec, Swatch, print_test
from toolkit.sword.context import SwordContext
from toolkit.sword.kit.common import LOOKS, RANGE_FILL, RANGE_ORDER, RANGE_SHORT, ROLE_FILL, ROLE_NAME, SUMI, VERMILION

COMPONENT = "sword-print-test"  # its file, sword-print-test.pdf, sits beside the game's other parts


def print_test_spec(ctx: SwordContext, smallest_text: float | None) -> PrintTestSpec:
    swatches = [Swatch(side.fill, side.ink, side.key, side.name) for side in LOOKS]
    swatches += [Swatch(ROLE_FILL[role], "#ffffff", name[0], name) for role, name in ROLE_NAME.items()]
    swatches += [Swatch(RANGE_FILL[distance], SUMI, str(number), f"Range: {RANGE_SHORT[distance]}")
                 for number, distance in enumerate(RANGE_ORDER, start=1)]
    return PrintTestSpec(ctx.name, ctx.paper, tuple(swatches),
                         "Players' pieces also carry a letter and a pattern, so a black-and-white print still plays.",
                         "Momentum · Balance · Initiative 1–10", smallest_text, accent=VERMILION,
                         one_sided=one_sided(ctx.options))


def build_print_test(ctx: SwordContext, smallest_text: float | None) -> Component:
    """`smallest_text`: measured from the rest of the kit's pages, which the print test states."""
    return print_test(print_test_spec(ctx, smallest_text), COMPONENT)
