"""The duelkit command line: the only module that prints or exits.

Exit codes: 0 success, 1 problems found (or the command failed on bad input), 2 usage error.
No command prints a Python traceback for bad input; an unexpected failure is reported as an
internal error (set DUELKIT_DEBUG=1 to see the traceback).
"""

from __future__ import annotations

import argparse
import os
import sys
import traceback
from collections.abc import Sequence
from pathlib import Path

from toolkit import __version__
from toolkit.database import SWORD_GAME_ID, find_datasets, load_board, load_database
from toolkit.paths import DEFAULT_BOARD, bundled_root
from toolkit.problems import DuelkitError, UsageError, sorted_problems
from toolkit.project import project_themes
from toolkit.report import format_json, format_text, summary
from toolkit.sword.data import has_sword_data, load_sword
from toolkit.theme import theme_ids

EXIT_OK, EXIT_PROBLEMS, EXIT_USAGE, EXIT_INTERNAL = 0, 1, 2, 70


def _out(text: str = "") -> None:
    print(text)


def _err(text: str) -> None:
    print(text, file=sys.stderr)


def cmd_validate(args: argparse.Namespace) -> int:
    datasets, problems = find_datasets(args.data_dir)
    lines = []
    for dataset in datasets:
        database = load_database(dataset)
        if not database.has_errors:
            from toolkit.kit.build import layout_warnings

            database.problems += layout_warnings(database)
        problems += database.problems
        lines.append(f"{dataset.theme_id}: {len(database.units)} units, {len(database.modules)} modules, "
                     f"{len(database.squads)} squads: {summary(database.problems)}")
    sword_root = args.data_dir or bundled_root()
    if has_sword_data(sword_root):
        sword = load_sword(sword_root)
        problems += sword.problems
        draft = f"draft '{sword.draft.id}' ({len(sword.draft.techniques)} cards)" if sword.draft else "no draft"
        lines.append(f"sword-duel: {len(sword.techniques)} techniques, {draft}, {len(sword.builds)} builds: "
                     f"{summary(sword.problems)}")
    problems = sorted_problems(problems)
    if args.format == "json":
        _out(format_json(problems))
    else:
        if problems:
            _out(format_text(problems) + "\n")
        for line in lines:
            _out(line)
        if not lines:
            _out(summary(problems))
    return EXIT_PROBLEMS if any(problem.is_error for problem in problems) else EXIT_OK


def _output_root(args: argparse.Namespace, subfolder: str = "") -> Path:
    """--out as given; otherwise DATA_DIR/output/<subfolder>, or ./output/<subfolder> for the bundled data."""
    if args.out:
        return args.out
    root = (args.data_dir / "output") if args.data_dir else Path("output")
    return root / subfolder if subfolder else root


def _wanted_games(args: argparse.Namespace, sword_ok: bool) -> set[str]:
    wanted = set(args.game or [])
    known = [*theme_ids(), SWORD_GAME_ID] if sword_ok else theme_ids()
    unknown = wanted - set(known)
    if unknown:
        raise UsageError(f"unknown game {', '.join(sorted(unknown))}; known here: {', '.join(known)}")
    return wanted


def _load_valid(args: argparse.Namespace, sword_ok: bool = False) -> list | None:
    """The figure-duel databases to work from, or None (after printing every problem) when any has errors.
    With `sword_ok`, `--game sword-duel` is accepted (the caller handles that game itself)."""
    datasets, problems = find_datasets(args.data_dir)
    wanted = _wanted_games(args, sword_ok)
    if wanted:
        datasets = [ds for ds in datasets if ds.theme_id in wanted]
        if not datasets and not wanted <= {SWORD_GAME_ID}:
            raise UsageError(f"{args.data_dir or 'the bundled data'} has no database for {', '.join(sorted(wanted))}")
    databases = [load_database(dataset) for dataset in datasets]
    problems = sorted_problems(problems + [p for db in databases for p in db.problems])
    if any(problem.is_error for problem in problems):
        _err(format_text(problems) + "\n")
        _err(f"duelkit: not building: the data has problems ({summary(problems)}); "
             "`duelkit validate` lists them too")
        return None
    return databases


