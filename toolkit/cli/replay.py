"""`duelkit replay`: re-check a game record against the rules and print the board."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from toolkit.cli.common import BUNDLED_NOTE, EXIT_OK, EXIT_PROBLEMS, add_command, err, out, resolve_project
from toolkit.cli.play import find_squads
from toolkit.errors import DuelkitError, UsageError
from toolkit.game import Game, GameData
from toolkit.registry import discover
from toolkit.terminal import terminal_safe

MAX_RECORD_BYTES = 64 * 1024 * 1024  # a 300-turn game is about 100 KB; anything far larger is not a record
MAX_HEADER_CHARS = 100_000  # a record's first line is a few hundred characters


def add_parser(commands: Any) -> None:
    again = add_command(commands, "replay", "re-check a game record and print the board",
                       ["duelkit replay game.jsonl", "duelkit replay game.jsonl --turn 12 --data mygame"])
    again.add_argument("file", type=Path, metavar="FILE", help="the game record (JSON lines)")
    again.add_argument("--turn", type=int, metavar="N", help="show the board at the start of turn N")
    again.add_argument("--data", type=Path, metavar="DATA_DIR", help="the data the game was played with "
                       "(default: the project you are in)")
    again.set_defaults(run=run, bundled_note=BUNDLED_NOTE)


def _read(path: Path) -> str:
    if not path.is_file():
        raise UsageError(f"record file '{path}' does not exist or is not a file")
    try:
        if path.stat().st_size > MAX_RECORD_BYTES:
            raise DuelkitError(f"{path}: {path.stat().st_size} bytes is too large for a game record")
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise DuelkitError(f"{path}: not a game record (not UTF-8 text)") from None
    except OSError as exc:
        raise DuelkitError(f"cannot read {path}: {exc.strerror or exc}") from None


def _header(path: Path, text: str) -> tuple[list[str] | str, str | None]:
    """The squads (or, for a game without squads, its id) and data folder the record's first line names."""
    end = text.find("\n", 0, MAX_HEADER_CHARS + 1)
    first = text[:MAX_HEADER_CHARS + 1] if end < 0 else text[:end]
    if len(first) > MAX_HEADER_CHARS:
        raise DuelkitError(f"{path}: line 1: longer than {MAX_HEADER_CHARS:,} characters; a game record starts "
                           "with its JSON header of a few hundred")
    try:
        header = json.loads(first)
    except (ValueError, RecursionError) as exc:  # RecursionError: arrays nested thousands deep
        raise DuelkitError(f"{path}: line 1: not JSON ({exc}); a game record starts with its JSON header") from None
    if isinstance(header, dict) and "squads" not in header and isinstance(header.get("game"), str):
        data = header.get("data")
        return header["game"], data if isinstance(data, str) else None
    try:
        squads = header["squads"]
        data = header.get("data")
        if not (isinstance(squads, list) and len(squads) == 2 and all(isinstance(s, str) for s in squads)):
            raise TypeError
        if data is not None and not isinstance(data, str):
            raise TypeError
    except (ValueError, KeyError, TypeError):
        raise DuelkitError(f"{path}:1: not a game record (the first line must be its JSON header with "
                           "`squads`)") from None
    return squads, data


def _game_of(data_dir: Path | None, game_id: str) -> tuple[Game, GameData]:
    """The project's game a squadless record names (the card duel)."""
    found, _ = discover(data_dir)
    for game, where in found:
        if game.id == game_id and game.supports("replay"):
            return game, game.load(where)
    held = ", ".join(game.id for game, _ in found) or "none"
    raise UsageError(f"the record is a {terminal_safe(game_id)[:40]} game, but {data_dir or 'the bundled data'} "
                     f"holds {held}; run replay in that game's project or give it as --data")


def run(args: argparse.Namespace) -> int:
    path: Path = args.file
    if args.turn is not None and args.turn < 1:
        raise UsageError("--turn is a turn number from 1")
    text = _read(path)
    squads, recorded = _header(path, text)
    # the data is the project you stand in (or --data), never the folder the record names: a record is a
    # file anyone can send, and its path could point anywhere; it is only named in the hint below
    args.data_dir = args.data
    resolve_project(args)
    hint = (f" (the record was played with the data in '{recorded}': give that folder as --data)"
            if recorded and args.data is None else "")
    try:
        if isinstance(squads, str):
            game, data = _game_of(args.data_dir, squads)
        else:
            game, data = find_squads(args.data_dir, squads, "replay")
    except UsageError as exc:
        raise UsageError(f"{exc}{hint}") from None
    try:
        result = game.replay(data, text, args.turn)
    except DuelkitError as exc:
        raise DuelkitError(f"{path}: {exc}{hint}") from None
    for line in result.lines:
        out(line)
    if result.divergence is not None:
        err(f"{path}:{result.divergence}")
        return EXIT_PROBLEMS
    return EXIT_OK
