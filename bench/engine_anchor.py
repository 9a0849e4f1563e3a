"""Random-play and clone speed of the figure engine: this tree against an anchor commit, in one run.

    python bench/engine_anchor.py [--anchor 12036e3] [--games N] [--clones N] [--rounds N]

The anchor is extracted with `git archive` into a temporary folder (nothing is checked out here). Each
round times the anchor and this tree in turn, each in a fresh child process on a freshly built game, so
both see the same load on a shared machine; the best round of each counts (CPU seconds of the child,
time.process_time). Both play exactly the same seeded games (the random player draws with the same
generator, spins are sampled by `engine.play.sample_outcome`), and the run checks it: the digest of every
game's final `state_hash` must agree, or the ratio compares different games and the script says so.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MATCHES = {"duel-protocol": ("hydro-conductor", "malfunction-cascade"), "chimera": ("attrition-lock", "grid-surge")}

# Runs in the child, against whichever tree is on its PYTHONPATH: only the API both trees share.
WORKER = r"""
import hashlib, json, random, sys, time
from toolkit.figure.database import find_datasets, load_database
from toolkit.figure.engine import CHANCE, GameState, build_game
from toolkit.figure.engine.play import sample_outcome
from toolkit.players import PLAYERS, Player

games, clones, matches = int(sys.argv[1]), int(sys.argv[2]), json.loads(sys.argv[3])
databases = {ds.theme_id: load_database(ds) for ds in find_datasets(None)[0]}
result = {}
for theme, squads in matches.items():
    game = build_game(*squads, databases[theme])
    digest, steps = hashlib.sha256(), 0
    started = time.process_time()
    for seed in range(games):
        rng = random.Random(seed)
        state = GameState.initial(game, PLAYERS[seed % 2])
        while not state.is_terminal():
            if state.current_player == CHANCE:
                state.apply(sample_outcome(state, rng))
            else:
                legal = state.legal_actions()
                state.apply(legal[rng.randrange(len(legal))])
            steps += 1
        digest.update(state.state_hash().encode())
    play = time.process_time() - started
    rng = random.Random(1)
    state = GameState.initial(game, Player.A)
    for _ in range(60):
        if state.is_terminal():
            break
        if state.current_player == CHANCE:
            state.apply(sample_outcome(state, rng))
        else:
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
    started = time.process_time()
    for _ in range(clones):
        state.clone()
    result[theme] = {"play": play, "steps": steps, "clone": time.process_time() - started,
                     "digest": digest.hexdigest()}
print(json.dumps(result))
"""


def extract(anchor: str, into: Path) -> Path:
    """The anchor's tree (toolkit and the bundled data) in a folder, by `git archive`."""
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", anchor], check=True, capture_output=True).stdout
    with tempfile.TemporaryFile() as handle:
        handle.write(archive)
        handle.seek(0)
        with tarfile.open(fileobj=handle) as tar:
            tar.extractall(into, filter="data")
    return into


def measure(tree: Path, games: int, clones: int) -> dict[str, dict[str, float | str]]:
    env = {**os.environ, "PYTHONPATH": str(tree), "PYTHONHASHSEED": "0"}
    done = subprocess.run([sys.executable, "-c", WORKER, str(games), str(clones), json.dumps(MATCHES)],
                          cwd=tree, env=env, check=True, capture_output=True, text=True)
    result: dict[str, dict[str, float | str]] = json.loads(done.stdout)
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--anchor", default="12036e3", help="the commit to compare against (default 12036e3)")
    parser.add_argument("--games", type=int, default=300, help="random games per theme and round (default 300)")
    parser.add_argument("--clones", type=int, default=200_000, help="clones per theme and round (default 200000)")
    parser.add_argument("--rounds", type=int, default=3, help="rounds; the best of each tree counts (default 3)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="duelkit-anchor-") as folder:
        anchor = extract(args.anchor, Path(folder))
        runs: dict[str, list[dict[str, dict[str, float | str]]]] = {"anchor": [], "current": []}
        for _ in range(args.rounds):
            runs["anchor"].append(measure(anchor, args.games, args.clones))
            runs["current"].append(measure(ROOT, args.games, args.clones))
    print(f"random play and clones, this tree against {args.anchor} ({args.rounds} rounds, best of each; "
          f"{args.games} games and {args.clones:,} clones per theme and round; CPU seconds)")
    for theme in MATCHES:
        best = {tree: {key: min(float(run[theme][key]) for run in tree_runs) for key in ("play", "clone")}
                for tree, tree_runs in runs.items()}
        digests = {run[theme]["digest"] for tree_runs in runs.values() for run in tree_runs}
        steps = {tree: float(tree_runs[0][theme]["steps"]) for tree, tree_runs in runs.items()}
        games_per_s = {tree: args.games / figures["play"] for tree, figures in best.items()}
        steps_per_s = {tree: steps[tree] / figures["play"] for tree, figures in best.items()}
        clones_per_s = {tree: args.clones / figures["clone"] for tree, figures in best.items()}
        print(f"{theme}: random play {games_per_s['anchor']:.0f} -> {games_per_s['current']:.0f} games/s, "
              f"ratio {games_per_s['current'] / games_per_s['anchor']:.2f}x (steps/s ratio "
              f"{steps_per_s['current'] / steps_per_s['anchor']:.2f}x); clones {clones_per_s['anchor']:,.0f} -> "
              f"{clones_per_s['current']:,.0f}/s, ratio {clones_per_s['current'] / clones_per_s['anchor']:.2f}x")
        if len(digests) == 1:
            print(f"  the same {args.games} games in both trees (final state hashes agree)")
        else:
            print(f"  the trees play different games ({steps['anchor']:.0f} against {steps['current']:.0f} steps: "
                  "rulings changed since the anchor), so the steps/s ratio is the fairer figure")


if __name__ == "__main__":
    main()
