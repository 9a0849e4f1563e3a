"""Benchmark: import the shared real dataset, then time validating the imported project.

Prints figures; it is not a test. Usage: python bench/validate_dataset.py [CSV]
"""

from __future__ import annotations

import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

from toolkit.figure.database import find_datasets, load_database
from toolkit.figure.sheets.foreign import read_csv
from toolkit.figure.sheets.project import write_project

sys.path.insert(0, str(Path(__file__).parent))
from shared_paths import DATASET as DEFAULT_CSV


def main() -> None:
    csv_path = Path(sys.argv[1]) if len(sys.argv) > 1 else DEFAULT_CSV
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "imported"
        start = time.perf_counter()
        result = read_csv(csv_path)
        write_project(result, out, "duel-protocol")
        imported = time.perf_counter() - start
        timings = []
        for _ in range(3):
            start = time.perf_counter()
            datasets, problems = find_datasets(out)
            database = load_database(datasets[0])
            timings.append(time.perf_counter() - start)
        problems += database.problems
    codes = Counter(problem.code for problem in problems)
    print(f"rows_read={result.rows_read} units_written={len(result.units)} figures_skipped={len(result.skipped)}")
    print(f"import_seconds={imported:.2f}")
    print(f"validate_seconds_best_of_3={min(timings):.2f} units_valid={len(database.units)}")
    print("problems_by_code=" + " ".join(f"{code}:{count}" for code, count in sorted(codes.items())))


if __name__ == "__main__":
    main()
