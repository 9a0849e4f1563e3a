"""Benchmark: `duelkit import` of a generated CSV with 100,000 rows (20,000 figures of 5 segments).

Prints figures; it is not a test. Usage: python bench/import_rows.py [ROWS]
Times reading the CSV, writing a new project, and re-importing over it (the replace path), once
with the same data and once with every unit file changed.
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

from toolkit.figure.sheets.foreign import read_csv
from toolkit.figure.sheets.project import write_project

HEADER = ("Name,Movement,Rarity,Type,Special Ability,Attack Wheel Size,Attack Name,Attack Type,"
          "Attack Value,Attack Ability\n")
SEGMENTS = (
    ("30", "Tackle", "White", "40", ""),
    ("20", "Swift", "Gold", "", "60"),
    ("16", "Glare", "Purple", "Paralyses the battle opponent", "☆☆"),
    ("10", "Dodge", "Blue", "", ""),
    ("20", "Miss", "Red", "", ""),
)


def generate(path: Path, rows: int) -> None:
    lines = [HEADER]
    for index in range(rows):
        figure, segment = divmod(index, len(SEGMENTS))
        size, move, color, value, ability = SEGMENTS[segment]
        lines.append(f"Figure {figure:06d},{1 + figure % 3},R,Normal/Steel,None,{size},{move},{color},"
                     f"{value},{ability}\n")
    path.write_text("".join(lines), encoding="utf-8")


def main() -> None:
    rows = int(sys.argv[1]) if len(sys.argv) > 1 else 100_000
    with tempfile.TemporaryDirectory() as tmp:
        csv_path, out = Path(tmp) / "figures.csv", Path(tmp) / "imported"
        generate(csv_path, rows)
        cpu = time.process_time()
        start = time.perf_counter()
        result = read_csv(csv_path)
        read = time.perf_counter() - start
        start = time.perf_counter()
        written = write_project(result, out)
        fresh = time.perf_counter() - start
        import_cpu = time.process_time() - cpu
        start = time.perf_counter()
        write_project(result, out)
        same = time.perf_counter() - start
        renamed = Path(tmp) / "renamed.csv"  # another file name: every unit file's first line changes
        csv_path.rename(renamed)
        changed = read_csv(renamed)
        start = time.perf_counter()
        write_project(changed, out)
        again = time.perf_counter() - start
    print(f"rows={result.rows_read} units={len(result.units)} files={len(written)}")
    print(f"read_csv_seconds={read:.2f}")
    print(f"write_new_project_seconds={fresh:.2f}")
    print(f"reimport_unchanged_write_seconds={same:.2f}")
    print(f"reimport_every_file_changed_write_seconds={again:.2f}")
    print(f"total_import_seconds={read + fresh:.2f} (cpu {import_cpu:.2f}; the rest is waiting for the disk)")


if __name__ == "__main__":
    main()
