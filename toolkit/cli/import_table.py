"""`duelkit import`: a spreadsheet turned into the project's YAML: the project you stand in (or `--out DIR`,
a project of the same game, or a new folder). A sheet that `duelkit export csv|xlsx` wrote (a workbook, or
the folder of CSV files) updates units, squads, modules and the project's words; a foreign sheet (one row
per Data Disk segment, or per unit) updates units.

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
from toolkit.errors import UsageError
from toolkit.game import NotApplicable
from toolkit.registry import DEFAULT_GAME, discover, find_game, game_ids


def add_parser(commands: Any) -> None:
    importer = add_command(commands, "import", "a spreadsheet (CSV or XLSX) into the project's YAML", [
        f"duelkit import output/export/xlsx/{game_ids()[0]}/{game_ids()[0]}.xlsx --dry-run   (after `duelkit export "
        "xlsx`)",
        f"duelkit import output/export/csv/{game_ids()[0]} --delete",
        "duelkit import units.csv --out imported && duelkit validate imported",
        "duelkit import units.xlsx --out imported --columns name=Figure,mp=Move",
        f"duelkit import units.csv --out imported --theme {game_ids()[0]}"])
    importer.add_argument("csv", type=Path, metavar="SHEET",
                          help="the spreadsheet: an Excel workbook (.xlsx), a .csv file (UTF-8), or the folder of CSV "
                               "files `duelkit export csv` wrote")
    importer.add_argument("--columns", default="", metavar="MAP",
                          help="which header holds which field, e.g. name=Figure,mp=Move (others are recognised "
                               "by their usual names)")
    importer.add_argument("--layout", choices=("auto", "segment", "unit"), default="auto",
                          help="one row per Data Disk segment, or one row per unit with numbered segment "
                               "columns (Move 1, Size 1, Color 1...); default: detected from the header")
    importer.add_argument("--out", type=Path, metavar="DIR",
                          help="the project to update, or a new folder (default: the project you stand in)")
    importer.add_argument("--dry-run", action="store_true",
                          help="show what would be added, updated, removed or kept; write nothing")
    importer.add_argument("--delete", action="store_true",
                          help="delete the units, squads and modules the sheet no longer has (default: list them)")
    importer.add_argument("--theme", choices=game_ids(),
                          help=f"the game of the new project (default: the game of the project you stand in, "
                               f"else {DEFAULT_GAME})")
    importer.set_defaults(run=run, data_dir=None)  # data_dir: the project here or above, found by main()


def run(args: argparse.Namespace) -> int:
    target = args.out if args.out is not None else args.data_dir
    if target is None:
        raise UsageError("outside a project: give the folder to import into with --out DIR (a new folder starts "
                         "a project), or run the import inside the project")
    if args.theme is None and not (target / "duelkit.yaml").is_file():  # a new project: the sheet's game, if said
        reader = next((find_game(gid) for gid in game_ids() if find_game(gid).supports("import")), None)
        said = reader.sheet_game(args.csv) if reader is not None else None
        args.theme = said if said in game_ids() else None
    existing = target if (target / "duelkit.yaml").is_file() else args.data_dir
    game = find_game(args.theme or _project_game(existing))
    if not game.supports("import"):
        raise NotApplicable(game.why_not("import"))
    report = game.import_table(args.csv, target, args.columns, args.layout, args.dry_run, args.delete)
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
