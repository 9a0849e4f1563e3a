"""`duelkit play`: one game in the terminal, a person against a player or two players unattended."""

from __future__ import annotations

import argparse
import secrets
import sys
from functools import partial
from pathlib import Path
from typing import Any

from toolkit.cli.common import EXIT_OK, EXIT_PROBLEMS, add_command, check_writable, err, out, write_atomically
from toolkit.cli.prompt import InputEnded, Prompt
from toolkit.errors import UsageError
from toolkit.game import Game, GameData, NotApplicable, PlayRequest
from toolkit.registry import discover

PLAYER_CHOICES = "human,random"  # the default: a person against the random bot


def add_parser(commands: Any) -> None:
    play = add_command(commands, "play", "play one game in the terminal (or random against random)",
                       ["duelkit play attrition-lock grid-surge",
                        "duelkit play attrition-lock grid-surge --players human,greedy",
                        "duelkit play hydro-conductor malfunction-cascade --players random,random --seed 7 "
                        "--record game.jsonl"])
    play.add_argument("squad_a", metavar="SQUAD_A", help="side A's squad id")
    play.add_argument("squad_b", metavar="SQUAD_B", help="side B's squad id")
    play.add_argument("data_dir", nargs="?", type=Path, metavar="DATA_DIR",
                      help="project folder (default: the bundled databases)")
    play.add_argument("--players", default=PLAYER_CHOICES, metavar="P,Q",
                      help="who plays A and B, each human or a bot: random, greedy, search, search:N (iterations) "
                           "or search:Nms (default: human,random)")
    play.add_argument("--seed", type=int, metavar="S", help="seed for the spins (default: a fresh one, printed)")
    play.add_argument("--first", choices=("A", "B"), help="who moves first (default: a seeded spin decides)")
    play.add_argument("--record", type=Path, metavar="FILE", help="write the game record (JSON lines) here")
    play.set_defaults(run=run)


class _Quit(Exception):
    """The person at the terminal stopped the game."""


def find_squads(data_dir: Path | None, squads: list[str], command: str) -> tuple[Game, GameData]:
    """The one game whose data holds every squad named."""
    found, _ = discover(data_dir)
    playable = [(game, where) for game, where in found if game.supports(command)]
    if found and not playable:
        raise NotApplicable(found[0][0].why_not(command))
    known: list[str] = []
    for game, where in playable:
        data = game.load(where)
        held = game.squad_ids(data)
        if set(squads) <= set(held):
            return game, data
        known += [f"{squad} ({game.id})" for squad in held]
    raise UsageError(f"no game in {data_dir or 'the bundled data'} has both squads "
                     f"{' and '.join(repr(s) for s in squads)}; squads: {', '.join(known) or 'none'}")


def _choose(prompt: Prompt, lines: list[str], options: list[tuple[str, str]]) -> int:
    """Show the board and numbered options (a group's options packed under its heading); read a number (q quits)."""
    for line in lines:
        out(line)
    for shown in option_lines(options):
        out(shown)
    while True:
        out(f"choose 1-{len(options)} (q to quit): ")
        sys.stdout.flush()
        try:
            text = prompt.read_line()
        except InputEnded:
            raise _Quit("input ended before the game did") from None
        if text is not None and text.lower() in ("q", "quit", "exit"):
            raise _Quit("stopped by the player")
        chosen = prompt.choice(text, len(options))
        if isinstance(chosen, int):
            return chosen
        out(chosen)


def option_lines(options: list[tuple[str, str]], width: int = 100) -> list[str]:
    """Numbered options; those of one group share lines under its heading, as many as fit in `width`."""
    lines: list[str] = []
    group = None
    for number, (heading, label) in enumerate(options, start=1):
        item = f"{number:>3}. {label}"
        if not heading:
            lines.append("  " + item)
            group = None
            continue
        if heading != group:
            lines += [f"  {heading}", "    " + item]
            group = heading
        elif len(lines[-1]) + 3 + len(item) <= width:
            lines[-1] += "   " + item
        else:
            lines.append("    " + item)
    return lines


def run(args: argparse.Namespace) -> int:
    players = tuple(name.strip() for name in args.players.split(","))
    if len(players) != 2:
        raise UsageError(f"--players takes two players separated by a comma, e.g. {PLAYER_CHOICES}")
    if args.record:
        check_writable(args.record)  # before the game, so a game played by hand is not lost at the end
    game, data = find_squads(args.data_dir, [args.squad_a, args.squad_b], "play")
    seed = args.seed if args.seed is not None else secrets.randbelow(2**31)
    request = PlayRequest(args.squad_a, args.squad_b, (players[0], players[1]), seed, args.first,
                          None if args.data_dir is None else str(args.data_dir))
    try:
        record = game.play(data, request, out, partial(_choose, Prompt(sys.stdin)))
    except _Quit as stop:
        err(f"duelkit: game not finished: {stop}" + ("; no record written" if args.record else ""))
        return EXIT_PROBLEMS
    if args.record:
        write_atomically(args.record, record)
        out(f"record written to {args.record} (`duelkit replay {args.record}` re-checks it)")
    return EXIT_OK
