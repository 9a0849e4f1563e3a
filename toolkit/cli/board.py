"""`duelkit board check`: the structural checks of a board file, one line per failure."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from toolkit.cli.common import EXIT_OK, EXIT_PROBLEMS, add_command, out
from toolkit.registry import games


def add_parser(commands: Any) -> None:
    board = add_command(commands, "board", "board tools", ["duelkit board check my-board.yaml"])
    board_commands = board.add_subparsers(dest="board_command", metavar="SUBCOMMAND", required=True)
    check = add_command(board_commands, "check", "run the structural checks on a board YAML", [
        "duelkit board check                # the standard board",
        "duelkit board check my-board.yaml"])
    check.add_argument("board", nargs="?", type=Path, metavar="BOARD_YAML",
                       help="board file (default: the standard board)")
    check.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    game = next(game for game in games() if game.supports("board"))  # the games with boards share one format
    report = game.check_board(args.board)
    for line in report.lines:
        out(line)
    return EXIT_PROBLEMS if report.failed else EXIT_OK
