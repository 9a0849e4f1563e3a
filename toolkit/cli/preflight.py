"""`duelkit preflight FILE.pdf [--service S]`: the checks a print shop's preflight makes, one line per
problem with its page; exit 0 when the file is clean, 1 when it has problems (or cannot be read)."""

from __future__ import annotations

import argparse
import os
import stat
from pathlib import Path
from typing import Any

from toolkit.cli.common import EXIT_OK, EXIT_PROBLEMS, add_command, err, out

MAX_BYTES = 512 * 1024 * 1024  # a card deck PDF is a few MB; anything past this is not one


def add_parser(commands: Any) -> None:
    from toolkit.export.services import SERVICES

    command = add_command(commands, "preflight", "check a PDF as a print shop's preflight does (PDF/X-1a, boxes, "
                          "colour, ink, type size, safe zone)", [
        "duelkit preflight output/export/pod/mygame/schematic.pdf --service drivethrucards",
        "duelkit preflight output/mygame/kit.pdf   # a home-print kit: lists what a print shop would refuse"])
    command.add_argument("file", type=Path, metavar="FILE.pdf", help="the PDF to check")
    command.add_argument("--service", choices=sorted(SERVICES), metavar="SERVICE",
                         help="also check that service's card sizes, bleed and safe zone "
                              f"({', '.join(sorted(SERVICES))})")
    command.add_argument("--min-type", type=float, default=None, metavar="PT",
                         help="smallest type allowed, in points (default 4)")
    command.set_defaults(run=run)


def _read(path: Path) -> bytes | None:
    """The file's bytes, or None after saying why not (a folder, a FIFO, too large, unreadable)."""
    try:
        descriptor = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as error:
        err(f"{path}: cannot open ({error.strerror})")
        return None
    info = os.fstat(descriptor)
    if not stat.S_ISREG(info.st_mode):
        os.close(descriptor)
        err(f"{path}: not a regular file")
        return None
    with os.fdopen(descriptor, "rb") as stream:
        if info.st_size > MAX_BYTES:
            megabytes = info.st_size // (1024 * 1024)
            err(f"{path}: {megabytes} MB is larger than duelkit reads ({MAX_BYTES // (1024 * 1024)} MB)")
            return None
        return stream.read(MAX_BYTES + 1)


def run(args: argparse.Namespace) -> int:
    from toolkit.export.services import service_named
    from toolkit.preflight import MIN_TYPE, PreflightError, lines, preflight

    data = _read(args.file)
    if data is None:
        return EXIT_PROBLEMS
    service = service_named(args.service) if args.service else None
    try:
        report = preflight(data, service, args.min_type if args.min_type is not None else MIN_TYPE)
    except PreflightError as error:
        err(f"{args.file}: {error}")
        return EXIT_PROBLEMS
    against = f" for {service.name}" if service else ""
    smallest = f", smallest type {report.smallest_type:.1f} pt" if report.smallest_type is not None else ""
    for line in lines(report):
        out(f"{args.file}: {line}")
    if report.findings:
        out(f"{args.file}: {len(report.findings)} problem(s) on {report.pages} page(s){against}{smallest}")
        return EXIT_PROBLEMS
    out(f"{args.file}: clean{against}: PDF/X-1a:2003, {report.pages} page(s){smallest}")
    return EXIT_OK