def cmd_build(args: argparse.Namespace) -> int:
    import time

    from toolkit.kit.build import GENERATORS, batch_allocation, build_components
    from toolkit.output import kit_files, replace_folder

    databases = _load_valid(args, sword_ok=True)
    if databases is None:
        return EXIT_PROBLEMS
    out_root = _output_root(args)
    wanted = _wanted_games(args, sword_ok=True)
    sword_root = args.data_dir or bundled_root()
    if (not wanted or SWORD_GAME_ID in wanted) and has_sword_data(sword_root):
        if _build_sword(sword_root, out_root, args) != EXIT_OK:
            return EXIT_PROBLEMS
    elif SWORD_GAME_ID in wanted:
        raise UsageError(f"{sword_root} has no techniques/ for {SWORD_GAME_ID}")
    warnings = []
    with batch_allocation(), _progress(len(databases) * (2 * len(GENERATORS) + 1)) as advance:
        for database in databases:
            started = time.perf_counter()
            theme = database.theme
            components = []
            for component in build_components(database, args.paper):
                advance(f"{theme.id}: {component.name}")
                components.append(component)
                warnings += component.warnings
            if args.balance:
                from toolkit.kit.balance_report import build_balance
                from toolkit.kit.component import KitContext
                from toolkit.rules.balance import balance

                result = balance(database.unit_defs())
                components.append(build_balance(KitContext(database, args.paper), result))
            files = kit_files(components, theme.terms.game, args.svg,
                              on_render=lambda name, tid=theme.id: advance(f"{tid}: {name}.pdf"))
            target = out_root / theme.id
            replace_folder(target, files)
            pages = sum(len(c.pages) for c in components)
            _out(f"{theme.id}: wrote {len(files)} files to {target}/ ({pages} pages in kit.pdf, "
                 f"{time.perf_counter() - started:.1f} s)")
    if warnings:
        _err(format_text(sorted_problems(warnings)))
        _err(summary(warnings))
    return EXIT_OK


def _build_sword(root: Path, out_root: Path, args: argparse.Namespace) -> int:
    """The sword-duel kit: its own data (techniques/), its own components."""
    import time

    from toolkit.kit.sword_kit import build_sword_components
    from toolkit.output import kit_files, replace_folder
    from toolkit.sword.context import GAME_NAME, SwordContext

    started = time.perf_counter()
    sword = load_sword(root)
    if sword.has_errors:
        _err(format_text(sorted_problems(sword.problems)) + "\n")
        _err(f"duelkit: not building {SWORD_GAME_ID}: its data has problems ({summary(sword.problems)})")
        return EXIT_PROBLEMS
    components = build_sword_components(SwordContext(sword, args.paper))
    files = kit_files(components, GAME_NAME, args.svg)
    target = out_root / SWORD_GAME_ID
    replace_folder(target, files)
    pages = sum(len(c.pages) for c in components)
    _out(f"{SWORD_GAME_ID}: wrote {len(files)} files to {target}/ ({pages} pages in kit.pdf, "
         f"{time.perf_counter() - started:.1f} s)")
    warnings = [w for c in components for w in c.warnings]
    if warnings:
        _err(format_text(sorted_problems(warnings)))
    return EXIT_OK


class _progress:
    """A rich progress bar on an interactive terminal; nothing at all when output is piped."""

    def __init__(self, total: int) -> None:
        self.total = total
        self.bar = None

    def __enter__(self):
        if sys.stderr.isatty():
            from rich.progress import Progress

            self.bar = Progress(transient=True)
            self.bar.start()
            self.task = self.bar.add_task("building", total=self.total)
        return self.advance

    def advance(self, label: str) -> None:
        if self.bar is not None:
            self.bar.update(self.task, advance=1, description=label)

    def __exit__(self, *exc) -> None:
        if self.bar is not None:
            self.bar.stop()


