"""`duelkit export png|pod|tts|csv|xlsx`: the kit for other tools (PNG per card, print-on-demand PDFs per
deck, Tabletop Simulator), and the project's data as a sheet (csv, xlsx) that `duelkit import` reads back.
Each format is a subcommand with its own options.

The sheet formats read the data as written (no validation needed: a database with rule problems is
exported too) and exit 1 when a file could not be read (named on stderr)."""

from __future__ import annotations

import argparse
import re
import time
from pathlib import Path
from typing import Any

from toolkit.cli.common import (
    EXIT_OK,
    EXIT_PROBLEMS,
    add_command,
    err,
    load_valid,
    out,
    output_folder,
    select_games,
)
from toolkit.game import SHEET_EXPORT
from toolkit.problems import sorted_problems
from toolkit.report import format_text, summary
from toolkit.terminal import one_line, terminal_safe

SHEET_FORMATS = ("csv", "xlsx")
DEFAULT_DPI = 300
DEFAULT_BLEED = 3.0  # mm
MIN_DPI, MAX_DPI = 20, 1200
_LENGTH = re.compile(r"^\s*(\d+(?:\.\d+)?|\.\d+)\s*(mm|in)?\s*$")


def bleed_mm(text: str) -> float:
    """'3', '3mm', '0.125in' (1/8 in = 3.175 mm): a bleed in millimetres, from 0 to 1/4 in."""
    from toolkit.export.bleed import MAX_BLEED

    match = _LENGTH.match(text)
    if not match:
        raise argparse.ArgumentTypeError(f"'{text[:40]}' is not a length: give millimetres (3, 3mm) or inches "
                                         "(0.125in)")
    value = float(match.group(1)) * (25.4 if match.group(2) == "in" else 1.0)
    if value > MAX_BLEED + 1e-9:
        raise argparse.ArgumentTypeError(f"{value:g} mm is more bleed than duelkit can extend the art by "
                                         f"(at most {MAX_BLEED} mm, 0.25in)")
    return round(value, 4)


def dpi_value(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text[:40]}' is not a whole number of dots per inch") from None
    if not MIN_DPI <= value <= MAX_DPI:
        raise argparse.ArgumentTypeError(f"{value} DPI is outside {MIN_DPI} to {MAX_DPI}")
    return value


def base_url(text: str) -> str:
    """An address written into the Tabletop Simulator file: no space, quote, backslash or control character
    (ESC, BEL, a line break, C1, bidirectional marks) can reach that file or the terminal."""
    if not re.fullmatch(r"(https?|file)://[^\s\"'<>\\]+", text):
        raise argparse.ArgumentTypeError("--base-url must be an http://, https:// or file:// address "
                                         "without spaces or quotes")
    if terminal_safe(text) != text:
        raise argparse.ArgumentTypeError(f"--base-url {one_line(text)[:80]} holds a control character; an "
                                         "address has none")
    return text if text.endswith("/") else text + "/"


def add_parser(commands: Any) -> None:
    export = add_command(commands, "export", "PNG per card, print-on-demand PDFs, Tabletop Simulator, the units "
                         "as a sheet (csv, xlsx)",
                         ["duelkit export png --dpi 150", "duelkit export pod --bleed 0.125in --cmyk",
                          "duelkit export tts --base-url https://example.org/mygame/"])
    formats = export.add_subparsers(dest="format", metavar="FORMAT", required=True)
    png = _format(formats, "png", "one PNG per card face and back, board, mat and token",
                  ["duelkit export png", "duelkit export png mygame --dpi 600 --bleed 0.125in",
                   "duelkit export png --service thegamecrafter"])
    png.add_argument("--dpi", type=dpi_value, default=DEFAULT_DPI, help="resolution (default 300)")
    png.add_argument("--bleed", type=bleed_mm, default=DEFAULT_BLEED, metavar="LENGTH",
                     help="bleed around each card: mm (3, 3mm) or inches (0.125in); default 3 mm")
    _service_option(png, "cards at the service's pixel size, bleed and safe zone (sets --dpi and --bleed)")
    pod = _format(formats, "pod", "one print-on-demand PDF per deck, one card side per page",
                  ["duelkit export pod", "duelkit export pod mygame --order back-front --cmyk",
                   "duelkit export pod --service drivethrucards"])
    pod.add_argument("--bleed", type=bleed_mm, default=DEFAULT_BLEED, metavar="LENGTH",
                     help="bleed around each card: mm (3, 3mm) or inches (0.125in); default 3 mm")
    pod.add_argument("--order", choices=("front-back", "back-front"), default="front-back",
                     help="the two sides of each card in this order (default front-back)")
    pod.add_argument("--cmyk", action="store_true",
                     help="CMYK colours (total ink at most 240%%), PDF/X-1a:2003 with a SWOP output intent")
    _service_option(pod, "cards at the service's size, bleed, safe zone and side order, as PDF/X-1a:2003 "
                         "(sets --bleed, --order and --cmyk)")
    tts = _format(formats, "tts", "Tabletop Simulator deck sheets, images and a saved object",
                  ["duelkit export tts", "duelkit export tts mygame --base-url https://example.org/mygame/"])
    tts.add_argument("--dpi", type=dpi_value, default=DEFAULT_DPI,
                     help="resolution (default 300; lowered where a sheet would exceed 4096 px)")
    tts.add_argument("--base-url", type=base_url, metavar="URL",
                     help="where you will upload the images (default: file: addresses of the output folder)")
    for sheet_format, what in (("csv", "a folder of CSV files (UTF-8), one per table"),
                               ("xlsx", "an Excel workbook, a sheet per table")):
        examples = [f"duelkit export {sheet_format}", f"duelkit export {sheet_format} mygame --columns name=Figure"]
        sheet = _format(formats, sheet_format, f"the project's units, squads, modules and words as {what}, "
                        "that `duelkit import` reads back", examples)
        sheet.add_argument("--columns", default="", metavar="MAP",
                           help="other names for the units table's columns, e.g. name=Figure,mp=MP (give `duelkit "
                                "import` the same; default: each field's path, such as board_effect.kind)")


