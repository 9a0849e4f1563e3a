"""`duelkit build`: the printable kit of every chosen game (PDF, and SVG with --svg)."""

from __future__ import annotations

import argparse
import difflib
import math
import sys
import time
from collections.abc import Callable
from types import TracebackType
from typing import TYPE_CHECKING, Any

from toolkit.cli.common import (
    EXIT_OK,
    EXIT_PROBLEMS,
    add_output_command,
    err,
    load_valid,
    out,
    output_folder,
    select_games,
)
from toolkit.errors import UsageError
from toolkit.game import Game, GameData
from toolkit.kit.component import Component
from toolkit.kit.options import PrintOptions
from toolkit.problems import sorted_problems
from toolkit.registry import game_ids
from toolkit.report import format_text, summary

if TYPE_CHECKING:
    from toolkit.kit.files import RenderCache
    from toolkit.output import OutputFolder

MAX_JOBS = 64  # processes drawing pages: more would only fill memory
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
        "duelkit build --only schematics,modules   # just those PDFs; the rest of the kit folder is kept",
        f"duelkit build --game {game_ids()[0]}       # outside a project: one of the bundled demo games"])
    add_kit_options(build)
    build.add_argument("--cache", action="store_true", dest="disk_cache",
                       help="keep the pages drawn in OUT/.cache and reuse them, so the next build draws only what "
                            "changed (safe to delete at any time; `watch` keeps one unless --no-cache)")
    build.add_argument("--jobs", type=_jobs, metavar="N",
                       help="processes drawing the pages (default: one, and one more per idle processor; the "
                            "files are the same whatever the number)")
    build.add_argument("--skip-invalid", action="store_true",
                       help="build a kit of the valid units, leaving out (and listing) those with rule problems "
                            "instead of refusing (e.g. an imported spreadsheet)")
    build.set_defaults(run=run)


def _valid_or_trimmed(args: argparse.Namespace) -> list[tuple[Game, GameData]] | None:
    """The games to build: refused when the data has problems, or with --skip-invalid, every game with its
    invalid definitions left out (each listed on stderr)."""
    if not getattr(args, "skip_invalid", False):
        return load_valid(args, "build")
    selected, _ = select_games(args, "build")
    loaded = []
    for game, where in selected:
        data, left_out = game.without_invalid(game.load(where))
        for line in left_out:
            err(f"{game.id}: {line}")
        loaded.append((game, data))
    return loaded


def add_kit_options(command: Any) -> None:
    """What the kit holds and how it prints: shared by `build` and `watch`."""
    command.add_argument("--only", metavar="PARTS", type=_name_list,
                         help="rebuild only these parts of the kit, named as their PDFs (schematics,modules,...); "
                              "the other files of the kit folder are kept and kit.pdf is not rewritten")
    command.add_argument("--svg", action="store_true",
                         help="also write one SVG per piece (each card with its bleed, the board) for editing")
    command.add_argument("--squads", metavar="A,B", type=_squad_list,
                         help="the squads of sides A and B on the token sheet and module decks (default: the first "
                              "two by id; one id: both sides play it)")
    command.add_argument("--balance", action="store_true",
                         help="add the balance report (every unit against every unit) to kit.pdf")
    sides = command.add_mutually_exclusive_group()
    sides.add_argument("--simplex", action="store_true", help="no card backs at all: every page single-sided")
    sides.add_argument("--layout", choices=("grid", "fold"), default="grid",
                       help="fold: each card's and token's back beside its front, to fold and glue "
                            "(single-sided printers)")
    command.add_argument("--back-offset", type=back_offset, default=(0.0, 0.0), metavar="DX,DY",
                         help="shift every back page by what the print test measured, in mm (right and down "
                              "positive, seen from the front)")
    command.add_argument("--guides", action="store_true",
                         help="draw trim, bleed and safe zones, and the printable area")
    command.add_argument("--ink", choices=("full", "saver"), default="full",
                         help="saver: card backs in outline and text, no large fills")
    command.add_argument("--board-paper", choices=("a3", "tabloid"),
                         help="print the board on one larger sheet instead of tiles of --paper")


def render_cache(args: argparse.Namespace, folder: OutputFolder, game_id: str, keep: bool) -> RenderCache:
    """What a build or a watch remembers of the pages it drew: in memory, and in `OUT/.cache/<game>` when
    `args.disk_cache` (`build --cache`; `watch` unless --no-cache): pages by content hash, so the next build
    draws only what changed."""
    from toolkit.kit.files import RenderCache
    from toolkit.output import read_cache_file, write_cache_file
    from toolkit.render.page_cache import PageCache

    where = folder.cache_folder(game_id) if args.disk_cache else None
    jobs = getattr(args, "jobs", 1)  # a watch draws the few pages a save changed, in its own process
    if jobs is None:
        from toolkit.render.parallel import default_jobs

        jobs = default_jobs()
    return RenderCache(keep=keep, pages=PageCache(where, write_cache_file, read_cache_file, jobs=jobs,
                                                  by_identity=not keep))


def print_options(args: argparse.Namespace) -> PrintOptions:
    return PrintOptions(simplex=args.simplex, back_offset=args.back_offset, guides=args.guides,
                        layout=args.layout, ink=args.ink, board_paper=args.board_paper)


