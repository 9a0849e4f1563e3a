"""`duelkit new`: a one-game starter project to edit."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from toolkit.cli.common import EXIT_OK, out
from toolkit.registry import DEFAULT_GAME, find_game, game_ids


def add_parser(commands: Any) -> None:
    new = commands.add_parser("new", help="create a one-theme starter project")
    new.add_argument("directory", type=Path, metavar="DIR")
    new.add_argument("--theme", choices=game_ids(), default=DEFAULT_GAME)
    new.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from toolkit.project import create_project

    target = create_project(args.directory, args.theme)
    out(f"created {args.theme} project in {target}")
    out(f"next: edit {target / find_game(args.theme).edit_hint()}, then run `duelkit validate {target}`")
    return EXIT_OK
