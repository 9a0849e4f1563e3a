"""Speed of `duelkit simulate`: greedy-vs-greedy games per second with one and two jobs, and how long a
search decision takes against its budget.

    PYTHONPATH=. python bench/simulate_speed.py [--games N] [--decisions N]

The issue's aims: 1,000 greedy-vs-greedy games in under 30 s on a 2-core machine, a search decision
within its budget
(issue 23: at most 0.25 s by default; bench/search_speed.py has the detail). Wall-clock figures depend on
what else the machine runs;
CPU seconds of this process (time.process_time) are printed beside them for the one-job run.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from toolkit.figure.bots.greedy import GreedyBot
from toolkit.figure.bots.search import DEFAULT_ITERATIONS, SearchBot
from toolkit.figure.database import find_datasets, load_database
from toolkit.figure.engine import CHANCE, GameState, build_game
from toolkit.figure.engine.play import sample_outcome
from toolkit.figure.sim.games import PairTask
from toolkit.figure.sim.pool import play_pairs
from toolkit.players import PLAYERS

MATCHES = {"duel-protocol": ("hydro-conductor", "malfunction-cascade"), "chimera": ("attrition-lock", "grid-surge")}


def games_per_second(game, games: int, jobs: int) -> tuple[float, float, float]:
    tasks = [PairTask(("greedy", "greedy"), 1, pair, record=False) for pair in range(games // 2)]
    cpu, wall = time.process_time(), time.perf_counter()
    results = play_pairs(game, tasks, jobs)
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    turns = statistics.fmean(r.turns for r in results)
    return games / wall, games / cpu if jobs == 1 else 0.0, turns


def decision_times(game, decisions: int, player: SearchBot) -> list[float]:
    """Seconds per search decision, at the turn-start positions of greedy-vs-greedy games."""
    greedy = GreedyBot()
    times: list[float] = []
    seed = 0
    while len(times) < decisions:
        rng, own = random.Random(seed), random.Random(seed + 1)
        state = GameState.initial(game, PLAYERS[seed % 2])
        seed += 1
        while not state.is_terminal() and len(times) < decisions:
            if state.current_player == CHANCE:
                state.apply(sample_outcome(state, rng))
                continue
            if state.phase == 0 and state.turn % 3 == 1:
                started = time.perf_counter()
                player.choose(state, own)
                times.append(time.perf_counter() - started)
            state.apply(greedy.choose(state, own))
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="greedy-vs-greedy games per theme (default 1000)")
    parser.add_argument("--one-job-games", type=int, default=200, help="games for the one-job figure (default 200)")
    parser.add_argument("--decisions", type=int, default=30, help="search decisions timed per theme (default 30)")
    parser.add_argument("--theme", action="append", choices=sorted(MATCHES))
    args = parser.parse_args()
    databases = {ds.theme_id: load_database(ds) for ds in find_datasets(None)[0]}
    for theme in args.theme or sorted(MATCHES):
        game = build_game(*MATCHES[theme], databases[theme])
        two, _, turns = games_per_second(game, args.games, 2)
        print(f"{theme}: {args.games} greedy-vs-greedy games with 2 jobs: {args.games / two:.1f} s wall, "
              f"{two:.1f} games/s (mean {turns:.0f} turns)", flush=True)
        one, one_cpu, _ = games_per_second(game, args.one_job_games, 1)
        print(f"{theme}: {args.one_job_games} games with 1 job: {one:.1f} games/s wall, {one_cpu:.1f} games/s per "
              f"CPU second; 2 jobs / 1 job = {two / one:.2f}", flush=True)
        for label, player in ((f"search ({DEFAULT_ITERATIONS} iterations)", SearchBot()),
                              ("search:500ms", SearchBot(milliseconds=500))):
            times = decision_times(game, args.decisions, player)
            print(f"{theme}: {label}: {len(times)} decisions, mean {statistics.fmean(times) * 1000:.0f} ms, "
                  f"median {statistics.median(times) * 1000:.0f} ms, max {max(times) * 1000:.0f} ms", flush=True)


if __name__ == "__main__":
    main()
