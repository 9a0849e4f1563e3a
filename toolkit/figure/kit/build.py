"""The whole printable kit of one theme, in print order."""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterator
from dataclasses import replace

from toolkit.figure.database import Database
from toolkit.figure.kit.board_sheet import build_board
from toolkit.figure.kit.context import KitContext
from toolkit.figure.kit.d10_sheet import build_d10
from toolkit.figure.kit.layout_check import glyph_problems, layout_warnings
from toolkit.figure.kit.manual_pages import build_manual_pages, build_quick_reference
from toolkit.figure.kit.module_cards import build_modules
from toolkit.figure.kit.print_test import build_print_test
from toolkit.figure.kit.schematics import build_schematics
from toolkit.figure.kit.spinners import build_spinners
from toolkit.figure.kit.squad_sheet import build_squad_sheets
from toolkit.figure.kit.tokens import build_tokens
from toolkit.kit.batch import batch_allocation
from toolkit.kit.component import Component
from toolkit.kit.ink import ink_saver_component
from toolkit.kit.measure import smallest_text
from toolkit.kit.options import PrintOptions

Generator = Callable[[KitContext], Component]

# Print order of kit.pdf: check the printer first, then the board and pieces, cards, play aids.
GENERATORS: tuple[tuple[str, Generator], ...] = (
    ("print-test", build_print_test),
    ("board", build_board),
    ("squads", build_squad_sheets),
    ("tokens", build_tokens),
    ("schematics", build_schematics),
    ("modules", build_modules),
    ("d10", build_d10),
    ("spinners", build_spinners),
    ("manual", build_manual_pages),
    ("quick-reference", build_quick_reference),
)


def build_components(database: Database, paper: str, options: PrintOptions | None = None,
                     squads: tuple[str, ...] = (), only: Collection[str] = ()) -> Iterator[Component]:
    """Each component in print order (only those named in `only`, when given); a generator so a caller
    can show progress."""
    context = KitContext(database, paper, options or PrintOptions(), squad_ids=squads)
    with_test = not only or "print-test" in only
    # the print test states the kit's smallest text, so with it every other part is laid out to measure
    saver = context.options.ink == "saver"  # every part but the print test, which shows the colours as they print
    rest = [ink_saver_component(generate(context), saver) for name, generate in GENERATORS
            if name != "print-test" and (with_test or name in only)]
    measured = replace(context, smallest_text=smallest_text(page for part in rest for page in part.pages)
                       ) if with_test else context
    for name, generate in GENERATORS:
        if name == "print-test":
            if with_test:
                yield generate(measured)
        elif with_test or name in only:
            component = rest.pop(0)
            if not only or name in only:
                yield component


__all__ = ["GENERATORS", "batch_allocation", "build_components", "glyph_problems", "layout_warnings"]
