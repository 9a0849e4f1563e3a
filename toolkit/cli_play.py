"""`duelkit play` and `duelkit replay`: a game in the terminal, and re-checking a game record.

Functions take the parsed arguments and return an exit code; this module does all their printing.
"""

from __future__ import annotations

import argparse
import os
import random
import secrets
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

from toolkit.database import Database, find_datasets, load_database
from toolkit.figure.engine import CHANCE, GameState, build_game
from toolkit.figure.engine.actions import Action
from toolkit.figure.engine.play import random_player, sample_outcome
from toolkit.figure.engine.record import (
    Recorder,
    RecordError,
    make_header,
    parse_record,
    record_rules,
    replay,
)
from toolkit.figure.engine.render_text import (
    describe_action,
    describe_outcome,
    describe_spin,
    render_board,
    safe,
)
from toolkit.figure.engine.setup import SetupError
from toolkit.figure.engine.tables import SIDE_NAMES
from toolkit.problems import DuelkitError, UsageError
from toolkit.report import summary

EXIT_OK, EXIT_FAILED, EXIT_QUIT = 0, 1, 1
PLAYER_KINDS = ("human", "random")


def _out(text: str = "") -> None:
    print(text, flush=True)


def _err(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


class Quit(Exception):
    """The person at the terminal stopped the game."""


def _database_with(data_dir: Path | None, squad_a: str, squad_b: str) -> Database:
    """The one database (theme) that holds both squads; its data must be free of errors."""
    datasets, _ = find_datasets(data_dir)
    found = []
    known: list[str] = []
    for dataset in datasets:
        database = load_database(dataset)
        known += [f"{sid} ({dataset.theme_id})" for sid in database.squads]
        if squad_a in database.squads and squad_b in database.squads:
            found.append(database)
    if not found:
        where = data_dir or "the bundled data"
        raise UsageError(f"no theme in {where} has both squads '{safe(squad_a, 60)}' and '{safe(squad_b, 60)}'; "
                         f"squads: {', '.join(known) or 'none'}")
    database = found[0]
    errors = [p for p in database.problems if p.is_error]
    if errors:
        raise DuelkitError(f"the {database.theme.id} data has problems ({summary(database.problems)}); "
                           "`duelkit validate` lists them")
    return database


def _players(spec: str) -> list[str]:
    names = [name.strip() for name in spec.split(",")]
    if len(names) != 2 or any(name not in PLAYER_KINDS for name in names):
        raise UsageError(f"--players takes two of {', '.join(PLAYER_KINDS)} separated by a comma, "
                         f"e.g. human,random (got '{safe(spec, 60)}')")
    return names


def _ask(state: GameState, read: Callable[[], str | None]) -> Action:
    """Show the board and the numbered legal actions; read a number (or q to quit)."""
    legal = state.legal_actions()
    _out("")
    _out(render_board(state))
    _out("")
    _out(f"turn {state.turn + 1}, player {SIDE_NAMES[state.current_player]} to act:")
    for number, action in enumerate(legal, start=1):
        _out(f"  {number:>3}. {describe_action(state, action)}")
    while True:
        _out(f"choose 1-{len(legal)} (q to quit): ")
        line = read()
        if line is None:
            raise Quit("input ended before the game did")
        text = line.strip().lower()
        if text in ("q", "quit", "exit"):
            raise Quit("stopped by the player")
        if text.isdigit() and 1 <= int(text) <= len(legal):
            return legal[int(text) - 1]
        _out(f"'{safe(text, 20)}' is not a number from 1 to {len(legal)}")


def _read_line() -> str | None:
    line = sys.stdin.readline()
    return line if line else None


def cmd_play(args: argparse.Namespace) -> int:
    kinds = _players(args.players)
    database = _database_with(args.data_dir, args.squad_a, args.squad_b)
    seed = args.seed if args.seed is not None else secrets.randbelow(2**31)
    rng = random.Random(seed)
    first = rng.randrange(2) if args.first is None else SIDE_NAMES.index(args.first)
    try:
        game = build_game(args.squad_a, args.squad_b, database)
    except SetupError as exc:
        raise DuelkitError(str(exc)) from None
    state = GameState.initial(game, first)
    data = None if args.data_dir is None else str(args.data_dir)
    recorder = Recorder(make_header(game, data=data, seed=seed, players=kinds, first=first))
    watching = "human" in kinds
    _out(f"{game.theme.terms.game}: {args.squad_a} (A) against {args.squad_b} (B), seed {seed}; "
         f"{SIDE_NAMES[first]} moves first")
    try:
        while not state.is_terminal():
            player = state.current_player
            step: Action | int
            if player == CHANCE:
                step = outcome = sample_outcome(state, rng)
                if watching:
                    _out("  " + describe_spin(state, outcome))
            elif kinds[player] == "human":
                step = _ask(state, _read_line)
            else:
                step = random_player(state, rng)
                if watching:
                    _out(f"{SIDE_NAMES[player]}: {describe_action(state, step)}")
            recorder.on_step(state, step)
            state.apply(step)
    except Quit as stop:
        _err(f"duelkit: game not finished: {stop}" + ("; no record written" if args.record else ""))
        return EXIT_QUIT
    recorder.finish(state)
    _out("")
    _out(render_board(state))
    _out("")
    _out(describe_outcome(state))
    if args.record:
        _write_text(args.record, recorder.text())
        _out(f"record written to {args.record} (`duelkit replay {args.record}` re-checks it)")
    return EXIT_OK


def _write_text(path: Path, text: str) -> None:
    """Write beside the target, then rename: never a half-written record."""
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.is_dir():
        raise UsageError(f"cannot write {path}: folder '{folder}' does not exist")
    try:
        handle, tmp = tempfile.mkstemp(prefix=".duelkit-", suffix=".tmp", dir=folder)
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            stream.write(text)
        os.replace(tmp, path)
    except OSError as exc:
        raise DuelkitError(f"cannot write {path}: {exc.strerror or exc}") from None


def cmd_replay(args: argparse.Namespace) -> int:
    path: Path = args.file
    if not path.is_file():
        raise UsageError(f"record file '{path}' does not exist or is not a file")
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise DuelkitError(f"{path}: not a game record (not UTF-8 text)") from None
    except OSError as exc:
        raise DuelkitError(f"cannot read {path}: {exc.strerror or exc}") from None
    if args.turn is not None and args.turn < 1:
        raise UsageError("--turn is a turn number from 1")
    try:
        record = parse_record(text)
        rules = record_rules(record)
    except RecordError as exc:
        raise DuelkitError(f"{path}: {exc}") from None
    header = record.header
    data_dir = args.data if args.data is not None else (None if header.get("data") is None else Path(header["data"]))
    squad_a, squad_b = header["squads"]
    database = _database_with(data_dir, squad_a, squad_b)
    if database.theme.id != header["theme"]:
        raise DuelkitError(f"{path}: the record is for theme '{safe(header['theme'], 40)}', "
                           f"but its squads are found in '{database.theme.id}'")
    try:
        game = build_game(squad_a, squad_b, database, rules)
    except SetupError as exc:
        raise DuelkitError(f"{path}: {exc}") from None
    if game.data_hash != header["data_hash"]:
        raise DuelkitError(f"{path}: the unit or module data has changed since this game was recorded "
                           f"(data hash {game.data_hash}, recorded {safe(header['data_hash'], 40)}); "
                           "replay it against the data it was played with (--data DIR)")
    result = replay(record, game, args.turn)
    shown = result.at_turn if args.turn is not None and result.at_turn is not None else result.state
    where = f"at the start of turn {args.turn}" if shown is result.at_turn else "at the end"
    _out(f"{game.theme.terms.game}: {squad_a} (A) against {squad_b} (B); {result.checked} lines re-checked")
    _out("")
    _out(f"the board {where}:")
    _out(render_board(shown))
    _out("")
    if result.divergence is not None:
        _out(describe_outcome(result.state) if result.state.is_terminal() else
             f"replayed up to turn {result.state.turn + 1}")
        _err(f"{path}:{result.divergence.line}: the record diverges: {result.divergence.message}")
        return EXIT_FAILED
    if args.turn is not None and result.at_turn is None:
        _out(f"(the game ended before turn {args.turn})")
    _out(describe_outcome(result.state))
    if result.result_matches is None:
        _out("(the record has no result line: an unfinished game)")
    else:
        _out(f"state hash {result.state.state_hash()} matches the record")
    return EXIT_OK


def register(commands) -> None:
    """The `play` and `replay` subcommands (called from toolkit.cli.build_parser)."""
    play = commands.add_parser("play", help="play one game in the terminal (or random against random)")
    play.add_argument("squad_a", metavar="SQUAD_A")
    play.add_argument("squad_b", metavar="SQUAD_B")
    play.add_argument("data_dir", nargs="?", type=Path, metavar="DATA_DIR",
                      help="project folder (default: the bundled databases)")
    play.add_argument("--players", default="human,random", metavar="P,Q",
                      help=f"who plays A and B: {', '.join(PLAYER_KINDS)} (default: human,random)")
    play.add_argument("--seed", type=int, metavar="S", help="seed for the spins (default: a fresh one, printed)")
    play.add_argument("--first", choices=SIDE_NAMES, help="who moves first (default: a seeded spin decides)")
    play.add_argument("--record", type=Path, metavar="FILE", help="write the game record (JSON lines) here")
    play.set_defaults(run=cmd_play)
    again = commands.add_parser("replay", help="re-check a game record and print the board")
    again.add_argument("file", type=Path, metavar="FILE")
    again.add_argument("--turn", type=int, metavar="N", help="show the board at the start of turn N")
    again.add_argument("--data", type=Path, metavar="DATA_DIR", help="the data the game was played with "
                       "(default: as the record says)")
    again.set_defaults(run=cmd_replay)
