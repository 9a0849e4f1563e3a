"""`duelkit board check`: the structural checks of a board file, one line per failure."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from toolkit.cli.common import EXIT_OK, EXIT_PROBLEMS, out
from toolkit.registry import games


def add_parser(commands: Any) -> None:
    board = commands.add_parser("board", help="board tools")
    board_commands = board.add_subparsers(dest="board_command", metavar="SUBCOMMAND", required=True)
    check = board_commands.add_parser("check", help="run the structural checks on a board YAML")
    check.add_argument("board", nargs="?", type=Path, metavar="BOARD_YAML",
                       help="board file (default: the standard board)")
    check.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    game = next(game for game in games() if game.supports("board"))  # the games with boards share one format
    report = game.check_board(args.board)
    for line in report.lines:
        out(line)
    return EXIT_PROBLEMS if report.failed else EXIT_OK
