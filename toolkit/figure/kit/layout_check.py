"""What `duelkit validate` learns from laying out the cards without drawing them: text that would not fit
(R001) and characters no font can print (G001, G003). Only the two card generators are imported, not the
whole kit (toolkit/figure/kit/build.py), so validating a project stays quick."""

from __future__ import annotations

from functools import partial

from toolkit.figure.database import Database
from toolkit.figure.kit.context import KitContext
from toolkit.figure.kit.module_cards import build_modules
from toolkit.figure.kit.schematics import build_schematics
from toolkit.kit.glyphs import glyph_warnings, project_glyph_warnings
from toolkit.kit.memo import computed_for
from toolkit.problems import Problem


def layout_warnings(database: Database, paper: str = "a4") -> list[Problem]:
    """Text that would not fit on the cards, found by laying them out without rendering: lets
    `duelkit validate` report it before anyone builds."""
    context = KitContext(database, paper)
    warnings: list[Problem] = []
    for generate in (build_schematics, build_modules):
        warnings += generate(context).warnings
    return warnings


def glyph_problems(database: Database) -> list[Problem]:
    """Characters of the printed data no font can draw (G001) and Arabic text (G003), at file and line."""
    skip = frozenset({"id", "art", "upgrades_to", "inflicts", "kind", "color", "units", "modules"})
    found = project_glyph_warnings(database.project_file)
    for kind in (database.units, database.modules, database.squads):
        for entry in kind.values():
            found += computed_for("glyph_warnings", entry.data,
                                  partial(glyph_warnings, entry.source, entry.data, skip))
    return found
