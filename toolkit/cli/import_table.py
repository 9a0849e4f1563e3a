"""`duelkit import`: a one-row-per-segment spreadsheet turned into a project of unit YAML.

Exit codes: 0 every figure was transcribed (warnings, such as damage '60x' kept as a note, may be
printed); 1 the project was written but some figures were skipped (listed in the project's
skipped.csv) or some units edited by hand conflict with changed sheet rows (kept, listed), or nothing
was written because of an error (its message says so); 2 a usage error. `--dry-run` exits the same
way without writing."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from toolkit.cli.common import EXIT_OK, EXIT_PROBLEMS, add_command, err, out
from toolkit.game import NotApplicable
from toolkit.registry import DEFAULT_GAME, discover, find_game, game_ids


def add_parser(commands: Any) -> None:
    importer = add_command(commands, "import", "convert a spreadsheet (CSV or XLSX) into a project of unit YAML", [
        "duelkit import units.csv --out imported && duelkit validate imported",
        "duelkit import units.xlsx --out imported --columns name=Figure,mp=Move",
        f"duelkit import units.csv --out imported --theme {game_ids()[0]}"])
    importer.add_argument("csv", type=Path, metavar="SHEET",
                          help="the spreadsheet: a .csv file (UTF-8) or an Excel workbook (.xlsx, first worksheet)")
    importer.add_argument("--columns", default="", metavar="MAP",
                          help="which header holds which field, e.g. name=Figure,mp=Move (others are recognised "
                               "by their usual names)")
    importer.add_argument("--layout", choices=("auto", "segment", "unit"), default="auto",
                          help="one row per Data Disk segment, or one row per unit with numbered segment "
                               "columns (Move 1, Size 1, Color 1...); default: detected from the header")
    importer.add_argument("--out", type=Path, required=True, metavar="DIR",
                          help="the project to write (a new folder, or one an earlier import wrote)")
    importer.add_argument("--dry-run", action="store_true",
                          help="show which units would be added, updated, removed or kept; write nothing")
    importer.add_argument("--theme", choices=game_ids(),
                          help=f"the game of the new project (default: the game of the project you stand in, "
                               f"else {DEFAULT_GAME})")
    importer.set_defaults(run=run, data_dir=None)  # data_dir: the project here or above, found by main()


def run(args: argparse.Namespace) -> int:
    game = find_game(args.theme or _project_game(args.data_dir))
    if not game.supports("import"):
        raise NotApplicable(game.why_not("import"))
    report = game.import_table(args.csv, args.out, args.columns, args.layout, args.dry_run)
    for note in report.notes:
        err(note)
    for line in report.lines:
        out(line)
    return EXIT_PROBLEMS if report.failed else EXIT_OK


def _project_game(project: Path | None) -> str:
    """The game of the project the designer stands in (a broken or absent one means the default game)."""
    if project is None:
        return DEFAULT_GAME
    found, _ = discover(project)
    return found[0][0].id if len(found) == 1 else DEFAULT_GAME
