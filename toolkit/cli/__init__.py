"""The duelkit command line: the only package that prints or exits; one module per command.

Exit codes: 0 success, 1 problems found (or the command failed on bad input), 2 usage error (including a
command that does not apply to the chosen game). No command prints a Python traceback for bad input; an
unexpected failure is reported as an internal error (set DUELKIT_DEBUG=1 to see the traceback).
Every command reaches the games through `toolkit.registry`; none names a game.

Each command's module (and what it imports: the games, reportlab) is loaded only when that command runs,
so `duelkit --version` or `duelkit validate` do not pay for the PDF renderer. `COMMANDS` lists each
command's one-line help for `duelkit --help`; the module's own parser says the same (a test checks it).
"""

from __future__ import annotations

import argparse
import gc
import importlib
import os
import sys
import traceback
from collections.abc import Sequence
from types import ModuleType

from toolkit import __version__
from toolkit.cli.parser import Parser

# command -> (module in toolkit.cli, one-line help), in the order `duelkit --help` lists them
COMMANDS: dict[str, tuple[str, str]] = {
    "validate": ("validate", "check a project's data and report every problem"),
    "build": ("build", "render the printable kit (PDF, and SVG with --svg)"),
    "watch": ("watch", "rebuild the kit whenever a YAML file of the project is saved"),
    "reference": ("reference", "rule reference sheets (PDF, and HTML where a game has a manual)"),
    "balance": ("balance", "every unit against every unit: ratings, heatmap, CSV"),
    "odds": ("odds", "exact battle outcome probabilities"),
    "board": ("board", "board tools"),
    "new": ("new", "create a one-theme starter project"),
    "import": ("import_table", "a spreadsheet (CSV or XLSX) into the project's YAML"),
    "export": ("export", "PNG per card, print-on-demand PDFs, Tabletop Simulator, the units as a sheet (csv, xlsx)"),
    "preflight": ("preflight", "check a PDF as a print shop's preflight does (PDF/X-1a, boxes, colour, ink, "
                  "type size, safe zone)"),
    "play": ("play", "play one game in the terminal (or random against random)"),
    "replay": ("replay", "re-check a game record and print the board"),
    "serve": ("serve", "play and replay the games in the browser (a local web studio)"),
    "simulate": ("simulate", "self-play: win rates with Wilson intervals, first-player edge, what decided the games"),
}


def command_module(name: str) -> ModuleType:
    return importlib.import_module(f"toolkit.cli.{COMMANDS[name][0]}")


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The whole command line; with `only`, just that command's options are filled in (the others are
    listed by name and help, their modules not imported)."""
    parser = Parser(prog="duelkit", description="Print-and-play toolkit for duel games.")
    parser.add_argument("--version", action="version", version=f"duelkit {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name, (_, help_text) in COMMANDS.items():
        if only is None or name == only:
            command_module(name).add_parser(commands)
        else:
            commands.add_parser(name, help=help_text)
    return parser


def _chosen_command(argv: Sequence[str]) -> str | None:
    """The command named on the command line (the first word that is not an option), if it is one."""
    for word in argv:
        if not word.startswith("-"):
            return word if word in COMMANDS else None
        if word == "--":
            return None
    return None


# A command builds its data once and keeps it to the end; collecting after every 700 new objects (Python's
# default) walks that live data again and again: 1-2% of validating the 576-unit imported dataset in
# instructions and CPU time, up to a seventh of its CPU time while the machine was loaded. Cycles are still
# collected, after 10,000 new objects.
GC_THRESHOLD = 10_000


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command; `argv` None means this process's own command line (`duelkit`, `python -m toolkit`)."""
    if argv is None:
        # pydantic looks for plugins (an entry-point scan of every installed distribution) when it builds its
        # first validator, as `validate` does for a definition with a problem: 20-60 ms CPU of validating the
        # imported dataset. duelkit's own models are no place for a plugin; pydantic's documented switch,
        # unless the user set it.
        os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")
    code = _main(list(sys.argv[1:] if argv is None else argv))
    if argv is None:
        # The process ends next. Python's shutdown collects garbage over everything still alive (modules, font
        # and layout caches): 0.15-0.2 s CPU after a 400-unit build, a tenth of it. Frozen objects are left out
        # of those collections; files are still flushed and atexit handlers still run (tests call main with
        # their own argv: nothing of theirs is frozen).
        gc.freeze()
    return code


def _main(arguments: list[str]) -> int:
    if gc.get_threshold()[0] < GC_THRESHOLD:
        gc.set_threshold(GC_THRESHOLD, *gc.get_threshold()[1:])
    chosen = _chosen_command(arguments)
    parser = build_parser(only=chosen or "")
    args = parser.parse_args(arguments)
    from toolkit.cli.common import EXIT_INTERNAL, EXIT_OK, EXIT_PROBLEMS, EXIT_USAGE, err, resolve_project
    from toolkit.errors import DuelkitError, UsageError

    try:
        resolve_project(args)
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
    except Exception:  # the promise is: never a traceback for the user (hence so broad)
        if os.environ.get("DUELKIT_DEBUG"):
            traceback.print_exc()
        err("duelkit: internal error (a bug in duelkit, not in your data); "
            "run again with DUELKIT_DEBUG=1 and report the traceback")
        return EXIT_INTERNAL


__all__ = ["COMMANDS", "build_parser", "main"]
