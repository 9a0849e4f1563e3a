"""Which players solve the held-out tactics suite (tests/figure/tactics.py), over a few player seeds.

    PYTHONPATH=. python bench/tactics.py [--players random,greedy,search] [--seeds N]

Prints, per position, the share of seeds on which each player took the right decision, and each player's
mean decision time in the same run (greedy's is the anchor the others are given as ratios of).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from tests.figure.tactics import TACTICS
from toolkit.figure.bots import make_bot
from toolkit.figure.bots.knowledge import knowledge


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", default="random,greedy,search,search:160")
    parser.add_argument("--seeds", type=int, default=5)
    args = parser.parse_args()
    names = args.players.split(",")
    times: dict[str, list[float]] = {name: [] for name in names}
    print(f"{'position':22}" + "".join(f"{name:>12}" for name in names))
    for tactic in TACTICS:
        row = f"{tactic.name:22}"
        for name in names:
            solved = 0
            for seed in range(args.seeds):
                state = tactic.position()
                knowledge(state.game)  # the per-game tables are not the decision's time
                started = time.perf_counter()
                action = make_bot(name).choose(state.clone(), random.Random(seed))
                times[name].append(time.perf_counter() - started)
                solved += tactic.solved(state, action)
            row += f"{f'{solved}/{args.seeds}':>12}"
        print(row, flush=True)
    anchor = statistics.fmean(times["greedy"]) if "greedy" in times else None
    for name in names:
        mean = statistics.fmean(times[name])
        ratio = f" ({mean / anchor:.1f}x greedy)" if anchor else ""
        print(f"{name}: mean decision {mean * 1000:.0f} ms{ratio}")


if __name__ == "__main__":
    main()
