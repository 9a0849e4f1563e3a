"""`duelkit play`: one game in the terminal, a person against a player or two players unattended."""

from __future__ import annotations

import argparse
import secrets
import sys
from functools import partial
from pathlib import Path
from typing import Any

from toolkit.cli.common import (
    EXIT_OK,
    EXIT_PROBLEMS,
    add_command,
    check_writable,
    err,
    ids_hint,
    out,
    resolve_project,
    squadless_project,
    write_atomically,
)
from toolkit.cli.prompt import InputEnded, Prompt
from toolkit.errors import DuelkitError, UsageError
from toolkit.game import Game, GameData, NotApplicable, PlayRequest
from toolkit.registry import discover

PLAYER_CHOICES = "human,random"  # the default: a person against the random bot


def add_parser(commands: Any) -> None:
    play = add_command(commands, "play", "play one game in the terminal (or random against random)",
                       ["duelkit play attrition-lock grid-surge",
                        "duelkit play attrition-lock grid-surge --players human,greedy",
                        "duelkit play hydro-conductor malfunction-cascade --players random,random --seed 7 "
                        "--record game.jsonl",
                        "duelkit play                        # in a card-duel project: you against its best player",
                        "duelkit play --players human,human  # card-duel hot-seat: the screen clears between "
                        "secret choices"])
    play.add_argument("args", nargs="*", metavar="SQUAD_A SQUAD_B [DATA_DIR]",
                      help="the two squads and the project folder (in a card-duel project: only [DATA_DIR])")
    play.add_argument("--players", metavar="P,Q",
                      help="who plays A and B, each human or a bot: random, greedy, search, search:N (iterations) "
                           "or search:Nms (default: human,random); the card duel: human, random, greedy, "
                           "equilibrium, equilibrium:N (default: human,equilibrium; A is the Challenger)")
    play.add_argument("--seed", type=int, metavar="S", help="seed for the spins (default: a fresh one, printed)")
    play.add_argument("--first", choices=("A", "B"), help="who moves first (default: a seeded spin decides)")
    play.add_argument("--record", type=Path, metavar="FILE", help="write the game record (JSON lines) here")
    play.set_defaults(run=run, data_dir=None)


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


def squads_hint(args: argparse.Namespace, command: str) -> str:
    """The squads of the project named or stood in (else the bundled data), as a hint after the usage line, so
    a designer who typed only the command learns what to type next; empty when there is no such project."""
    if len(args.args) > 1:
        return ""
    named = Path(args.args[0]) if args.args else None
    args.data_dir = named if named is not None and named.is_dir() else None  # one word may be a squad's name
    try:
        resolve_project(args)
        found, _ = discover(args.data_dir)
        held = [squad for game, where in found if game.has_squads for squad in game.squad_ids(game.load(where))]
    except DuelkitError:
        return ""
    return ids_hint("squads", held, command)


def _choose(prompt: Prompt, lines: list[str], options: list[tuple[str, str]]) -> int:
    """Show the board and numbered options (a group's options packed under its heading); read a number (q quits)."""
    for line in lines:
        out(line)
    for shown in option_lines(options):
        out(shown)
    while True:
        out(f"choose 1-{len(options)} (q to quit): ")
        text = _answer(prompt)
        chosen = prompt.choice(text, len(options))
        if isinstance(chosen, int):
            return chosen
        out(chosen)


def _answer(prompt: Prompt) -> str | None:
    """The player's next line; quitting (q, quit, exit, or the input ending) stops the game."""
    sys.stdout.flush()
    try:
        text = prompt.read_line()
    except InputEnded:
        raise _Quit("input ended before the game did") from None
    if text is not None and text.lower() in ("q", "quit", "exit"):
        raise _Quit("stopped by the player")
    return text


def _handover(prompt: Prompt, message: str) -> None:
    """Hot-seat: clear the screen (so nothing of the last secret choice shows) and wait for the player."""
    if sys.stdout.isatty():
        sys.stdout.write("\x1b[2J\x1b[H")  # the terminal's own clear-screen, never data text
    else:
        out("\n" * 40)
    out(message)
    out("press Enter when ready (q to quit)")
    _answer(prompt)
    if sys.stdout.isatty():
        sys.stdout.write("\x1b[2J\x1b[H")


def _game_and_squads(args: argparse.Namespace) -> tuple[Game, GameData, tuple[str, str]]:
    squadless = squadless_project(args.args[0] if args.args else None) if len(args.args) <= 1 else None
    if squadless is not None:
        folder, found = squadless
        game, where = found[0]
        if not game.supports("play"):
            raise NotApplicable(game.why_not("play"))
        args.data_dir = folder
        return game, game.load(where), ("", "")
    if len(args.args) not in (2, 3):
        raise UsageError("play takes SQUAD_A SQUAD_B [DATA_DIR] (in a card-duel project: only [DATA_DIR])"
                         + squads_hint(args, "play"))
    args.data_dir = Path(args.args[2]) if len(args.args) == 3 else args.data_dir
    game, data = find_squads(args.data_dir, [args.args[0], args.args[1]], "play")
    return game, data, (args.args[0], args.args[1])


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
    if args.record:
        check_writable(args.record)  # before the game, so a game played by hand is not lost at the end
    game, data, squads = _game_and_squads(args)
    default = game.default_players.get("play", PLAYER_CHOICES)
    players = tuple(name.strip() for name in (args.players or default).split(","))
    if len(players) != 2:
        raise UsageError(f"--players takes two players separated by a comma, e.g. {default}")
    seed = args.seed if args.seed is not None else secrets.randbelow(2**31)
    request = PlayRequest(squads[0], squads[1], (players[0], players[1]), seed, args.first,
                          None if args.data_dir is None else str(args.data_dir))
    try:
        prompt = Prompt(sys.stdin)
        record = game.play(data, request, out, partial(_choose, prompt), partial(_handover, prompt))
    except _Quit as stop:
        err(f"duelkit: game not finished: {stop}" + ("; no record written" if args.record else ""))
        return EXIT_PROBLEMS
    if args.record:
        write_atomically(args.record, record)
        out(f"record written to {args.record} (`duelkit replay {args.record}` re-checks it)")
    return EXIT_OK
