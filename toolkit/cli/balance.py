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
from toolkit.game import SimulateRequest
from toolkit.problems import UsageError


def add_parser(commands: Any) -> None:
    balance = add_output_command(commands, "balance", "every unit against every unit: ratings, heatmap, CSV",
                                 "balance", [
                                     "duelkit balance                    # -> output/balance/<game>/balance.pdf",
                                     "duelkit balance imported/ --skip-invalid"])
    balance.add_argument("--skip-invalid", action="store_true",
                         help="leave out units with problems instead of refusing (e.g. an imported dataset)")
    balance.add_argument("--board", action="store_true",
                         help="add the board-level section: every squad against every squad in self-play, and "
                              "each unit's impact on its squad's win rate (slow: minutes)")
    balance.add_argument("--board-games", type=int, default=100, metavar="N",
                         help="games per self-play run for --board (default 100)")
    balance.add_argument("--players", default="greedy,greedy", metavar="P,Q",
                         help="players for --board (default greedy,greedy)")
    balance.add_argument("--seed", type=int, default=1, metavar="S", help="root seed for --board (default 1)")
    balance.add_argument("--jobs", type=int, default=1, metavar="K", help="local processes for --board")
    balance.set_defaults(run=run)


def _board_request(args: argparse.Namespace) -> SimulateRequest | None:
    if not args.board:
        return None
    players = tuple(name.strip() for name in args.players.split(","))
    if len(players) != 2:
        raise UsageError("--players takes two players separated by a comma, e.g. greedy,greedy")
    return SimulateRequest(None, args.board_games, (players[0], players[1]), args.seed, args.jobs)


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
            written = game.balance(data, args.paper, _board_request(args))
            target = folder.replace(game.id, written.files)
            out(f"{game.id}: {written.note}; wrote {target}/")
            for line in written.lines:
                out(line)
    return EXIT_OK
