"""Benchmark: `duelkit export png` of N generated schematic cards at 300 DPI, and `duelkit export tts` of
the bundled games. Prints seconds, seconds per card and the cores used. Not a test.

Usage: python bench/export_png.py [N] [--dpi D]
"""

from __future__ import annotations

import os
import resource
import sys
import time

sys.path.insert(0, os.path.dirname(__file__))

from cards400 import database_with  # the same 400 generated units as the cards benchmark (bench/ is on sys.path)

from toolkit.export.png import png_files
from toolkit.export.tts import tts_files
from toolkit.figure.kit.context import KitContext
from toolkit.figure.kit.export_set import figure_export_set
from toolkit.kit.batch import batch_allocation
from toolkit.registry import discover


def main() -> None:
    count = int(next((a for a in sys.argv[1:] if a.isdigit()), "400"))
    dpi = int(sys.argv[sys.argv.index("--dpi") + 1]) if "--dpi" in sys.argv else 300
    export = figure_export_set(KitContext(database_with(count), "a4"))
    export.pieces = []  # the cards only: what the figure is about
    cards = sum(len(deck.cards) + 1 for deck in export.decks if deck.name == "schematic")
    export.decks = [deck for deck in export.decks if deck.name == "schematic"]
    started = time.perf_counter()
    cpu = time.process_time()
    with batch_allocation():
        files = png_files(export, dpi, 3.0)
    seconds, cpu_seconds = time.perf_counter() - started, time.process_time() - cpu
    megabytes = sum(len(data) for data in files.values()) / 1e6
    print(f"export_png cards={cards} dpi={dpi} seconds={seconds:.2f} per_card={seconds / cards * 1000:.1f}ms "
          f"cpu_per_card={cpu_seconds / cards * 1000:.1f}ms cores_used=1 (single process) size={megabytes:.0f}MB "
          f"peak_rss_mb={resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f}")

    found, _ = discover(None)
    for game, where in found:
        data = game.load(where)
        started = time.perf_counter()
        export = game.export_set(data)
        result = tts_files(export, game.kit_title(data), game.id, 300, lambda name: f"file:///tmp/{name}")
        seconds = time.perf_counter() - started
        print(f"export_tts game={game.id} seconds={seconds:.2f} files={len(result.files)} dpi=300")


if __name__ == "__main__":
    main()
