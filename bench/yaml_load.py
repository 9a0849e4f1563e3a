"""Benchmark: YAML loading and `duelkit validate` wall time, per YAML backend.

Builds two projects in a temporary folder: the shared real dataset imported from CSV (about 520 units) and
420 generated units. For each project and each backend toolkit.yamlsource offers (libyaml and pure
Python), prints the best-of-N in-process time to load every YAML file, and the best-of-3 wall time of
`python -m toolkit validate DIR` (start-up included). Prints figures; it is not a test.
Usage: python bench/yaml_load.py [CSV]
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import yaml

from toolkit import yamlsource
from toolkit.figure.sheets.foreign import read_csv
from toolkit.figure.sheets.project import write_project

sys.path.insert(0, str(Path(__file__).parent))
from cards400 import generated_unit  # bench/ is not a package: imported through sys.path

sys.path.insert(0, str(Path(__file__).parent))
from shared_paths import DATASET as DEFAULT_CSV

GENERATED_UNITS = 420
ROOT = Path(__file__).resolve().parents[1]


def imported_project(csv_path: Path, out: Path) -> Path:
    write_project(read_csv(csv_path), out, "duel-protocol")
    return out


def generated_project(out: Path, count: int) -> Path:
    """`count` units written as a designer would keep them: one block-style YAML file per unit."""
    (out / "unit_data").mkdir(parents=True)
    (out / "duelkit.yaml").write_text("theme: duel-protocol\nname: Generated bench project\n", encoding="utf-8")
    rng = random.Random(420)
    for index in range(count):
        unit = generated_unit(rng, index).model_dump(mode="json", by_alias=True, exclude_none=True)
        text = yaml.safe_dump(unit, sort_keys=False, allow_unicode=True)
        (out / "unit_data" / f"u-{index:03d}.yaml").write_text(text, encoding="utf-8")
    return out


def backends() -> tuple[str, ...]:
    return tuple(getattr(yamlsource, "BACKENDS", ("python (no backend switch: before)",)))


def use_backend(name: str) -> None:
    if hasattr(yamlsource, "BACKENDS"):
        yamlsource.BACKEND = name


def load_seconds(project: Path, backend: str, runs: int = 5) -> tuple[float, float, int]:
    """Best time to load every YAML file of the project, and of the anchor run in turns with it: libyaml's
    event parser over the same files."""
    files = sorted(project.rglob("*.yaml"))
    use_backend(backend)
    best, floor = float("inf"), float("inf")
    for _ in range(runs):
        start = time.perf_counter()
        for path in files:
            for _event in yaml.parse(path.read_bytes(), Loader=yaml.CSafeLoader):
                pass
        floor = min(floor, time.perf_counter() - start)
        start = time.perf_counter()
        for path in files:
            yamlsource.load_yaml_file(path)
        best = min(best, time.perf_counter() - start)
    return best, floor, len(files)


def validate_seconds(project: Path, backend: str, runs: int = 3) -> tuple[float, int]:
    """Wall time of a fresh `validate` process; a non-default backend is chosen before main() runs."""
    if backend == backends()[0]:
        command = [sys.executable, "-m", "toolkit", "validate", str(project)]
    else:
        command = [sys.executable, "-c", "import sys; import toolkit.yamlsource as y; "
                   f"y.BACKEND = {backend!r}; from toolkit.cli import main; sys.exit(main(sys.argv[1:]))",
                   "validate", str(project)]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    best, code = float("inf"), -1
    for _ in range(runs):
        start = time.perf_counter()
        code = subprocess.run(command, env=env, capture_output=True, check=False).returncode
        best = min(best, time.perf_counter() - start)
    return best, code


def main() -> None:
    csv_path = Path(sys.argv[1]) if len(sys.argv) > 1 else DEFAULT_CSV
    print(f"pyyaml={yaml.__version__} with_libyaml={yaml.__with_libyaml__}")
    with tempfile.TemporaryDirectory() as tmp:
        projects = {"imported": imported_project(csv_path, Path(tmp) / "imported"),
                    f"generated{GENERATED_UNITS}": generated_project(Path(tmp) / "generated", GENERATED_UNITS)}
        for label, project in projects.items():
            for backend in backends():
                load, floor, files = load_seconds(project, backend)
                wall, code = validate_seconds(project, backend)
                print(f"project={label} files={files} backend={backend} load_seconds_best_of_5={load:.3f} "
                      f"ratio={load / floor:.1f}x the libyaml event parse ({floor:.3f} s, same run) "
                      f"validate_wall_seconds_best_of_3={wall:.2f} validate_exit={code}")


if __name__ == "__main__":
    main()
