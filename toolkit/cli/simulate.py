"""`duelkit simulate`: self-play between two squads (or every squad against every squad), with honest statistics."""

from __future__ import annotations

import argparse
import json
import secrets
import sys
from contextlib import ExitStack
from pathlib import Path
from types import TracebackType
from typing import Any

from toolkit.cli.common import (
    BUNDLED_NOTE,
    EXIT_OK,
    add_command,
    err,
    out,
    output_folder,
    resolve_project,
    squadless_project,
)
from toolkit.cli.play import find_squads, squads_hint
from toolkit.errors import UsageError
from toolkit.game import Game, GameData, NotApplicable, SimulateRequest, SimulateResult
from toolkit.registry import discover
from toolkit.terminal import one_line

DEFAULT_GAMES = 200
DEFAULT_CAP = 10_000  # --until-ci without --games stops here at the latest
# the default skill ladder: random play, the greedy bot, then the search at doubling budgets, the top one a
# quarter of its default (bots/search.DEFAULT_ITERATIONS; a test ties them; importing the bots here would slow
# every command). `balance --board` plays every match at every rung: the default budget there would take half
# an hour for a two-squad theme on a shared machine; `--ladder random,greedy,search:40,search:80` goes higher.
LADDER = ("random", "greedy", "search:10", "search:20")
DEFAULT_PLAYERS = "greedy,greedy"


def add_parser(commands: Any) -> None:
    simulate = add_command(
        commands, "simulate", "self-play: win rates with Wilson intervals, first-player edge, what decided the games",
        ["duelkit simulate hydro-conductor malfunction-cascade --games 400 --jobs 2",
         "duelkit simulate --round-robin --players greedy,greedy --out playtest",
         "duelkit simulate                   # in a card-duel project: equilibrium,greedy duels",
         "duelkit simulate --players equilibrium,random --builds glass-cannon,tank --techniques irimi+mushin"],
        ["Games are played in seat-swapped pairs that share their dice, so luck cancels between the seats.",
         "A project of the card duel has no squads: whole duels (draft, builds, turns) with the two players taking "
         "turns as the Challenger."])
    simulate.add_argument("args", nargs="*", metavar="SQUAD_A SQUAD_B [DATA_DIR]",
                          help="the two squads and the project folder (with --round-robin, or in a card-duel "
                               "project: only [DATA_DIR])")
    simulate.add_argument("--round-robin", action="store_true", help="every squad against every squad")
    simulate.add_argument("--games", type=int, metavar="N",
                          help=f"games per match, an even number (default {DEFAULT_GAMES}; with --until-ci the cap, "
                               f"default {DEFAULT_CAP})")
    simulate.add_argument("--players", metavar="P,Q",
                          help="who plays A and B: random, greedy, search, search:N (budget: turns played out) or "
                               "search:Nms (default greedy,greedy); the card duel: random, greedy, equilibrium, "
                               "equilibrium:N (default equilibrium,greedy)")
    simulate.add_argument("--builds", metavar="A[,B]",
                          help="card duel: fix the players' builds (build ids or Speed/Strength/Defense, e.g. 1/4/1)")
    simulate.add_argument("--techniques", metavar="X+Y[,Z+W]",
                          help="card duel: fix the players' hands instead of drafting (one id: that technique twice)")
    simulate.add_argument("--seed", type=int, metavar="S", help="root seed (default: a fresh one, printed)")
    simulate.add_argument("--jobs", type=int, default=1, metavar="K", help="local processes (default 1)")
    simulate.add_argument("--cluster", metavar="auto|ADDRESS",
                          help="play the games as Ray tasks: auto (the cluster Ray finds), an address such as "
                               "ray://head:10001, or local (a Ray instance on this machine); needs duelkit[cluster]")
    simulate.add_argument("--rules", nargs="+", default=[], metavar="NAME=VALUE",
                          help="rules switches, e.g. turn_limit=200 lockout=off")
    simulate.add_argument("--until-ci", type=float, metavar="W",
                          help="stop once both win-rate intervals are narrower than W (e.g. 0.05), checked "
                               "every 100 games")
    simulate.add_argument("--ladder", nargs="?", const=",".join(LADDER), metavar="P,Q,...",
                          help="play the match once per rung, each bot against itself, weakest first, and say "
                               "whether the verdict holds as the bots get stronger (default rungs: "
                               + ", ".join(LADDER) + ")")
    simulate.add_argument("--baseline", type=Path, metavar="OTHER_PROJECT",
                          help="play the same seeds on another version of the data and report each squad's "
                               "win-rate change with a paired interval")
    simulate.add_argument("--json", action="store_true", help="print one JSON object instead of text")
    simulate.add_argument("--out", type=Path, metavar="DIR",
                          help="also write playtest.pdf, games.csv and the first game records under DIR")
    simulate.set_defaults(run=run, bundled_note=BUNDLED_NOTE)


class ProgressBar:
    """A progress bar with the time left on an interactive terminal; nothing at all when standard error is
    piped (`balance --board` uses it too)."""

    def __init__(self, unit: str = "games") -> None:
        self.bar: Any = None
        self.task: Any = None
        self.unit = unit

    def __enter__(self) -> ProgressBar:
        if sys.stderr.isatty():
            from rich.console import Console
            from rich.progress import BarColumn, Progress, TextColumn, TimeRemainingColumn

            self.bar = Progress(TextColumn("{task.description}"), BarColumn(), TextColumn("time left"),
                                TimeRemainingColumn(), console=Console(stderr=True), transient=True)
            self.bar.start()
            self.task = self.bar.add_task(self.unit, total=None)
        return self

    def update(self, done: int, total: int) -> None:
        if self.bar is not None:
            self.bar.update(self.task, completed=done, total=total, description=f"{done}/{total} {self.unit}")

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None,
                 trace: TracebackType | None) -> None:
        if self.bar is not None:
            self.bar.stop()


