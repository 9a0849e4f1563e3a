"""`duelkit odds`: the exact chances of one battle, in the one game whose data holds both units."""

from __future__ import annotations

import argparse
import difflib
from pathlib import Path
from typing import Any

from toolkit.cli.common import BUNDLED_NOTE, EXIT_OK, add_command, ids_hint, out
from toolkit.errors import DuelkitError, UsageError
from toolkit.game import Game, GameData, NotApplicable, OddsRequest
from toolkit.registry import discover, find_game, game_ids


def add_parser(commands: Any) -> None:
    odds = add_command(commands, "odds", "exact battle outcome probabilities", [
        "duelkit odds v-k4 sq-7",
        "duelkit odds v-k4 sq-7 --defender-status paralysis --module x-attack",
        "duelkit odds v-k4 sq-7 --attacker-stage 1 --json",
        "duelkit odds v-k4 --vs all          # v-k4 attacking every other unit, best matchup first"])
    odds.add_argument("unit_a", metavar="UNIT_A", nargs="?", help="attacker id")
    odds.add_argument("unit_b", metavar="UNIT_B", nargs="?", help="defender id (or use --vs)")
    odds.add_argument("--vs", metavar="ID|all",
                      help="the defender; `all` ranks UNIT_A against every other unit (knocks out, effect, "
                           "dodges and being knocked out in separate columns)")
    odds.add_argument("--data", dest="data_dir", type=Path, metavar="DATA_DIR",
                      help="project folder (default: the project here or above, else the bundled demo games)")
    odds.add_argument("--theme", choices=game_ids(),
                      help="the theme whose units these are, when both themes of the bundled data have them")
    odds.add_argument("--attacker-status", metavar="S",
                      help="the attacker's status effect, by id or printed name (listed below)")
    odds.add_argument("--defender-status", metavar="S", help="the defender's status effect (listed below)")
    odds.add_argument("--attacker-stage", type=int, metavar="N",
                      help="upgrade stage the attacker fights at (default: its place in its upgrade chain)")
    odds.add_argument("--defender-stage", type=int, metavar="N", help="upgrade stage of the defender")
    odds.add_argument("--module", metavar="ID",
                      help="a module the attacker commits in its Module Phase (+damage, +stars, or a re-spin once "
                           "after seeing the spins)")
    odds.add_argument("--json", action="store_true",
                      help="print JSON, every probability also as an exact fraction under `exact`")
    odds.set_defaults(run=run, bundled_note=BUNDLED_NOTE)


def run(args: argparse.Namespace) -> int:
    if args.unit_b and args.vs:
        raise UsageError("give the defender once: UNIT_B or --vs, not both")
    if args.unit_a is None:
        raise UsageError("odds takes UNIT_A and UNIT_B (or UNIT_A --vs all)" + _units_hint(args, None))
    defender = args.unit_b or args.vs
    if defender is None:
        raise UsageError("whom does it attack? give UNIT_B, or `--vs all` for every unit"
                         + _units_hint(args, args.unit_a))
    against_all = defender == "all"
    wanted = [args.unit_a] if against_all else [args.unit_a, defender]
    if args.theme and not find_game(args.theme).supports("odds"):
        raise NotApplicable(find_game(args.theme).why_not("odds"))
    found, _ = discover(args.data_dir)
    loaded = []
    for game, where in found:
        if (args.theme and game.id != args.theme) or not game.supports("odds"):
            continue
        loaded.append((game, game.load(where)))
    candidates = [(game, data) for game, data in loaded if game.has_units(data, wanted)]
    if not candidates:
        _refuse_broken(wanted, loaded)
        raise UsageError(_not_found(wanted, loaded, args.theme))
    if len(candidates) > 1:
        raise UsageError("the units exist in several themes; choose one with --theme "
                         + " / ".join(game.id for game, _ in candidates))
    game, data = candidates[0]
    request = OddsRequest(args.unit_a, None if against_all else defender, attacker_status=args.attacker_status,
                          defender_status=args.defender_status, attacker_stage=args.attacker_stage,
                          defender_stage=args.defender_stage, module=args.module, as_json=args.json)
    out(game.odds(data, request))
    return EXIT_OK


def _units_hint(args: argparse.Namespace, attacker: str | None) -> str:
    """The units of the project here (or --data), so a designer who typed too little learns what to type;
    empty when there are none or the data cannot be read."""
    try:
        found, _ = discover(args.data_dir)
        known = [uid for game, where in found if game.supports("odds") and (not args.theme or game.id == args.theme)
                 for uid in game.unit_ids(game.load(where))]
    except DuelkitError:
        return ""
    return ids_hint("units", known, "odds", attacker)


def _refuse_broken(wanted: list[str], loaded: list[tuple[Game, GameData]]) -> None:
    """A unit whose own file has errors is not "unknown": say it has problems and where to see them (exit 1)."""
    for game, data in loaded:
        broken = [uid for uid in wanted if uid in game.broken_unit_ids(data)]
        if broken:
            names = " and ".join(f"'{uid}'" for uid in broken)
            raise DuelkitError(f"unit {names} of {game.id} has problems in its file, so no odds can be computed; "
                               "`duelkit validate` lists them")


def _not_found(wanted: list[str], loaded: list[tuple[Game, GameData]], theme: str | None) -> str:
    """Which id is unknown, with the closest ids the data has ("did you mean")."""
    known = sorted({uid for game, data in loaded for uid in game.unit_ids(data)})
    missing = [uid for uid in wanted if uid not in known]
    where_text = f"theme '{theme}'" if theme else "this data"
    if not missing:
        both = " and ".join(repr(uid) for uid in wanted)
        return f"{both} are not units of any one theme; they belong to different ones"
    parts = []
    for uid in missing:
        close = difflib.get_close_matches(uid, known, n=3)
        parts.append(f"no unit '{uid}' in {where_text}" + (f"; did you mean {' or '.join(repr(c) for c in close)}?"
                                                          if close else ""))
    return "; ".join(parts)
