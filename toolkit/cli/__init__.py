"""The duelkit command line: the only package that prints or exits; one module per command.

Exit codes: 0 success, 1 problems found (or the command failed on bad input), 2 usage error (including a
command that does not apply to the chosen game). No command prints a Python traceback for bad input; an
unexpected failure is reported as an internal error (set DUELKIT_DEBUG=1 to see the traceback).
Every command reaches the games through `toolkit.registry`; none names a game.
"""

from __future__ import annotations

import argparse
import os
import sys
import traceback
from collections.abc import Sequence

from toolkit import __version__
from toolkit.cli import balance, board, build, import_table, new, odds, play, reference, replay, simulate, validate
from toolkit.cli.common import EXIT_INTERNAL, EXIT_OK, EXIT_PROBLEMS, EXIT_USAGE, err
from toolkit.problems import DuelkitError, UsageError

COMMANDS = (validate, build, reference, balance, odds, board, new, import_table, play, replay, simulate)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="duelkit", description="Print-and-play toolkit for duel games.")
    parser.add_argument("--version", action="version", version=f"duelkit {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for command in COMMANDS:
        command.add_parser(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        code: int = args.run(args)
        return code
    except UsageError as exc:
        err(f"duelkit: error: {exc}")
        return EXIT_USAGE
    except DuelkitError as exc:
        err(f"duelkit: error: {exc}")
        return EXIT_PROBLEMS
    except KeyboardInterrupt:
        err("duelkit: interrupted")
        return 130
    except BrokenPipeError:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return EXIT_OK
    except Exception:  # noqa: BLE001 - the promise is: never a traceback for the user
        if os.environ.get("DUELKIT_DEBUG"):
            traceback.print_exc()
        err("duelkit: internal error (a bug in duelkit, not in your data); "
            "run again with DUELKIT_DEBUG=1 and report the traceback")
        return EXIT_INTERNAL


__all__ = ["main"]
