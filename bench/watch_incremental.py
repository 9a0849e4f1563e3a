"""Benchmark: `duelkit watch`'s one-unit rebuild of a 420-unit project, against anchors in the same run.

The project: `duelkit new` plus generated units (one file each) up to 420 in all. In this one process:
a full build (a fresh watch session's first build, no page cache: the anchor), then a watch session's rebuild
after a one-unit edit, each best of `--runs`. The rebuild is what the watcher times itself (the "rebuilt ...
in N s" line), without the file-event delay. Then, with a real `duelkit watch` process: the seconds from
saving the edit to kit.pdf on disk showing it (the kit folder swapped in), best of `--runs` saves, against
bare Python's start-up (`python -c pass`) measured in the same run as the machine's anchor.
Goals (issue 28): the rebuild under 0.3 s, the kit on disk within 1.5 s of the save. The full build and the
rebuild also print this process's CPU seconds, which a machine busy with other work disturbs less.
Not a test. Usage: python bench/watch_incremental.py [--runs N] [--only schematics] [--no-process]
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import random
import re
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


def bare_python(runs: int) -> float:
    """Best wall seconds of `python -c pass`: the machine's speed, as an anchor."""
    best = float("inf")
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run([sys.executable, "-c", "pass"], check=True)
        best = min(best, time.perf_counter() - start)
    return best


def save_to_disk(project: Path, out: Path, runs: int) -> float:
    """Best seconds from saving a one-unit edit to the kit on disk showing it, with a real watcher."""
    env = {**os.environ, "PYTHONPATH": str(HERE)}
    command = [sys.executable, "-m", "toolkit", "watch", str(project), "--out", str(out), "--max-rebuilds",
               str(runs)]
    process = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    kit = out / "duel-protocol" / "kit.pdf"
    unit = project / "unit_data" / "spark.yaml"
    text = unit.read_text(encoding="utf-8")
    best = float("inf")
    try:
        for line in process.stdout or ():
            if line.startswith("watching"):
                break
        for run in range(runs):
            time.sleep(0.5)  # the watcher settles before the save
            before = kit.read_bytes()
            saved = time.perf_counter()
            unit.write_text(re.sub(r"damage: \d+", f"damage: {110 + 10 * run}", text, count=1), encoding="utf-8")
            deadline = saved + 60
            while time.perf_counter() < deadline:
                try:
                    if kit.read_bytes() != before:
                        break
                except OSError:
                    pass  # between two names of the swap: look again
                time.sleep(0.005)
            best = min(best, time.perf_counter() - saved)
            for line in process.stdout or ():
                if "rebuilt" in line or "not rebuilt" in line:
                    break
    finally:
        process.wait(timeout=120)
        unit.write_text(text, encoding="utf-8")
    return best


def timed(action: object) -> tuple[float, float]:
    """Wall and CPU seconds of `action()` (this process's CPU time: less disturbed by other work on the
    machine than the wall clock, so both are printed)."""
    start, cpu = time.perf_counter(), time.process_time()
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        action()  # type: ignore[operator]
    return time.perf_counter() - start, time.process_time() - cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="runs per figure; the best is printed")
    parser.add_argument("--only", default=None, help="pass --only to the watch (e.g. schematics)")
    parser.add_argument("--no-process", action="store_true", help="skip the real watcher (save to disk)")
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        project, units = make_project(root)
        words = ["watch", str(project), "--out", str(root / "out"), "--no-cache"]
        if options.only:
            words += ["--only", options.only]
        args = build_parser().parse_args(words)
        unit = project / "unit_data" / "spark.yaml"
        text = unit.read_text(encoding="utf-8")
        with output_folder(args, "", []) as folder:
            full, full_cpu = min(timed(lambda: Session(args).rebuild(folder, [])) for _ in range(options.runs))
            session = Session(args)
            timed(lambda: session.rebuild(folder, []))
            edits = []
            for run in range(options.runs):
                unit.write_text(text.replace("damage: 30", f"damage: {40 + 10 * run}"), encoding="utf-8")
                edits.append(timed(lambda: session.rebuild(folder, [unit])))
            rebuild, rebuild_cpu = min(edits)
            if os.environ.get("BENCH_PROFILE"):
                import cProfile
                unit.write_text(text.replace("damage: 30", "damage: 90"), encoding="utf-8")
                cProfile.runctx("session.rebuild(folder, [unit])", globals(), locals(), os.environ["BENCH_PROFILE"])
            unit.write_text(text, encoding="utf-8")
        files = sum(1 for _ in project.rglob('*.yaml'))
        bare = bare_python(options.runs)
        disk = None if options.no_process or options.only else save_to_disk(project, root / "live", options.runs)
    print(f"project units={units} yaml_files={files} only={options.only}")
    print(f"anchor full_build seconds={full:.3f} cpu={full_cpu:.3f} (a fresh session's first build, best of "
          f"{options.runs})")
    print(f"anchor python_c_pass seconds={bare:.3f} (best of {options.runs})")
    print(f"watch_one_unit_rebuild seconds={rebuild:.3f} ratio={rebuild / full:.3f} of the full build "
          f"({full / rebuild:.1f}x faster) = {rebuild / bare:.1f}x bare python (goal: under 0.3 s); "
          f"cpu={rebuild_cpu:.3f} ratio={rebuild_cpu / full_cpu:.3f} of the full build's cpu")
    if disk is not None:
        print(f"watch_save_to_kit_on_disk seconds={disk:.3f} ratio={disk / full:.3f} of the full build "
              f"= {disk / bare:.1f}x bare python (goal: within 1.5 s; best of {options.runs} saves)")


if __name__ == "__main__":
    main()
