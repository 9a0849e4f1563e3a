"""`duelkit board check` (the structural checks of a board file, one line per failure, then the distances a
designer plans with) and `duelkit board new` (a copy of the standard board to edit into a variant)."""

from __future__ import annotations

import argparse
import os
import re
from pathlib import Path
from typing import Any

from toolkit.cli.common import EXIT_OK, EXIT_PROBLEMS, add_command, err, out, write_atomically
from toolkit.errors import DuelkitError, UsageError
from toolkit.fields import SLUG_PATTERN
from toolkit.game import Game, NotApplicable, Where
from toolkit.loading import PROJECT_FILE
from toolkit.paths import DEFAULT_BOARD, file_in_the_way
from toolkit.project import find_project
from toolkit.registry import discover, games
from toolkit.report import format_text


def add_parser(commands: Any) -> None:
    board = add_command(commands, "board", "board tools", [
        "duelkit board new boards/wide.yaml   # a copy of the standard board to edit",
        "duelkit board check                  # the project's board (or the standard one)",
        "duelkit board check boards/wide.yaml"])
    board_commands = board.add_subparsers(dest="board_command", metavar="SUBCOMMAND", required=True)
    check = add_command(board_commands, "check", "run the structural checks on a board YAML and print its "
                        "distances (entry to goal, goal to goal)", [
        "duelkit board check                # the project's `board:`, else the standard board",
        "duelkit board check my-board.yaml"])
    check.add_argument("board", nargs="?", type=Path, metavar="BOARD_YAML",
                       help=f"board file (default: the `board:` of the {PROJECT_FILE} here or above; without one, "
                            "the standard board)")
    check.set_defaults(run=run, data_dir=None)  # data_dir: the project here or above (toolkit.cli.resolve_project)
    new = add_command(board_commands, "new", "copy the standard board into a new file to edit as a variant", [
        "duelkit board new boards/wide.yaml && duelkit board check boards/wide.yaml"])
    new.add_argument("file", type=Path, metavar="FILE", help="the new board file (must not exist)")
    new.set_defaults(run=run_new)


def _board_game(data_dir: Path | None) -> tuple[Game, Where | None]:
    """The game whose board a check means: the project's (when it has boards), else the standard one's."""
    if data_dir is not None:
        found, problems = discover(data_dir)
        if any(problem.is_error for problem in problems):
            err(format_text(problems))
            raise UsageError(f"{data_dir / PROJECT_FILE} has problems; fix them, or name a board file")
        for game, where in found:
            if not game.supports("board"):
                raise NotApplicable(game.why_not("board") + "; name a board file to check one anyway")
            return game, where
    return next(game for game in games() if game.supports("board")), None  # the board games share one format


def run(args: argparse.Namespace) -> int:
    game, where = _board_game(args.data_dir if args.board is None else None)
    report = game.check_board(args.board, where)
    for line in report.lines:
        out(line)
    return EXIT_PROBLEMS if report.failed else EXIT_OK


def run_new(args: argparse.Namespace) -> int:
    target: Path = args.file
    if os.path.lexists(target):
        raise UsageError(f"'{target}' already exists; choose a new file name")
    if target.suffix.lower() not in (".yaml", ".yml"):
        raise UsageError(f"'{target}': a board file ends in .yaml")
    slug = re.sub(r"[^a-z0-9]+", "-", target.stem.lower()).strip("-")
    text = DEFAULT_BOARD.read_text(encoding="utf-8")
    if re.fullmatch(SLUG_PATTERN, slug) and slug != "standard":
        text = re.sub(r"(?m)^id: .*$", f"id: {slug}", text, count=1)
        text = re.sub(r"(?m)^name: .*$", f"name: {slug.replace('-', ' ').capitalize()} "
                      "(a variant of the standard board)", text, count=1)
    text = text.replace("# The standard 28-node board", "# Copied from the standard 28-node board", 1)
    blocker = file_in_the_way(target.parent)
    if blocker is not None:
        raise UsageError(f"cannot write '{target}': '{blocker}' is a file, not a folder")
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise DuelkitError(f"cannot make the folder '{target.parent}': {exc.strerror or exc}") from None
    write_atomically(target, text)
    out(f"wrote {target}: the standard board, to edit (nodes with x/y in mm and roles, routes)")
    project = find_project(target.resolve().parent)
    if project is not None:
        relative = target.resolve().relative_to(project).as_posix()
        out(f"next: `duelkit board check {target}`, then use it: add `board: {relative}` to "
            f"{project / PROJECT_FILE}")
    else:
        out(f"next: `duelkit board check {target}`; a project uses it with `board: PATH` in its {PROJECT_FILE}")
    return EXIT_OK
