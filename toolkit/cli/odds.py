"""`duelkit odds`: the exact chances of one battle, in the one game whose data holds both units."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from toolkit.cli.common import BUNDLED_NOTE, EXIT_OK, add_command, out
from toolkit.game import NotApplicable, OddsRequest
from toolkit.problems import UsageError
from toolkit.registry import discover, find_game, game_ids


def add_parser(commands: Any) -> None:
    odds = add_command(commands, "odds", "exact battle outcome probabilities", [
        "duelkit odds v-k4 sq-7",
        "duelkit odds v-k4 sq-7 --defender-status paralysis --module x-attack",
        "duelkit odds v-k4 sq-7 --attacker-stage 1 --json"])
    odds.add_argument("unit_a", metavar="UNIT_A", help="attacker id")
    odds.add_argument("unit_b", metavar="UNIT_B", help="defender id")
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
    odds.add_argument("--module", metavar="ID", help="a module the attacker plays (+damage, +stars, re-spin)")
    odds.add_argument("--json", action="store_true",
                      help="print JSON, every probability also as an exact fraction under `exact`")
    odds.set_defaults(run=run, bundled_note=BUNDLED_NOTE)


def run(args: argparse.Namespace) -> int:
    if args.theme and not find_game(args.theme).supports("odds"):
        raise NotApplicable(find_game(args.theme).why_not("odds"))
    found, _ = discover(args.data_dir)
    candidates = []
    for game, where in found:
        if (args.theme and game.id != args.theme) or not game.supports("odds"):
            continue
        data = game.load(where)
        if game.has_units(data, [args.unit_a, args.unit_b]):
            candidates.append((game, data))
    if not candidates:
        where_text = f"theme '{args.theme}'" if args.theme else "any one database"
        raise UsageError(f"'{args.unit_a}' and '{args.unit_b}' are not both units of {where_text}")
    if len(candidates) > 1:
        raise UsageError("both units exist in several themes; choose one with --theme "
                         + " / ".join(game.id for game, _ in candidates))
    game, data = candidates[0]
    request = OddsRequest(args.unit_a, args.unit_b, attacker_status=args.attacker_status,
                          defender_status=args.defender_status, attacker_stage=args.attacker_stage,
                          defender_stage=args.defender_stage, module=args.module, as_json=args.json)
    out(game.odds(data, request))
    return EXIT_OK
