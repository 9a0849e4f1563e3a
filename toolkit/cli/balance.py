"""`duelkit balance`: every unit against every unit, for each chosen game a balance report applies to."""

from __future__ import annotations

import argparse
from dataclasses import replace
from pathlib import Path
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
from toolkit.cli.simulate import LADDER, ProgressBar
from toolkit.errors import UsageError
from toolkit.game import SimulateRequest
from toolkit.registry import discover
from toolkit.terminal import one_line

# the options of the board-level section; None on the command line means "not given"
BOARD_DEFAULTS: dict[str, Any] = {"board_games": 100, "players": "greedy,greedy", "seed": 1, "jobs": 1,
                                  "ladder": ",".join(LADDER), "baseline": None}


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
    balance.add_argument("--board-games", type=int, metavar="N",
                         help=f"games per self-play run for --board (default {BOARD_DEFAULTS['board_games']}); "
                              "the card duel: duels per technique pair (default 10; the honor comparison plays 10x)")
    balance.add_argument("--players", metavar="P,Q",
                         help=f"players for --board (default {BOARD_DEFAULTS['players']})")
    balance.add_argument("--seed", type=int, metavar="S",
                         help=f"root seed for --board (default {BOARD_DEFAULTS['seed']})")
    balance.add_argument("--jobs", type=int, metavar="K", help="local processes for --board")
    balance.add_argument("--ladder", metavar="P,Q,...",
                         help="the skill ladder for --board: every match is also played by each of these bots "
                              f"against itself, and verdicts that change with strength are marked (default "
                              f"{BOARD_DEFAULTS['ladder']}; 'none' to skip)")
    balance.add_argument("--baseline", type=Path, metavar="DIR",
                         help="for --board: play the round robin's seeds on another version of the data too, and "
                              "report each match's change with a paired interval")
    balance.set_defaults(run=run)



def _squadless(args: argparse.Namespace) -> str | None:
    """For a project of a game without squads (the card duel), its default players: its report is self-play,
    so the self-play options apply without --board. None otherwise."""
    found, _ = discover(args.data_dir) if args.data_dir is not None else ([], [])
    if not found or any(game.has_squads for game, _ in found):
        return None
    return found[0][0].default_players.get("balance", "greedy,greedy")


def _board_request(args: argparse.Namespace) -> SimulateRequest | None:
    given = [name for name in BOARD_DEFAULTS if getattr(args, name) is not None]
    squadless = _squadless(args)
    if squadless is not None:
        if not given and not args.board:
            return None  # the game's own defaults
        players = tuple(name.strip() for name in (args.players or squadless).split(","))
        if len(players) != 2:
            raise UsageError(f"--players takes two players separated by a comma, e.g. {squadless}")
        return SimulateRequest(None, args.board_games or 10, (players[0], players[1]),
                               1 if args.seed is None else args.seed, args.jobs or 1)
    if not args.board:
        if given:  # silently ignored, they would look like they had done something
            named = ", ".join("--" + name.replace("_", "-") for name in given)
            raise UsageError(f"{named} only apply to the board-level section: add --board")
        return None
    value = {name: BOARD_DEFAULTS[name] if getattr(args, name) is None else getattr(args, name)
             for name in BOARD_DEFAULTS}
    players = tuple(name.strip() for name in value["players"].split(","))
    if len(players) != 2:
        raise UsageError("--players takes two players separated by a comma, e.g. greedy,greedy")
    ladder = tuple(name.strip() for name in value["ladder"].split(",") if name.strip())
    if ladder == ("none",):
        ladder = ()
    return SimulateRequest(None, value["board_games"], (players[0], players[1]), value["seed"], value["jobs"],
                           ladder=ladder, baseline_name="" if value["baseline"] is None else str(value["baseline"]))


def _with_baseline(board: SimulateRequest | None, game_id: str) -> SimulateRequest | None:
    """The board request with the baseline project's data of this game (None when it has none)."""
    if board is None or board.baseline_name == "":
        return board
    found, _ = discover(Path(board.baseline_name))
    for game, where in found:
        if game.id == game_id:
            return replace(board, baseline=game.load(where), baseline_name=one_line(board.baseline_name)[:80])
    raise UsageError(f"--baseline {one_line(board.baseline_name)[:80]} has no {game_id} data")


def run(args: argparse.Namespace) -> int:
    board = _board_request(args)  # before anything is loaded or written
    if args.skip_invalid:
        selected, _ = select_games(args, "balance")
        loaded = [(game, game.load(where)) for game, where in selected]
    else:
        valid = load_valid(args, "balance")
        if valid is None:
            err("(`duelkit balance --skip-invalid` leaves out the units with problems instead)")
            return EXIT_PROBLEMS
        loaded = valid
    with output_folder(args, "balance", [game.id for game, _ in loaded]) as folder, ProgressBar("runs") as bar:
        for game, data in loaded:
            written = game.balance(data, args.paper, _with_baseline(board, game.id), bar.update)
            target = folder.replace(game.id, written.files)
            out(f"{game.id}: {written.note}; wrote {target}/")
            for line in written.lines:
                out(line)
    return EXIT_OK
