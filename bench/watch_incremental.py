"""Benchmark: `duelkit watch`'s one-unit rebuild of a 420-unit project, against a full build in the same run.

The project: `duelkit new` plus generated units (one file each) up to 420 in all. In this one process:
a full build (a fresh watch session's first build: the anchor), then a watch session's rebuild after a
one-unit edit, each best of `--runs`. The rebuild is what the watcher times itself (the "rebuilt ... in N s"
line), without the file-event delay.
Not a test. Usage: python bench/watch_incremental.py [--runs N] [--only schematics]
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(HERE))
TARGET_UNITS = 420

from bench.end_to_end import unit_yaml  # noqa: E402
from toolkit.cli import build_parser  # noqa: E402
from toolkit.cli.common import output_folder  # noqa: E402
from toolkit.cli.watch import Session  # noqa: E402


def make_project(root: Path) -> tuple[Path, int]:
    """The project and its number of units: the starter's plus generated ones, one file each (valid
    units: the imported dataset breaks a few rules, and a watch does not rebuild data with errors)."""
    project = root / "units420"
    env = {**os.environ, "PYTHONPATH": str(HERE)}
    subprocess.run([sys.executable, "-m", "toolkit", "new", str(project)], env=env, check=True, capture_output=True)
    rng = random.Random(420)
    for index in range(TARGET_UNITS - _count(project)):
        (project / "unit_data" / f"u-{index:03d}.yaml").write_text(f"units:\n{unit_yaml(rng, index)}\n",
                                                                   encoding="utf-8")
    return project, _count(project)


def _count(project: Path) -> int:
    return sum(line.lstrip().startswith(("- id:", "id:"))
               for path in (project / "unit_data").rglob("*.yaml")
               for line in path.read_text(encoding="utf-8").splitlines())


def timed(action: object) -> float:
    start = time.perf_counter()
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        action()  # type: ignore[operator]
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="runs per figure; the best is printed")
    parser.add_argument("--only", default=None, help="pass --only to the watch (e.g. schematics)")
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        project, units = make_project(root)
        words = ["watch", str(project), "--out", str(root / "out")]
        if options.only:
            words += ["--only", options.only]
        args = build_parser().parse_args(words)
        unit = project / "unit_data" / "spark.yaml"
        text = unit.read_text(encoding="utf-8")
        with output_folder(args, "", []) as folder:
            full = min(timed(lambda: Session(args).rebuild(folder, [])) for _ in range(options.runs))
            session = Session(args)
            timed(lambda: session.rebuild(folder, []))
            edits = []
            for run in range(options.runs):
                unit.write_text(text.replace("damage: 30", f"damage: {40 + 10 * run}"), encoding="utf-8")
                edits.append(timed(lambda: session.rebuild(folder, [unit])))
            rebuild = min(edits)
            if os.environ.get("BENCH_PROFILE"):
                import cProfile
                cProfile.runctx("session.rebuild(folder, [unit])", globals(), locals(), os.environ["BENCH_PROFILE"])
        files = sum(1 for _ in project.rglob('*.yaml'))
    print(f"project units={units} yaml_files={files} only={options.only}")
    print(f"full_build seconds={full:.3f} (anchor: a fresh session's first build, best of {options.runs})")
    print(f"watch_one_unit_rebuild seconds={rebuild:.3f} ratio={rebuild / full:.3f} of the full build "
          f"({full / rebuild:.1f}x faster)")


if __name__ == "__main__":
    main()
