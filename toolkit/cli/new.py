"""`duelkit new`: a one-game starter project to edit."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from toolkit.cli.common import EXIT_OK, add_command, out
from toolkit.registry import DEFAULT_GAME, find_game, game_ids
from toolkit.terminal import one_line


def add_parser(commands: Any) -> None:
    new = add_command(commands, "new", "create a one-theme starter project", [
        "duelkit new mygame && cd mygame && duelkit validate && duelkit build",
        f"duelkit new mygame --theme {game_ids()[-1]}"])
    new.add_argument("directory", type=Path, metavar="DIR", help="the new project folder (must not exist, or be empty)")
    new.add_argument("--theme", choices=game_ids(), default=DEFAULT_GAME,
                     help=f"the game of the project (default: {DEFAULT_GAME})")
    new.add_argument("--from-bundled", action="store_true",
                     help="copy the game's whole bundled demo database instead of the small commented starter")
    new.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from toolkit.project import create_project

    target = create_project(args.directory, args.theme, from_bundled=args.from_bundled)
    shown = one_line(str(target))
    out(f"created {args.theme} project in {shown}")
    out(f"next: read {one_line(str(target / 'README.md'))}" if (target / "README.md").is_file() else "next:")
    edit = one_line(str(target / find_game(args.theme).edit_hint()))
    out(f"      edit {edit}, then `cd {shown} && duelkit validate`")
    return EXIT_OK
