"""Benchmark: the commands a designer types, timed end to end (a fresh `python -m toolkit` process each).

Prints one line per figure of issue 16 (wall seconds, best of several runs, start-up included):
  - `build --only schematics` of a 400-unit project, and protograf's 400 cards (`../shared/bench/peers.sh`)
    in the same run, as a ratio;
  - `validate` of the real dataset imported with `duelkit import`;
  - the full bundled build (three games);
  - `--version`;
  - a `watch` rebuild after a one-unit change (from the save to the "rebuilt" line).
Not a test. Usage: python bench/end_to_end.py [--code DIR] [--no-peers] [--runs N] [--schematics-only]
[--jobs N]
`--code DIR` times another checkout (e.g. main) with this same script: PYTHONPATH=DIR for every command;
a figure whose command that checkout lacks is printed as "n/a". `--schematics-only`: the first figure and
protograf's alone, their runs alternated (duelkit, protograf, duelkit, ...: a machine shared with other work
slows both alike), with the load average before and after. `--jobs N`: the processes `build` draws with
(`build --jobs N`, printed as processes=N); without it, build's default (one, and one more per idle
processor), printed as processes=default.
The checkout's modules are compiled to bytecode first, as installing duelkit does (pip writes the .pyc
files), so a run with PYTHONDONTWRITEBYTECODE set does not time the compiler (as `bench/startup.py`).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import queue
import random
import resource
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import NamedTuple

HERE = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(HERE / "bench"))
from shared_paths import DATASET, PEERS  # noqa: E402  (bench/ is not a package: imported through sys.path)

WORDS = ("Thunder", "Shock", "Quick", "Attack", "Volt", "Tackle", "Iron", "Tail", "Dodge", "Protect", "Bubble",
         "Hydro", "Pump", "Flame", "Burst", "Ember", "Gust", "Slam", "Haze", "Static", "Pulse", "Cryo", "Lock")
CLASSES = ("C", "UC", "R", "EX", "UX")
WATCH_TIMEOUT = 120.0


def unit_yaml(rng: random.Random, index: int) -> str:
    """One plausible unit (3-6 segments whose sizes, multiples of 4, sum to 96), as a `units:` list item."""
    count = rng.randint(3, 6)
    cuts = sorted(rng.sample(range(1, 24), count - 1))
    sizes = [4 * (b - a) for a, b in zip([0, *cuts], [*cuts, 24], strict=True)]
    lines = [f"  - id: u-{index:03d}", f"    name: Unit {index:03d}", f"    class: {rng.choice(CLASSES)}",
             f"    mp: {rng.randint(1, 3)}", "    disk:"]
    for position, size in enumerate(sizes):
        color = "red" if position == len(sizes) - 1 else rng.choice(("white", "white", "gold", "purple", "blue"))
        move = "Miss" if color == "red" else " ".join(rng.sample(WORDS, 2))
        extra = ""
        if color in ("white", "gold"):
            extra = f", damage: {rng.randrange(10, 160, 10)}"
        elif color == "purple":
            extra = f", stars: {rng.randint(1, 3)}, inflicts: paralysis"
        lines.append(f"      - {{move: {move}, color: {color}, size: {size}{extra}}}")
    return "\n".join(lines)


def make_project(root: Path, count: int, env: dict[str, str]) -> Path:
    """A `duelkit new` project with `count` generated units beside the starter's."""
    project = root / f"units{count}"
    run([sys.executable, "-m", "toolkit", "new", str(project)], env)
    rng = random.Random(400)
    body = "\n".join(unit_yaml(rng, index) for index in range(count))
    (project / "unit_data" / "generated.yaml").write_text(f"units:\n{body}\n", encoding="utf-8")
    return project


class Timing(NamedTuple):
    wall: float
    cpu: float  # user + system seconds of the command: less disturbed by other work on the machine

    def __str__(self) -> str:
        return f"seconds={self.wall:.2f} cpu={self.cpu:.2f}"


