"""Benchmark: start-up and `validate` against their anchors, measured in the same run (issue 28, items 2-3).

Figures, each the best of `--runs` fresh processes, run in turns so both sides of a ratio see the same load:
  - `duelkit --version` and `duelkit validate` of a new starter project, as multiples of bare Python
    (`python -c pass`; goal: start-up within 8x);
  - `duelkit validate` of the real dataset imported with `duelkit import`, as a multiple of the libyaml parse
    floor (a Python process that reads every YAML file of the project and runs libyaml's event parser over it,
    start-up included; goal: within 4x).
The checkout's modules are compiled to bytecode first, as installing duelkit does (pip writes the .pyc
files), so a run with PYTHONDONTWRITEBYTECODE set does not time the compiler. Each figure is also given in
CPU seconds (user + system, best of the runs), whose ratios move less than wall time's when other work
shares the machine.
Not a test. Usage: python bench/startup.py [--runs N] [--code DIR]
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(HERE / "bench"))
from shared_paths import DATASET  # noqa: E402  (bench/ is not a package: imported through sys.path)

FLOOR = """import pathlib, sys, yaml
for path in sorted(pathlib.Path(sys.argv[1]).rglob("*.yaml")):
    for _ in yaml.parse(path.read_bytes(), Loader=yaml.CSafeLoader):
        pass
"""


def seconds(command: Sequence[str], env: dict[str, str]) -> tuple[float, float]:
    """Wall and CPU (user + system) seconds of one run of `command`."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(command, env=env, capture_output=True, check=False, cwd=tempfile.gettempdir())
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime


def best_in_turns(commands: dict[str, Sequence[str]], env: dict[str, str],
                  runs: int) -> tuple[dict[str, float], dict[str, float]]:
    """Each command's best wall and best CPU time, the commands run in turns (A B C A B C ...)."""
    wall = {name: float("inf") for name in commands}
    cpu = dict(wall)
    for _ in range(runs):
        for name, command in commands.items():
            run_wall, run_cpu = seconds(command, env)
            wall[name], cpu[name] = min(wall[name], run_wall), min(cpu[name], run_cpu)
    return wall, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="runs per figure; the best is printed")
    parser.add_argument("--code", type=Path, default=HERE, help="the checkout to time (default: this one)")
    options = parser.parse_args()
    env = {**os.environ, "PYTHONPATH": str(options.code.resolve())}
    python, duelkit = [sys.executable], [sys.executable, "-m", "toolkit"]
    subprocess.run([*python, "-m", "compileall", "-q", str(options.code.resolve() / "toolkit")], check=True)
    with tempfile.TemporaryDirectory() as tmp:
        starter, imported = Path(tmp) / "starter", Path(tmp) / "imported"
        subprocess.run([*duelkit, "new", str(starter)], env=env, capture_output=True, check=True)
        subprocess.run([*duelkit, "import", str(DATASET), "--out", str(imported)], env=env, capture_output=True,
                       check=False)
        files = sum(1 for _ in imported.rglob("*.yaml"))
        found, cpu = best_in_turns({
            "bare": [*python, "-c", "pass"],
            "version": [*duelkit, "--version"],
            "validate_starter": [*duelkit, "validate", str(starter)],
            "floor": [*python, "-c", FLOOR, str(imported)],
            "validate_imported": [*duelkit, "validate", str(imported)],
        }, env, options.runs)
    bare, floor = found["bare"], found["floor"]

    def cpu_ratio(name: str, anchor: str) -> str:
        return f"cpu_seconds={cpu[name]:.3f} cpu_ratio={cpu[name] / cpu[anchor]:.1f}x"
    print(f"anchor python_c_pass seconds={bare:.3f} cpu_seconds={cpu['bare']:.3f} (best of {options.runs})")
    print(f"startup version seconds={found['version']:.3f} ratio={found['version'] / bare:.1f}x bare python "
          f"(goal: 8x) {cpu_ratio('version', 'bare')}")
    print(f"startup validate_starter seconds={found['validate_starter']:.3f} "
          f"ratio={found['validate_starter'] / bare:.1f}x bare python (goal: 8x) "
          f"{cpu_ratio('validate_starter', 'bare')}")
    print(f"anchor libyaml_parse_floor files={files} seconds={floor:.3f} cpu_seconds={cpu['floor']:.3f} "
          f"(best of {options.runs})")
    print(f"validate_imported files={files} seconds={found['validate_imported']:.3f} "
          f"ratio={found['validate_imported'] / floor:.1f}x the libyaml floor (goal: 4x) "
          f"{cpu_ratio('validate_imported', 'floor')}")


if __name__ == "__main__":
    main()
