"""Benchmark: the full matchup matrix of the real dataset (imported, playable units only).

Prints figures; not a test. Usage: python bench/balance_dataset.py [CSV]
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

from toolkit.figure.analysis.balance import balance, playable
from toolkit.figure.database import find_datasets, load_database
from toolkit.figure.sheets.foreign import read_csv
from toolkit.figure.sheets.project import write_project

sys.path.insert(0, str(Path(__file__).parent))
from shared_paths import DATASET as DEFAULT_CSV


def main() -> None:
    csv_path = Path(sys.argv[1]) if len(sys.argv) > 1 else DEFAULT_CSV
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "imported"
        write_project(read_csv(csv_path), out, "duel-protocol")
        database = load_database(find_datasets(out)[0][0])
    units = playable(database.unit_defs())
    timings = []
    for _ in range(3):
        start = time.perf_counter()
        result = balance(units)
        timings.append(time.perf_counter() - start)
    n = len(result.unit_ids)
    print(f"units_loaded={len(database.units)} units_playable={n} matchups={n * n}")
    print(f"matrix_seconds_best_of_3={min(timings):.2f} runs={' '.join(f'{t:.2f}' for t in timings)}")
    print(f"outliers={sum(r.outlier for r in result.ratings)} top={result.ratings[0].unit_id}")


if __name__ == "__main__":
    main()