def run(command: Sequence[str], env: dict[str, str], check: bool = True) -> Timing:
    """Wall and CPU seconds of one command (its output discarded); raises when it fails and `check` is set."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    result = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if check and result.returncode != 0:
        raise SystemExit(f"failed ({result.returncode}): {' '.join(command)}\n{result.stderr[-2000:]}")
    return Timing(wall, after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)


def best(command: Sequence[str], env: dict[str, str], runs: int, check: bool = True) -> Timing:
    return min(run(command, env, check) for _ in range(runs))


def supports(env: dict[str, str], *words: str) -> bool:
    """Whether the checkout under test has this command or option (its --help names it)."""
    result = subprocess.run([sys.executable, "-m", "toolkit", *words[:-1], "--help"], env=env,
                            capture_output=True, text=True, check=False)
    return result.returncode == 0 and words[-1] in result.stdout


def peer_seconds(count: int) -> dict[str, float]:
    """protograf's (and decksmith's) seconds for `count` cards, from peers.sh; empty when it cannot run."""
    if not PEERS.exists():
        print(f"peers: {PEERS} not found: duelkit's figures alone")
        return {}
    result = subprocess.run(["bash", str(PEERS), str(count)], capture_output=True, text=True, check=False)
    found = {}
    for line in result.stdout.splitlines():
        if line.startswith("peer_seconds"):
            fields = dict(part.split("=", 1) for part in line.split()[1:])
            found[fields["tool"]] = float(fields["seconds"])
    if not found:
        print(f"peers: peers.sh printed no figure (exit {result.returncode}): duelkit's figures alone; "
              f"{result.stderr.strip()[-300:]}")
    return found


def protograf_command(count: int, out: Path) -> tuple[list[str], dict[str, str]] | None:
    """protograf's run of the peers' workload, as peers.sh makes it (None when its environment is not set up:
    peers.sh then makes it)."""
    venv = Path(os.environ.get("PEERS_VENV", "/tmp/duelkit-peers"))
    script = PEERS.parent / "protograf_cards.py"
    if not (venv / "bin" / "python").exists() or not script.exists():
        return None
    return [str(venv / "bin" / "python"), str(script)], {**os.environ, "CARDS": str(count), "OUT": str(out)}


def schematics_against_protograf(build: list[str], env: dict[str, str], runs: int, processes: str,
                                 root: Path) -> None:
    """`build --only schematics` and protograf's 400 cards, runs alternated, best of `runs` each."""
    peer = protograf_command(400, root / "protograf.pdf")
    if peer is None:
        only = best(build, env, runs)
        print(f"build_only_schematics units=400 processes={processes} {only}")
        for tool, seconds in peer_seconds(400).items():
            print(f"peer tool={tool} cards=400 seconds={seconds:.2f} ratio={seconds / only.wall:.1f}x")
        return
    load = _load()
    mine: list[Timing] = []
    theirs: list[Timing] = []
    for _ in range(runs):
        mine.append(run(build, env))
        theirs.append(run(peer[0], peer[1]))
    duelkit, protograf = min(mine), min(theirs)
    print(f"build_only_schematics units=400 processes={processes} {duelkit} "
          f"(runs {', '.join(f'{t.wall:.2f}' for t in mine)})")
    print(f"peer tool=protograf cards=400 {protograf} (runs {', '.join(f'{t.wall:.2f}' for t in theirs)}) "
          f"ratio={protograf.wall / duelkit.wall:.1f}x cpu_ratio={protograf.cpu / duelkit.cpu:.1f}x")
    print(f"load_average before={load} after={_load()} cpus={os.cpu_count()}")


def _load() -> str:
    with contextlib.suppress(OSError):
        return f"{os.getloadavg()[0]:.2f}"
    return "n/a"


def watch_rebuild(project: Path, out: Path, env: dict[str, str]) -> tuple[float, str]:
    """Seconds from saving a one-unit change to the watcher's "rebuilt" line, and that line."""
    command = [sys.executable, "-m", "toolkit", "watch", str(project), "--out", str(out), "--max-rebuilds", "1"]
    process = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    lines: queue.Queue[str] = queue.Queue()
    threading.Thread(target=lambda: [lines.put(line) for line in process.stdout or ()], daemon=True).start()
    try:
        _wait_for(lines, "watching")
        time.sleep(0.5)  # let the watcher settle before the save
        unit = project / "unit_data" / "spark.yaml"
        text = unit.read_text(encoding="utf-8")
        saved = time.perf_counter()
        unit.write_text(text.replace("damage: 30", "damage: 40"), encoding="utf-8")
        line = _wait_for(lines, "rebuilt")
        return time.perf_counter() - saved, line
    finally:
        try:
            process.wait(timeout=WATCH_TIMEOUT)
        except subprocess.TimeoutExpired:
            process.kill()


