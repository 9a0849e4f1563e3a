"""`duelkit balance`: every unit against every unit, for each chosen game a balance report applies to."""

from __future__ import annotations

import argparse
from typing import Any

from toolkit.cli.common import (
    EXIT_OK,
    EXIT_PROBLEMS,
    add_output_command,
    err,
    load_valid,
    out,
    output_folder,
    select_games,
)


def add_parser(commands: Any) -> None:
    balance = add_output_command(commands, "balance", "every unit against every unit: ratings, heatmap, CSV",
                                 "balance", [
                                     "duelkit balance                    # -> output/balance/<game>/balance.pdf",
                                     "duelkit balance imported/ --skip-invalid"])
    balance.add_argument("--skip-invalid", action="store_true",
                         help="leave out units with problems instead of refusing (e.g. an imported dataset)")
    balance.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if args.skip_invalid:
        selected, _ = select_games(args, "balance")
        loaded = [(game, game.load(where)) for game, where in selected]
    else:
        valid = load_valid(args, "balance")
        if valid is None:
            err("(`duelkit balance --skip-invalid` leaves out the units with problems instead)")
            return EXIT_PROBLEMS
        loaded = valid
    with output_folder(args, "balance", [game.id for game, _ in loaded]) as folder:
        for game, data in loaded:
            written = game.balance(data, args.paper)
            target = folder.replace(game.id, written.files)
            out(f"{game.id}: {written.note}; wrote {target}/")
            for line in written.lines:
                out(line)
    return EXIT_OK
