"""The AI ladder: does each player beat the one below it, and by how much? Wilson 95% intervals.

    PYTHONPATH=. python bench/ladder.py [--games N] [--jobs K] [--theme ID] [--rung greedy,random] ...

Each rung plays N games (default 400) between two players on a theme's two bundled squads: half with
the stronger player on the first squad, half on the second, every pair of games seat-swapped over the
same dice (so each player moves first in half its games). Printed: the stronger player's win rate with
its interval, the draws, and games per second.
"""

from __future__ import annotations

import argparse
import time

from toolkit.figure.database import find_datasets, load_database
from toolkit.figure.engine import build_game
from toolkit.figure.sim.games import PairTask
from toolkit.figure.sim.pool import play_pairs
from toolkit.figure.sim.stats import wilson

MATCHES = {"duel-protocol": ("hydro-conductor", "malfunction-cascade"), "chimera": ("attrition-lock", "grid-surge")}


def rung(databases, theme: str, strong: str, weak: str, games: int, jobs: int, seed: int) -> None:
    squad_1, squad_2 = MATCHES[theme]
    wins = draws = total = 0
    started = time.perf_counter()
    half = games // 2
    for squads, players, strong_side in (((squad_1, squad_2), (strong, weak), 0),
                                         ((squad_2, squad_1), (strong, weak), 0)):
        game = build_game(*squads, databases[theme])
        tasks = [PairTask(players, seed, pair, record=False) for pair in range(half // 2)]
        results = play_pairs(game, tasks, jobs)
        wins += sum(1 for r in results if r.winner == strong_side)
        draws += sum(1 for r in results if r.winner < 0)
        total += len(results)
    seconds = time.perf_counter() - started
    low, high = wilson(wins, total)
    print(f"{theme}: {strong} vs {weak}: {strong} won {wins} of {total} ({wins / total:.1%}, 95% interval "
          f"{low:.1%} to {high:.1%}), draws {draws}; {total / seconds:.2f} games/s wall with {jobs} jobs", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400, help="games per rung (default 400)")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--theme", action="append", choices=sorted(MATCHES), help="default: both")
    parser.add_argument("--rung", action="append", metavar="STRONG,WEAK",
                        help="default: greedy,random and search,greedy")
    args = parser.parse_args()
    databases = {ds.theme_id: load_database(ds) for ds in find_datasets(None)[0]}
    for pair in args.rung or ["greedy,random", "search,greedy"]:
        strong, weak = pair.split(",")
        for theme in args.theme or sorted(MATCHES):
            rung(databases, theme, strong, weak, args.games, args.jobs, args.seed)


if __name__ == "__main__":
    main()