def _wait_for(lines: queue.Queue[str], word: str) -> str:
    deadline = time.monotonic() + WATCH_TIMEOUT
    while time.monotonic() < deadline:
        try:
            line = lines.get(timeout=0.5)
        except queue.Empty:
            continue
        if word in line:
            return line.strip()
    raise SystemExit(f"watch printed no '{word}' within {WATCH_TIMEOUT:g} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--code", type=Path, default=HERE, help="the checkout to time (default: this one)")
    parser.add_argument("--no-peers", action="store_true", help="skip peers.sh")
    parser.add_argument("--runs", type=int, default=3, help="runs per figure; the best is printed")
    parser.add_argument("--schematics-only", action="store_true",
                        help="only `build --only schematics` and protograf's figure, runs alternated")
    parser.add_argument("--jobs", type=int, help="processes drawing the pages (build --jobs N; default: build's)")
    args = parser.parse_args()
    env = {**os.environ, "PYTHONPATH": str(args.code.resolve())}
    duelkit = [sys.executable, "-m", "toolkit"]
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(args.code.resolve() / "toolkit")], check=True)
    print(f"code: {args.code.resolve()}")
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        os.chdir(root)  # outside any project, and `python -m` must not pick up a checkout from the cwd
        project = make_project(root, 400, env)
        has_only = supports(env, "build", "--only")
        jobs = ["--jobs", str(args.jobs)] if args.jobs else []
        processes = str(args.jobs) if args.jobs else "default"
        schematics = [*duelkit, "build", str(project), "--only", "schematics", "--out", str(root / "o1"), *jobs]
        if has_only and args.schematics_only and not args.no_peers:
            schematics_against_protograf(schematics, env, args.runs, processes, root)
            return
        if has_only:
            only = best(schematics, env, args.runs)
            print(f"build_only_schematics units=400 processes={processes} {only}")
        else:
            print("build_only_schematics units=400 n/a (no --only in this checkout)")
        if args.schematics_only:
            return
        full = best([*duelkit, "build", str(project), "--out", str(root / "o2"), *jobs], env, args.runs)
        print(f"build_full units=400 {full}")
        if not args.no_peers:
            for tool, peer in peer_seconds(400).items():
                mine = (only if has_only else full).wall
                what = "build --only schematics" if has_only else "full build"
                print(f"peer tool={tool} cards=400 seconds={peer:.2f} ratio={peer / mine:.1f}x (vs duelkit {what})")

        imported = root / "imported"
        run([*duelkit, "import", str(DATASET), "--out", str(imported)], env, check=False)
        units = sum(1 for _ in (imported / "unit_data").rglob("*.yaml"))
        validate = best([*duelkit, "validate", str(imported)], env, args.runs, check=False)
        print(f"validate_imported files={units} {validate}")

        bundled = best([*duelkit, "build", "--out", str(root / "o3")], env, args.runs)
        print(f"build_bundled games=3 {bundled}")
        version = best([*duelkit, "--version"], env, max(args.runs, 5))
        print(f"version seconds={version.wall:.3f} cpu={version.cpu:.3f}")

        if supports(env, "watch"):
            small = root / "small"
            run([*duelkit, "new", str(small)], env)
            seconds, line = watch_rebuild(small, root / "o4", env)
            print(f"watch_rebuild one_unit seconds={seconds:.2f} ({line})")
            seconds, line = watch_rebuild(project, root / "o5", env)
            print(f"watch_rebuild one_unit_of_400 seconds={seconds:.2f} ({line})")
        else:
            print("watch_rebuild n/a (no watch command in this checkout)")


if __name__ == "__main__":
    main()