def run(args: argparse.Namespace) -> int:
    from toolkit.kit.batch import batch_allocation
    from toolkit.kit.files import KIT_FILE, kit_files

    loaded = _valid_or_trimmed(args)
    if loaded is None:
        return EXIT_PROBLEMS
    if args.squads and len(loaded) > 1:
        raise UsageError("--squads names the squads of one game: choose it with --game (or build in its project)")
    parts = chosen_parts(args.only, loaded)
    loaded = [(game, data) for game, data in loaded if game.id in parts]
    warnings = []
    steps = sum(2 * len(parts[game.id]) if args.only else game.kit_steps(data) for game, data in loaded)
    names = [game.id for game, _ in loaded]
    options = print_options(args)
    with output_folder(args, "", names) as folder, batch_allocation(), _Progress(steps) as advance:
        for game, data in loaded:
            started = time.perf_counter()
            components = build_kit(game, data, args, options, advance, parts[game.id])
            warnings += [warning for component in components for warning in component.warnings]
            cache = render_cache(args, folder, game.id, keep=False)
            files = kit_files(components, game.kit_title(data), args.svg, on_render=_rendered(advance, game.id),
                              options=options, with_kit=not args.only, cache=cache)
            if not args.only:
                cache.pages.prune()
            seconds = time.perf_counter() - started
            if args.only:
                target, kept = folder.update(game.id, files)
                out(f"{game.id}: wrote {', '.join(sorted(files))} to {target}/ ({seconds:.1f} s); "
                    f"{_kit_note(kept, KIT_FILE)}")
                continue
            target = folder.replace(game.id, files)
            from toolkit.render.assemble import page_count  # pikepdf: not needed by `build --only`

            pages = page_count(files[KIT_FILE])  # the plan and blanks too
            out(f"{game.id}: wrote {len(files)} files to {target}/ ({pages} pages in kit.pdf, {seconds:.1f} s)")
    if warnings:
        err(format_text(sorted_problems(warnings)))
        err(summary(warnings))
    return EXIT_OK


def build_kit(game: Game, data: GameData, args: argparse.Namespace, options: PrintOptions,
              advance: Callable[[str], None], parts: tuple[str, ...]) -> list[Component]:
    """One game's kit laid out as the command line asks (`parts`: only those components, when given)."""
    with_balance = (args.balance or "balance" in parts) and game.supports("balance")
    if args.balance and not with_balance:
        err(f"{game.id}: no balance report in its kit: {game.why_not('balance')}")
    return game.build_kit(data, args.paper, advance, with_balance=with_balance, squads=args.squads or (),
                          options=options, only=parts)


def chosen_parts(only: tuple[str, ...] | None, loaded: list[tuple[Game, GameData]]) -> dict[str, tuple[str, ...]]:
    """The parts of each game's kit that `--only` names (all parts: an empty tuple). A name no game's kit has
    is a usage error; a game whose kit has none of the names is skipped, with a note."""
    if not only:
        return {game.id: () for game, _ in loaded}
    known = list(dict.fromkeys(part for game, _ in loaded for part in game.kit_parts()))
    unknown = [name for name in only if name not in known]
    if unknown:
        close = difflib.get_close_matches(unknown[0], known, n=1)
        hint = f"did you mean '{close[0]}'? " if close else ""
        shown = ", ".join(repr(name[:40]) for name in unknown[:5])
        raise UsageError(f"--only: the kit has no part named {shown}; {hint}the parts are: {', '.join(known)}")
    chosen = {}
    for game, _ in loaded:
        parts = tuple(part for part in game.kit_parts() if part in only)
        if parts:
            chosen[game.id] = parts
        else:
            err(f"{game.id}: skipped: its kit has no {', '.join(only)}")
    return chosen


def _kit_note(kept: list[str], kit_file: str) -> str:
    if kit_file in kept:
        return (f"kept {len(kept)} other files; {kit_file} was not rewritten (built with --only): "
                "build without --only to bring it up to date")
    return f"kept {len(kept)} other files; no {kit_file} yet: build without --only to make it"


def _name_list(text: str) -> tuple[str, ...]:
    """`--only schematics,modules.pdf`: part names, with or without `.pdf`."""
    names = tuple(dict.fromkeys(part.strip().removesuffix(".pdf") for part in text.split(",") if part.strip()))
    if not names:
        raise argparse.ArgumentTypeError("name at least one part of the kit, for example schematics")
    return names


def _jobs(text: str) -> int:
    try:
        jobs = int(text)
    except ValueError:
        jobs = 0
    if not 1 <= jobs <= MAX_JOBS:
        raise argparse.ArgumentTypeError(f"'{text[:20]}' is not a number of processes from 1 to {MAX_JOBS}")
    return jobs


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

            # drawn on each step, with no refresh thread: the pages are drawn by forked processes
            # (`toolkit.render.parallel`), and a process with other threads is not forked
            self.bar = Progress(transient=True, auto_refresh=False)
            self.bar.start()
            self.task = self.bar.add_task("building", total=self.total)
        return self.advance

    def advance(self, label: str) -> None:
        if self.bar is not None:
            self.bar.update(self.task, advance=1, description=label, refresh=True)

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None,
                 trace: TracebackType | None) -> None:
        if self.bar is not None:
            self.bar.stop()
