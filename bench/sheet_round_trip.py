"""Benchmark: `duelkit export csv|xlsx` and `duelkit import` of the 576-unit imported dataset (issue 27's
target: each under 3 s).

Prints figures; it is not a test. Usage: python bench/sheet_round_trip.py [DATASET_CSV]
The dataset (the public Pokémon Duel sheet) is imported into a fresh project first; then each step runs
through the command line in this process, best of 3. The anchor, measured in the same run, is reading
the project's YAML as written (every unit, squad and module file parsed), so the ratios say how much a
sheet costs beyond reading the data it holds, whatever the machine's speed. Times are CPU seconds of this
process (the wall time, printed beside, also counts waiting for other jobs on a shared machine).
"""

from __future__ import annotations

import contextlib
import io
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from toolkit.cli import main as duelkit
from toolkit.figure.sheets.files import read_index
from toolkit.figure.sheets.project import folders_of

sys.path.insert(0, str(Path(__file__).parent))
from shared_paths import DATASET


def run(*args: str) -> int:
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        return duelkit(list(args))


def best(step: Callable[[], object], repeat: int = 3) -> tuple[float, float]:
    """The best (CPU seconds, wall seconds) of `repeat` runs. CPU time is the figure compared: on a machine
    shared with other jobs the wall time grows with their load, the work done does not."""
    times = []
    for _ in range(repeat):
        cpu, wall = time.process_time(), time.perf_counter()
        step()
        times.append((time.process_time() - cpu, time.perf_counter() - wall))
    return min(times)


def main() -> None:
    dataset = Path(sys.argv[1]) if len(sys.argv) > 1 else DATASET
    with tempfile.TemporaryDirectory() as tmp:
        project, out = Path(tmp) / "project", Path(tmp) / "sheets"
        run("import", str(dataset), "--out", str(project))
        units = len(read_index(folders_of(project)).items("units"))
        anchor = best(lambda: read_index(folders_of(project)))
        rows = []
        for fmt in ("csv", "xlsx"):
            export = best(lambda fmt=fmt: run("export", fmt, str(project), "--out", str(out / fmt)))
            sheet = out / fmt / "duel-protocol"
            sheet = sheet / "duel-protocol.xlsx" if fmt == "xlsx" else sheet
            same = best(lambda sheet=sheet: run("import", str(sheet), "--out", str(project)))
            counter = iter(range(100))
            fresh = best(lambda sheet=sheet, fmt=fmt, counter=counter: run(
                "import", str(sheet), "--out", str(Path(tmp) / f"new-{fmt}-{next(counter)}")))
            rows += [(f"export {fmt}", export), (f"import {fmt} into the same project (no change)", same),
                     (f"import {fmt} into a new folder", fresh)]
    print(f"{units} units; anchor: reading the project's YAML {anchor[0]:.3f} s CPU ({anchor[1]:.3f} s wall), "
          "best of 3")
    for label, (cpu, wall) in rows:
        verdict = "under 3 s" if cpu < 3 else "OVER 3 s"
        print(f"  {label:<48} {cpu:6.3f} s CPU  {cpu / anchor[0]:5.1f}x the anchor  ({verdict}; wall {wall:.3f} s)")


if __name__ == "__main__":
    main()
