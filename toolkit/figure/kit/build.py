"""The whole printable kit of one theme, in print order."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Collection, Iterator
from dataclasses import replace

from toolkit.figure.database import Database
from toolkit.figure.kit.context import KitContext
from toolkit.figure.kit.layout_check import glyph_problems, layout_warnings
from toolkit.kit.batch import batch_allocation
from toolkit.kit.component import Component
from toolkit.kit.ink import ink_saver_component
from toolkit.kit.measure import smallest_text
from toolkit.kit.options import PrintOptions

Generator = Callable[[KitContext], Component]


def _part(module: str, function: str) -> Generator:
    """A part's generator, its module imported when the part is built: `build --only schematics` then loads
    neither the manual's model and rules tables nor the other sheets (about 40 ms of imports)."""
    def generate(ctx: KitContext) -> Component:
        built: Component = getattr(importlib.import_module(f"toolkit.figure.kit.{module}"), function)(ctx)
        return built

    generate.__name__ = function
    return generate


# Print order of kit.pdf: check the printer first, then the board and pieces, cards, play aids.
GENERATORS: tuple[tuple[str, Generator], ...] = (
    ("print-test", _part("print_test", "build_print_test")),
    ("board", _part("board_sheet", "build_board")),
    ("squads", _part("squad_sheet", "build_squad_sheets")),
    ("tokens", _part("tokens", "build_tokens")),
    ("schematics", _part("schematics", "build_schematics")),
    ("modules", _part("module_cards", "build_modules")),
    ("d10", _part("d10_sheet", "build_d10")),
    ("spinners", _part("spinners", "build_spinners")),
    ("manual", _part("manual_pages", "build_manual_pages")),
    ("quick-reference", _part("manual_pages", "build_quick_reference")),
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
