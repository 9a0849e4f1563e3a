"""`duelkit build`: the printable kit of every chosen game (PDF, and SVG with --svg)."""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections.abc import Callable
from types import TracebackType
from typing import Any

from toolkit.cli.common import EXIT_OK, EXIT_PROBLEMS, add_output_command, err, load_valid, out, output_folder
from toolkit.kit.options import PrintOptions
from toolkit.problems import UsageError, sorted_problems
from toolkit.registry import game_ids
from toolkit.report import format_text, summary

MAX_BACK_OFFSET = 20.0  # mm: a larger drift is not a duplex offset but a wrong flip or paper size


def back_offset(text: str) -> tuple[float, float]:
    """`--back-offset DX,DY` in millimetres, as the print test reads it."""
    parts = text.replace(";", ",").split(",")
    try:
        dx, dy = (float(part) for part in parts)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text[:40]}' is not DX,DY in millimetres (for example 1.5,-0.5)") from None
    if not all(math.isfinite(v) and abs(v) <= MAX_BACK_OFFSET for v in (dx, dy)):
        raise argparse.ArgumentTypeError(f"each offset must be between -{MAX_BACK_OFFSET:g} and {MAX_BACK_OFFSET:g} "
                                         "mm; a larger drift means the sheet was flipped on the wrong edge")
    return dx, dy


def add_parser(commands: Any) -> None:
    build = add_output_command(commands, "build", "render the printable kit (PDF, and SVG with --svg)", "", [
        "duelkit build                      # the project you stand in -> its output/<game>/kit.pdf",
        "duelkit build mygame --paper letter --svg",
        f"duelkit build --game {game_ids()[0]}       # outside a project: one of the bundled demo games"])
    build.add_argument("--svg", action="store_true",
                       help="also write one SVG per piece (each card with its bleed, the board) for editing")
    build.add_argument("--squads", metavar="A,B", type=_squad_list,
                       help="the squads of sides A and B on the token sheet and module decks (default: the first "
                            "two by id; one id: both sides play it)")
    build.add_argument("--balance", action="store_true",
                       help="add the balance report (every unit against every unit) to kit.pdf")
    sides = build.add_mutually_exclusive_group()
    sides.add_argument("--simplex", action="store_true", help="no card backs at all: every page single-sided")
    sides.add_argument("--layout", choices=("grid", "fold"), default="grid",
                       help="fold: each card's back beside its front, to fold and glue (single-sided printers)")
    build.add_argument("--back-offset", type=back_offset, default=(0.0, 0.0), metavar="DX,DY",
                       help="shift every back page by what the print test measured, in mm (right and down "
                            "positive, seen from the front)")
    build.add_argument("--guides", action="store_true", help="draw trim, bleed and safe zones, and the printable area")
    build.add_argument("--ink", choices=("full", "saver"), default="full",
                       help="saver: card backs in outline and text, no large fills")
    build.add_argument("--board-paper", choices=("a3", "tabloid"),
                       help="print the board on one larger sheet instead of tiles of --paper")
    build.set_defaults(run=run)


def print_options(args: argparse.Namespace) -> PrintOptions:
    return PrintOptions(simplex=args.simplex, back_offset=args.back_offset, guides=args.guides,
                        layout=args.layout, ink=args.ink, board_paper=args.board_paper)


def run(args: argparse.Namespace) -> int:
    from toolkit.kit.batch import batch_allocation
    from toolkit.output import KIT_FILE, kit_files
    from toolkit.render.assemble import page_count

    loaded = load_valid(args, "build")
    if loaded is None:
        return EXIT_PROBLEMS
    if args.squads and len(loaded) > 1:
        raise UsageError("--squads names the squads of one game: choose it with --game (or build in its project)")
    warnings = []
    steps = sum(game.kit_steps(data) for game, data in loaded)
    names = [game.id for game, _ in loaded]
    options = print_options(args)
    with output_folder(args, "", names) as folder, batch_allocation(), _Progress(steps) as advance:
        for game, data in loaded:
            started = time.perf_counter()
            with_balance = args.balance and game.supports("balance")
            if args.balance and not with_balance:
                err(f"{game.id}: no balance report in its kit: {game.why_not('balance')}")
            components = game.build_kit(data, args.paper, advance, with_balance=with_balance,
                                        squads=args.squads or (), options=options)
            warnings += [warning for component in components for warning in component.warnings]
            files = kit_files(components, game.kit_title(data), args.svg, on_render=_rendered(advance, game.id),
                              options=options)
            target = folder.replace(game.id, files)
            pages = page_count(files[KIT_FILE])  # the plan and blanks too
            out(f"{game.id}: wrote {len(files)} files to {target}/ ({pages} pages in kit.pdf, "
                f"{time.perf_counter() - started:.1f} s)")
    if warnings:
        err(format_text(sorted_problems(warnings)))
        err(summary(warnings))
    return EXIT_OK


def _squad_list(text: str) -> tuple[str, ...]:
    return tuple(part.strip() for part in text.split(",") if part.strip())


def _rendered(advance: Callable[[str], None], game_id: str) -> Callable[[str], None]:
    """The progress step for each rendered file of one game's kit."""
    return lambda name: advance(f"{game_id}: {name}.pdf")


class _Progress:
    """A rich progress bar on an interactive terminal; nothing at all when output is piped."""

    def __init__(self, total: int) -> None:
        self.total = total
        self.bar: Any = None
        self.task: Any = None

    def __enter__(self) -> Callable[[str], None]:
        if sys.stderr.isatty():
            from rich.progress import Progress

            self.bar = Progress(transient=True)
            self.bar.start()
            self.task = self.bar.add_task("building", total=self.total)
        return self.advance

    def advance(self, label: str) -> None:
        if self.bar is not None:
            self.bar.update(self.task, advance=1, description=label)

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None,
                 trace: TracebackType | None) -> None:
        if self.bar is not None:
            self.bar.stop()
