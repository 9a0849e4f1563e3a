"""The printable kit of sword-duel (spec 002, DESIGN.md section 5), in print order.

Each generator takes a `SwordContext` and returns a `Component` (imposed pages for the PDF, one unimposed
page per card or sheet for SVG, and an R001 warning for any text that had to be cut short):

- `build_print_test`: scale, colours, fine lines and duplex alignment, and the smallest text measured
  from the rest of the kit (so it is built last and printed first).
- `build_cards`: every card below packed onto as few sheets as they fill (what the kit prints).
- `build_action_cards`: 2 x 5 action cards (Attack, Defend, Advance, Retreat, Insight), one set per player,
  told apart by colour, letter and pattern; each set on its own sheets with that player's back.
- `build_technique_cards`: one card per technique of the kit's draft deck, with a common back.
- `build_role_cards`: Challenger and Defender, starting resources and the honor condition.
- `build_tokens`: range track (3 range tokens and the position token), 2 x 7 initiative tokens, 6 evade
  tokens, and 3 track markers per player.
- `build_player_mats`: one page per player: Momentum, Balance and Health tracks, card spaces, turn summary.
- `build_attribute_sheets`: one fold-into-a-tent page per player for the secret attributes.
- `build_draft_sheet`: the draft procedure and the draft deck.
- `build_quick_reference`: range tables computed by `resolve_position`, turn sequence, totals, resources.

The spec's numbers (starting resources, caps, movement effects, the honor turn, the build rules) live in
`toolkit.sword.constants`, which the engine reads too; the sheets read them when they draw.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterator

from toolkit.kit.component import Component
from toolkit.kit.ink import ink_saver_component
from toolkit.kit.measure import smallest_text
from toolkit.problems import Problem
from toolkit.sword.context import SwordContext
from toolkit.sword.kit.cards import build_action_cards, build_cards, build_role_cards, build_technique_cards
from toolkit.sword.kit.print_test import build_print_test
from toolkit.sword.kit.reference import build_draft_sheet, build_quick_reference
from toolkit.sword.kit.sheets import build_attribute_sheets, build_player_mats
from toolkit.sword.kit.tokens import build_tokens

SwordGenerator = Callable[[SwordContext], Component]

# Print order after the print test: the cards, the pieces, the play sheets, then the setup and reference sheets.
SWORD_GENERATORS: tuple[tuple[str, SwordGenerator], ...] = (
    ("cards", build_cards),
    ("tokens", build_tokens),
    ("mats", build_player_mats),
    ("attributes", build_attribute_sheets),
    ("draft", build_draft_sheet),
    ("quick-reference", build_quick_reference),
)
# The component (and so the PDF, `<part>.pdf`) each generator makes: the names `build --only` accepts.
PRINT_TEST = "print-test"
SWORD_PARTS: dict[str, str] = {"sword-print-test": PRINT_TEST, "sword-cards": "cards", "sword-tokens": "tokens",
                               "sword-mats": "mats", "sword-attributes": "attributes", "sword-draft": "draft",
                               "sword-reference": "quick-reference"}


def build_sword_components(ctx: SwordContext, only: Collection[str] = ()) -> Iterator[Component]:
    """Each component of the kit in print order (only the parts named in `only`, when given); a generator
    so a caller can show progress. The print test states the kit's smallest text, so with it every other
    part is laid out to measure."""
    wanted = {SWORD_PARTS[part] for part in only if part in SWORD_PARTS}
    with_test = not only or PRINT_TEST in wanted
    saver = ctx.options.ink == "saver"  # every part but the print test, which shows the colours as they print
    rest = [(name, ink_saver_component(generate(ctx), saver)) for name, generate in SWORD_GENERATORS
            if with_test or name in wanted]
    if with_test:
        yield build_print_test(ctx, smallest_text(page for _, part in rest for page in part.pages))
    yield from (component for name, component in rest if not only or name in wanted)


def layout_warnings(ctx: SwordContext) -> list[Problem]:
    """Text that would not fit on the cards and sheets, found by laying the kit out without rendering:
    lets `duelkit validate` report it before anyone builds."""
    # the print test holds no designer text: it is left out rather than laid out for nothing
    return [warning for _, generate in SWORD_GENERATORS for warning in generate(ctx).warnings]


__all__ = [
    "SWORD_GENERATORS",
    "SWORD_PARTS",
    "build_action_cards",
    "build_attribute_sheets",
    "build_cards",
    "build_draft_sheet",
    "build_player_mats",
    "build_print_test",
    "build_quick_reference",
    "build_role_cards",
    "build_sword_components",
    "build_technique_cards",
    "build_tokens",
    "layout_warnings",
]
