"""`duelkit validate`: every problem of every game in a folder, with file, line and column."""

from __future__ import annotations

import argparse
import gc
from typing import Any

from toolkit.cli.common import EXIT_OK, EXIT_PROBLEMS, add_command, add_data_dir, out
from toolkit.problems import sorted_problems
from toolkit.registry import discover
from toolkit.report import format_json, format_text, summary


def add_parser(commands: Any) -> None:
    validate = add_command(commands, "validate", "check a project's data and report every problem", [
        "duelkit validate                   # the project you stand in (exit 0 valid, 1 problems)",
        "duelkit validate mygame --format json"])
    add_data_dir(validate)
    validate.add_argument("--format", choices=("text", "json"), default="text",
                          help="text (like a compiler, with the line quoted) or json (a list of objects with "
                               "code, severity, file, line, column, message)")
    validate.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    # No garbage collection while the project loads, as in `duelkit watch`: its passes went over every
    # value read so far again and again (a few percent of validating an imported dataset), and loading
    # leaves almost no cycles (what it drops is freed as it goes). The collector runs again after.
    collecting = gc.isenabled()
    gc.disable()
    try:
        return _report(args)
    finally:
        if collecting:
            gc.enable()


def _report(args: argparse.Namespace) -> int:
    found, problems = discover(args.data_dir)
    project_problems = list(problems)
    lines = []
    for game, where in found:
        data = game.load(where)
        game_problems = list(data.problems)
        if not data.has_errors:
            game_problems += game.layout_warnings(data)
        problems += game_problems
        # a project holds one game: the problems of its duelkit.yaml count in that game's line
        counted = game_problems + (project_problems if where.project else [])
        lines.append(f"{game.id}: {game.describe(data)}: {summary(counted)}")
    problems = sorted_problems(problems)
    if args.format == "json":
        out(format_json(problems))
    else:
        if problems:
            out(format_text(problems))  # already terminal-safe: printed without a second pass
            out()
        for line in lines:
            out(line)
        if not lines:
            out(summary(problems))
    return EXIT_PROBLEMS if any(problem.is_error for problem in problems) else EXIT_OK