def cmd_odds(args: argparse.Namespace) -> int:
    from toolkit.battle import compute, odds_json, odds_text, setup_battle

    datasets, problems = find_datasets(args.data)
    if args.theme:
        datasets = [ds for ds in datasets if ds.theme_id == args.theme]
    candidates = []
    for dataset in datasets:
        database = load_database(dataset)
        if args.unit_a in database.units and args.unit_b in database.units:
            candidates.append(database)
    if not candidates:
        where = f"theme '{args.theme}'" if args.theme else "any one database"
        raise UsageError(f"'{args.unit_a}' and '{args.unit_b}' are not both units of {where}")
    if len(candidates) > 1:
        raise UsageError("both units exist in several themes; choose one with --theme "
                         + " / ".join(db.theme.id for db in candidates))
    database = candidates[0]
    from toolkit.rules.balance import playable

    broken = [uid for uid in (args.unit_a, args.unit_b) if uid not in playable(database.unit_defs())]
    if broken:
        raise DuelkitError(f"the Data Disk of {' and '.join(broken)} breaks the rules; "
                           f"`duelkit validate` shows what to fix")
    setup = setup_battle(database, args.unit_a, args.unit_b, attacker_status=args.attacker_status,
                         defender_status=args.defender_status, attacker_stage=args.attacker_stage,
                         defender_stage=args.defender_stage, module_id=args.module)
    odds = compute(setup)
    _out(odds_json(setup, odds) if args.json else odds_text(setup, odds))
    return EXIT_OK


def cmd_balance(args: argparse.Namespace) -> int:
    import time

    from toolkit.kit.balance_report import build_balance, matchups_csv, ratings_csv
    from toolkit.kit.component import KitContext
    from toolkit.output import replace_folder
    from toolkit.render.pdf import render_pdf
    from toolkit.render.scene import Document
    from toolkit.rules.balance import balance, playable

    if args.skip_invalid:
        datasets, _ = find_datasets(args.data_dir)
        databases = [load_database(ds) for ds in datasets if not args.game or ds.theme_id in args.game]
    else:
        databases = _load_valid(args)
        if databases is None:
            _err("(`duelkit balance --skip-invalid` leaves out the units with problems instead)")
            return EXIT_PROBLEMS
    out_root = _output_root(args, "balance")
    for database in databases:
        units = playable(database.unit_defs())
        left_out = len(database.unit_defs()) - len(units)
        if left_out or database.has_errors:
            _out(f"{database.theme.id}: left out {left_out} units whose Data Disk breaks the rules and any file "
                 "that failed to load (`duelkit validate` lists them)")
        started = time.perf_counter()
        result = balance(units)
        seconds = time.perf_counter() - started
        context = KitContext(database, args.paper)
        component = build_balance(context, result)
        files = {
            "balance.pdf": render_pdf(Document(component.title, component.pages)),
            "balance.csv": ratings_csv(context, result).encode("utf-8"),
            "matchups.csv": matchups_csv(result).encode("utf-8"),
        }
        target = out_root / database.theme.id
        replace_folder(target, files)
        n = len(result.unit_ids)
        _out(f"{database.theme.id}: {n} units, {n * n} matchups in {seconds:.2f} s; wrote {target}/")
        for rank, rating in enumerate(result.ratings[:3], start=1):
            _out(f"  #{rank} {rating.unit_id}: rating {rating.rating:+.2f}")
        outliers = [r.unit_id for r in result.ratings if r.outlier]
        shown = ", ".join(outliers[:10]) + (f" and {len(outliers) - 10} more" if len(outliers) > 10 else "")
        _out(f"  outliers: {shown or 'none'}")
    return EXIT_OK


