"""The figure games' print test: the shared page (`toolkit.kit.print_test`) with every Data Disk colour
under the theme's name and letter, and both team colours."""

from __future__ import annotations

from toolkit.figure import constants
from toolkit.figure.kit.colors import LEGEND_ORDER, SEGMENT
from toolkit.figure.kit.context import KitContext
from toolkit.kit.component import Component
from toolkit.kit.palette import TEAM
from toolkit.kit.plan import one_sided
from toolkit.kit.print_test import PrintTestSpec, Swatch, print_test
from toolkit.players import PLAYERS


def print_test_spec(ctx: KitContext) -> PrintTestSpec:
    terms = ctx.theme.terms
    swatches = [Swatch(SEGMENT[c].fill, SEGMENT[c].ink, SEGMENT[c].letter, ctx.theme.colors[c]) for c in LEGEND_ORDER]
    swatches += [Swatch(TEAM[side].fill, TEAM[side].ink, side.value, f"{terms.player} {side}") for side in PLAYERS]
    return PrintTestSpec(terms.game, ctx.paper, tuple(swatches),
                         "Every colour also carries a letter, so a black-and-white print still plays.",
                         f"{terms.units} {terms.data_disk} 01-{constants.DISK_TOTAL} ★", ctx.smallest_text,
                         one_sided=one_sided(ctx.options))


def build_print_test(ctx: KitContext) -> Component:
    return print_test(print_test_spec(ctx))