def _service_option(command: argparse.ArgumentParser, what: str) -> None:
    from toolkit.export.services import SERVICES

    command.add_argument("--service", choices=sorted(SERVICES), metavar="SERVICE",
                         help=f"a print-on-demand preset ({', '.join(sorted(SERVICES))}): {what}")


def _format(formats: Any, name: str, help_text: str, examples: list[str]) -> argparse.ArgumentParser:
    command: argparse.ArgumentParser = add_command(formats, name, help_text, examples)
    command.add_argument("data_dir", nargs="?", type=Path, metavar="DATA_DIR",
                         help="project folder (default: the project here, or the bundled databases)")
    command.add_argument("--game", action="append", metavar="ID", help="only this game/theme (repeatable)")
    command.add_argument("--out", type=Path, metavar="DIR",
                         help=f"output folder (default: DATA_DIR/output/export/{name}, or ./output/export/{name} "
                              "for the bundled data); one folder per game inside it")
    command.set_defaults(run=run)
    return command


def run(args: argparse.Namespace) -> int:
    from toolkit.kit.batch import batch_allocation

    if args.format in SHEET_FORMATS:
        return _run_sheet(args)
    loaded = load_valid(args, "export")
    if loaded is None:
        return EXIT_PROBLEMS
    warnings = []
    with output_folder(args, f"export/{args.format}", [game.id for game, _ in loaded]) as folder, \
            batch_allocation():
        for game, data in loaded:
            started = time.perf_counter()
            export = game.export_set(data)
            warnings += export.warnings
            target = folder.root / game.id
            files, what, notes = _files(args, export, game.kit_title(data), game.id, target)
            folder.replace(game.id, files)
            for note in notes:
                err(f"{game.id}: {note}")
            out(f"{game.id}: wrote {what} to {target}/ ({time.perf_counter() - started:.1f} s)")
    if warnings:
        err(format_text(sorted_problems(warnings)))
        err(summary(warnings))
    return EXIT_OK


def _run_sheet(args: argparse.Namespace) -> int:
    """csv/xlsx: no validation first, so a database with rule problems can be fixed in the spreadsheet."""
    selected, problems = select_games(args, SHEET_EXPORT)
    if any(problem.is_error for problem in problems):
        err(format_text(sorted_problems(problems)))
        return EXIT_PROBLEMS
    incomplete = False
    with output_folder(args, f"export/{args.format}", [game.id for game, _ in selected]) as folder:
        for game, where in selected:
            started = time.perf_counter()
            result = game.export_table(where, args.format, args.columns)
            target = folder.root / game.id
            folder.replace(game.id, result.files)
            for line in result.lines:
                err(f"{game.id}: {line}")
            incomplete = incomplete or result.incomplete
            out(f"{game.id}: wrote {result.note} to {target}/ ({time.perf_counter() - started:.1f} s)")
    return EXIT_PROBLEMS if incomplete else EXIT_OK


def _files(args: argparse.Namespace, export: Any, title: str, game_id: str,
           target: Path) -> tuple[dict[str, bytes], str, list[str]]:
    """The files of one game's export, a summary of them, and notes for standard error."""
    service = None
    if getattr(args, "service", None):
        from toolkit.export.services import service_named

        service = service_named(args.service)
    if args.format == "png":
        from toolkit.export.png import png_files
        from toolkit.export.pod import fit_notes

        files = png_files(export, args.dpi, args.bleed, service)
        if service is not None:
            return files, f"{len(files)} PNG images for {service.name} ({service.dpi} DPI)", fit_notes(export, service)
        return files, f"{len(files)} PNG images ({args.dpi} DPI, {args.bleed:g} mm bleed)", []
    if args.format == "pod":
        from toolkit.export.pod import fit_notes, pod_files

        files = pod_files(export, title, args.bleed, args.order, args.cmyk, service)
        if service is not None:
            return files, (f"{len(files)} deck PDFs for {service.name} ({service.order}, PDF/X-1a:2003, CMYK)"
                           ), fit_notes(export, service)
        colour = "CMYK, PDF/X-1a:2003" if args.cmyk else "RGB"
        return files, f"{len(files)} deck PDFs ({args.order}, {args.bleed:g} mm bleed, {colour})", []
    from toolkit.export.tts import tts_files

    home = target.resolve()
    prefix = args.base_url

    def url_of(name: str) -> str:
        return prefix + name if prefix else (home / name).as_uri()

    result = tts_files(export, title, game_id, args.dpi, url_of)
    images = len(result.files) - 1
    return result.files, (f"{game_id}.json and {images} images (copy the folder's {game_id}.json into "
                          "Tabletop Simulator's Saves/Saved Objects)"), result.notes