def cmd_reference(args: argparse.Namespace) -> int:
    from toolkit.html_manual import render_manual_html
    from toolkit.kit.build import batch_allocation
    from toolkit.kit.component import KitContext
    from toolkit.kit.manual_pages import build_manual_component, build_quickref_component
    from toolkit.manual import build_manual
    from toolkit.output import replace_folder
    from toolkit.render.pdf import render_pdf
    from toolkit.render.scene import Document

    databases = _load_valid(args)
    if databases is None:
        return EXIT_PROBLEMS
    out_root = _output_root(args, "reference")
    templates = args.data_dir / "templates" if args.data_dir else None
    with batch_allocation():
        for database in databases:
            context = KitContext(database, args.paper)
            manual = build_manual(database)
            html = render_manual_html(manual, database.theme, args.paper, templates)
            pages = build_manual_component(context, manual).pages
            quick = build_quickref_component(context, manual).pages
            files = {
                "manual.pdf": render_pdf(Document(manual.title, pages + quick)),
                "quick-reference.pdf": render_pdf(Document(f"{database.theme.terms.game}: quick reference", quick)),
                "manual.html": html.encode("utf-8"),
            }
            target = out_root / database.theme.id
            replace_folder(target, files)
            _out(f"{database.theme.id}: wrote manual.pdf ({len(pages) + len(quick)} pages), quick-reference.pdf "
                 f"and manual.html to {target}/")
    return EXIT_OK


def cmd_board_check(args: argparse.Namespace) -> int:
    path: Path = args.board or DEFAULT_BOARD
    if not path.is_file():
        raise UsageError(f"board file '{path}' does not exist or is not a file")
    board, problems = load_board(path)
    for problem in sorted_problems(problems):
        hint = f" (hint: {problem.hint})" if problem.hint else ""
        _out(f"{problem.file}:{problem.line}:{problem.column}: {problem.code} {problem.message}{hint}")
    if board is not None and not problems:
        _out(f"board '{board.id}' OK: {len(board.nodes)} nodes, {len(board.routes)} routes")
    return EXIT_PROBLEMS if problems else EXIT_OK


def cmd_new(args: argparse.Namespace) -> int:
    from toolkit.project import create_project

    target = create_project(args.directory, args.theme)
    _out(f"created {args.theme} project in {target}")
    folder = "techniques" if args.theme == "sword-duel" else "unit_data"
    _out(f"next: edit {target / folder}, then run `duelkit validate {target}`")
    return EXIT_OK


def cmd_import(args: argparse.Namespace) -> int:
    from toolkit.importer import read_csv, write_project

    if not args.csv.is_file():
        raise UsageError(f"CSV file '{args.csv}' does not exist")
    result = read_csv(args.csv)
    written = write_project(result, args.out, args.theme)
    for figure in result.skipped:
        for row in figure.rows:
            _err(f"{args.csv}:{row.line}: skipped '{figure.name}': column '{row.column}' = {row.value!r}: "
                 f"{row.reason}")
    for note in result.notes:
        _err(f"note: {note}")
    _out(f"read {result.rows_read} rows: wrote {len(result.units)} units to {args.out}, "
         f"skipped {len(result.skipped)} figures ({len(written)} files)")
    _out(f"next: `duelkit validate {args.out}` lists what breaks the rules")
    return EXIT_OK