def _squadless(args: argparse.Namespace) -> list[tuple[Game, GameData, tuple[str, str] | None]] | None:
    """The game of a project without squads (the card duel), when that is what [DATA_DIR] or the folder here
    holds; None otherwise (the squad forms apply)."""
    if len(args.args) > 1:
        return None
    project = squadless_project(args.args[0] if args.args else None)
    if project is None:
        return None
    folder, found = project
    if args.round_robin:
        raise UsageError(f"{found[0][0].id} has no squads to play a round robin of: leave out --round-robin")
    args.data_dir = folder
    return [(game, game.load(where), None) for game, where in found if game.supports("simulate")]


def _games_to_run(args: argparse.Namespace) -> list[tuple[Game, GameData, tuple[str, str] | None]]:
    squadless = _squadless(args)
    if squadless is not None:
        return squadless
    if args.round_robin:
        if len(args.args) > 1:
            raise UsageError("simulate --round-robin takes at most a DATA_DIR (no squads)")
        args.data_dir = Path(args.args[0]) if args.args else None
        resolve_project(args)
        found, _ = discover(args.data_dir)
        playable = [(game, where) for game, where in found if game.supports("simulate") and game.has_squads]
        if found and not playable:
            raise NotApplicable(found[0][0].why_not("simulate"))
        return [(game, game.load(where), None) for game, where in playable]
    if len(args.args) not in (2, 3):
        raise UsageError("simulate takes SQUAD_A SQUAD_B [DATA_DIR] (or --round-robin [DATA_DIR])"
                         + squads_hint(args, "simulate"))
    args.data_dir = Path(args.args[2]) if len(args.args) == 3 else None
    resolve_project(args)  # no DATA_DIR: the project you stand in, as for every command
    squads = (args.args[0], args.args[1])
    game, data = find_squads(args.data_dir, list(squads), "simulate")
    return [(game, data, squads)]


def _ladder(args: argparse.Namespace) -> tuple[str, ...] | None:
    if args.ladder is None:
        return None
    ladder = tuple(name.strip() for name in args.ladder.split(",") if name.strip())
    if len(ladder) < 2:
        raise UsageError("--ladder takes at least two rungs, e.g. --ladder random,greedy,search")
    return ladder


def _baseline(args: argparse.Namespace, squads: tuple[str, str] | None) -> tuple[GameData | None, str]:
    """The other project's data for --baseline (same squads), and its name for the report."""
    if args.baseline is None:
        return None, ""
    if squads is None:
        raise UsageError("--baseline compares one match: name SQUAD_A SQUAD_B")
    _, baseline = find_squads(args.baseline, list(squads), "simulate")
    return baseline, one_line(str(args.baseline))[:80]


def run(args: argparse.Namespace) -> int:
    games = args.games if args.games is not None else (DEFAULT_CAP if args.until_ci is not None else DEFAULT_GAMES)
    todo = _games_to_run(args)  # the squads and data first: a usage error comes without a seed line
    default = todo[0][0].default_players.get("simulate", DEFAULT_PLAYERS) if todo else DEFAULT_PLAYERS
    players = tuple(name.strip() for name in (args.players or default).split(","))
    if len(players) != 2:
        raise UsageError("--players takes two players separated by a comma, e.g. greedy,search")
    seed = args.seed if args.seed is not None else secrets.randbelow(2**31)
    if args.seed is None:
        err(f"seed {seed} (pass --seed {seed} to play the same games again)")
    ladder = _ladder(args)
    baseline, baseline_name = _baseline(args, todo[0][2])
    requests = [(game, data, SimulateRequest(squads, games, (players[0], players[1]), seed, args.jobs,
                                             tuple(args.rules), args.until_ci, args.cluster, args.out is not None,
                                             data=None if args.data_dir is None else str(args.data_dir),
                                             ladder=ladder, baseline=baseline, baseline_name=baseline_name,
                                             builds=args.builds, techniques=args.techniques))
                for game, data, squads in todo]
    with ExitStack() as stack:
        folder = None
        if args.out is not None:  # checked and locked before the games, so no result is lost to a bad --out
            names = [name for game, data, request in requests for name in game.simulate_folders(data, request)]
            folder = stack.enter_context(output_folder(args, "", names))
        results: list[tuple[Game, SimulateResult]] = []
        with ProgressBar() as bar:
            for game, data, request in requests:
                results.append((game, game.simulate(data, request, bar.update)))
        for _, result in results:
            for name, files in result.files.items():
                if folder is not None:
                    target = folder.replace(name, files)
                    err(f"wrote {target}/ ({', '.join(sorted(files)[:3])}{' ...' if len(files) > 3 else ''})")
    if args.json:
        summaries = [result.summary for _, result in results]
        out(json.dumps(summaries[0] if not args.round_robin else {"round_robin": summaries}, indent=2))
    else:
        for number, (_, result) in enumerate(results):
            if number:
                out()
            for line in result.lines:
                out(line)
    return EXIT_OK
