"""Benchmark: import the shared real dataset, then time validating the imported project (in this process,
best of 3) against its anchor measured in the same run: libyaml's event parser run over every YAML file of
the project (the least any validate must do; bench/startup.py times both as fresh processes). Both are also
given in CPU seconds of this process, whose ratio moves less than wall time's when other work shares the machine.

Prints figures; it is not a test. Usage: python bench/validate_dataset.py [CSV]
"""

from __future__ import annotations

import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

import yaml

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
        timings, floor, cpu, cpu_floor = [], [], [], []
        for _ in range(3):  # in turns, so both figures see the same load
            start, start_cpu = time.perf_counter(), time.process_time()
            for path in sorted(out.rglob("*.yaml")):
                for _event in yaml.parse(path.read_bytes(), Loader=yaml.CSafeLoader):
                    pass
            floor.append(time.perf_counter() - start)
            cpu_floor.append(time.process_time() - start_cpu)
            start, start_cpu = time.perf_counter(), time.process_time()
            datasets, problems = find_datasets(out)
            database = load_database(datasets[0])
            timings.append(time.perf_counter() - start)
            cpu.append(time.process_time() - start_cpu)
        problems += database.problems
    codes = Counter(problem.code for problem in problems)
    print(f"rows_read={result.rows_read} units_written={len(result.units)} figures_skipped={len(result.skipped)}")
    print(f"import_seconds={imported:.2f}")
    print(f"anchor libyaml_event_parse_seconds_best_of_3={min(floor):.3f} cpu_seconds={min(cpu_floor):.3f}")
    print(f"validate_seconds_best_of_3={min(timings):.2f} ratio={min(timings) / min(floor):.1f}x the libyaml parse "
          f"units_valid={len(database.units)} cpu_seconds={min(cpu):.3f} cpu_ratio={min(cpu) / min(cpu_floor):.1f}x")
    print("problems_by_code=" + " ".join(f"{code}:{count}" for code, count in sorted(codes.items())))


if __name__ == "__main__":
    main()