def _output_command(commands, name: str, help_text: str, subfolder: str, run, data_note: str = ""):
    """The commands that write files share DATA_DIR, --game, --paper and --out."""
    command = commands.add_parser(name, help=help_text)
    command.add_argument("data_dir", nargs="?", type=Path, metavar="DATA_DIR",
                         help=f"project folder (default: the bundled databases){data_note}")
    command.add_argument("--game", action="append", metavar="ID", help="only this game/theme (repeatable)")
    command.add_argument("--paper", choices=("a4", "letter"), default="a4")
    where = f"output/{subfolder}" if subfolder else "output"
    command.add_argument("--out", type=Path, metavar="DIR",
                         help=f"output folder (default: DATA_DIR/{where}, or ./{where} for the bundled data)")
    command.set_defaults(run=run)
    return command


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="duelkit", description="Print-and-play toolkit for duel games.")
    parser.add_argument("--version", action="version", version=f"duelkit {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    validate = commands.add_parser("validate", help="check a unit database and report every problem")
    validate.add_argument("data_dir", nargs="?", type=Path, metavar="DATA_DIR",
                          help="project folder (default: the bundled databases)")
    validate.add_argument("--format", choices=("text", "json"), default="text")
    validate.set_defaults(run=cmd_validate)

    build = _output_command(commands, "build", "render the printable kit (PDF, and SVG with --svg)", "", cmd_build)
    build.add_argument("--svg", action="store_true", help="also write one SVG per piece for editing")
    build.add_argument("--balance", action="store_true", help="add the balance report to the kit")
    _output_command(commands, "reference", "rule reference sheets: protocol manual (PDF + HTML)", "reference",
                    cmd_reference, "; its templates/ override ours")
    balance = _output_command(commands, "balance", "every unit against every unit: ratings, heatmap, CSV",
                              "balance", cmd_balance)
    balance.add_argument("--skip-invalid", action="store_true",
                         help="leave out units with problems instead of refusing (e.g. an imported dataset)")

    odds = commands.add_parser("odds", help="exact battle outcome probabilities")
    odds.add_argument("unit_a", metavar="UNIT_A", help="attacker id")
    odds.add_argument("unit_b", metavar="UNIT_B", help="defender id")
    odds.add_argument("--data", type=Path, metavar="DATA_DIR", help="project folder (default: bundled data)")
    odds.add_argument("--theme", choices=theme_ids())
    odds.add_argument("--attacker-status", metavar="S")
    odds.add_argument("--defender-status", metavar="S")
    odds.add_argument("--attacker-stage", type=int, metavar="N")
    odds.add_argument("--defender-stage", type=int, metavar="N")
    odds.add_argument("--module", metavar="ID", help="a module the attacker plays (+damage, +stars, re-spin)")
    odds.add_argument("--json", action="store_true")
    odds.set_defaults(run=cmd_odds)

    board = commands.add_parser("board", help="board tools")
    board_commands = board.add_subparsers(dest="board_command", metavar="SUBCOMMAND", required=True)
    check = board_commands.add_parser("check", help="run the structural checks on a board YAML")
    check.add_argument("board", nargs="?", type=Path, metavar="BOARD_YAML",
                       help="board file (default: the standard board)")
    check.set_defaults(run=cmd_board_check)

    new = commands.add_parser("new", help="create a one-theme starter project")
    new.add_argument("directory", type=Path, metavar="DIR")
    new.add_argument("--theme", choices=project_themes(), default="duel-protocol")
    new.set_defaults(run=cmd_new)

    importer = commands.add_parser("import", help="convert a one-row-per-segment CSV into unit YAML")
    importer.add_argument("csv", type=Path, metavar="CSV")
    importer.add_argument("--out", type=Path, required=True, metavar="DIR")
    importer.add_argument("--theme", choices=theme_ids(), default="duel-protocol")
    importer.set_defaults(run=cmd_import)

    from toolkit.cli_play import register as register_play

    register_play(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return args.run(args)
    except UsageError as exc:
        _err(f"duelkit: error: {exc}")
        return EXIT_USAGE
    except DuelkitError as exc:
        _err(f"duelkit: error: {exc}")
        return EXIT_PROBLEMS
    except KeyboardInterrupt:
        _err("duelkit: interrupted")
        return 130
    except BrokenPipeError:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return EXIT_OK
    except Exception:  # noqa: BLE001 - the promise is: never a traceback for the user
        if os.environ.get("DUELKIT_DEBUG"):
            traceback.print_exc()
        _err("duelkit: internal error (a bug in duelkit, not in your data); "
             "run again with DUELKIT_DEBUG=1 and report the traceback")
        return EXIT_INTERNAL


__all__ = ["main"]
