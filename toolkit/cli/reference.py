"""`duelkit reference`: the rule reference sheets of every chosen game."""

from __future__ import annotations

import argparse
from typing import Any

from toolkit.cli.common import EXIT_OK, EXIT_PROBLEMS, add_output_command, load_valid, out, output_folder


def add_parser(commands: Any) -> None:
    reference = add_output_command(commands, "reference", "rule reference sheets (PDF, and HTML where a "
                                   "game has a manual)", "reference", [
                                       "duelkit reference                  # -> output/reference/<game>/",
                                       "duelkit reference mygame --paper letter"],
                                   "; its templates/ override ours")
    reference.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    loaded = load_valid(args, "reference")
    if loaded is None:
        return EXIT_PROBLEMS
    templates = args.data_dir / "templates" if args.data_dir else None
    with output_folder(args, "reference", [game.id for game, _ in loaded]) as folder:
        for game, data in loaded:
            written = game.reference(data, args.paper, templates)
            target = folder.replace(game.id, written.files)
            out(f"{game.id}: wrote {written.note} to {target}/")
            for line in written.lines:
                out(line)
    return EXIT_OK
