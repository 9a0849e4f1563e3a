"""Speed of the figure engine: random-vs-random games per second and clones per second, per theme.

    PYTHONPATH=. python bench/engine_speed.py [--games N] [--clones N] [--repeat N]

Figures are CPU seconds of this process (time.process_time), so other work on a shared machine does
not count against the engine; wall-clock figures are printed beside them. Each figure is the best of
`--repeat` runs (each run on a freshly built game, so its caches start cold as in a new simulation).
The issue's aims: at least 300 random games per second per core and 200,000 clones per second.
"""

from __future__ import annotations

import argparse
import random
import time

from toolkit.figure.database import Database, find_datasets, load_database
from toolkit.figure.engine import CHANCE, GameState, build_game
from toolkit.figure.engine.play import play_out, random_bot, sample_outcome
from toolkit.figure.engine.tables import GameTables
from toolkit.players import PLAYERS, Player

MATCHES = {"duel-protocol": ("hydro-conductor", "malfunction-cascade"), "chimera": ("attrition-lock", "grid-surge")}


def mid_game(game: GameTables, seed: int, steps: int = 60) -> GameState:
    rng = random.Random(seed)
    state = GameState.initial(game, Player.A)
    for _ in range(steps):
        if state.is_terminal():
            break
        state.apply(sample_outcome(state, rng) if state.current_player == CHANCE else random_bot(state, rng))
    return state


def random_games(database: Database, squads: tuple[str, str], games: int) -> tuple[float, float, int, int]:
    """CPU and wall seconds of `games` seeded random games on a new game, with their turns and steps."""
    game = build_game(*squads, database)
    cpu, wall = time.process_time(), time.perf_counter()
    turns = steps = 0
    for seed in range(games):
        rng = random.Random(seed)
        counter = [0]

        def count(_state, _step, counter=counter):
            counter[0] += 1
        state = play_out(GameState.initial(game, PLAYERS[seed % 2]), (random_bot, random_bot), rng, count)
        turns += state.turn + 1
        steps += counter[0]
    return time.process_time() - cpu, time.perf_counter() - wall, turns, steps


def clones(state: GameState, count: int) -> tuple[float, float]:
    cpu, wall = time.process_time(), time.perf_counter()
    for _ in range(count):
        state.clone()
    return time.process_time() - cpu, time.perf_counter() - wall


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="games per theme (default 1000)")
    parser.add_argument("--clones", type=int, default=200_000, help="clones per theme (default 200000)")
    parser.add_argument("--repeat", type=int, default=3, help="runs per figure, the best one counts (default 3)")
    args = parser.parse_args()
    databases = {ds.theme_id: load_database(ds) for ds in find_datasets(None)[0]}
    for theme, squads in MATCHES.items():
        runs = [random_games(databases[theme], squads, args.games) for _ in range(args.repeat)]
        cpu, wall, turns, steps = min(runs)
        every = ", ".join(f"{args.games / run[0]:.0f}" for run in runs)
        print(f"{theme}: {args.games} random games in {cpu:.2f} s CPU ({wall:.2f} s wall): "
              f"{args.games / cpu:.0f} games/s per core (best of {every}); {turns / args.games:.0f} turns and "
              f"{steps / args.games:.0f} steps per game, {steps / cpu:.0f} steps/s")
        state = mid_game(build_game(*squads, databases[theme]), 1)
        cpu, wall = min(clones(state, args.clones) for _ in range(args.repeat))
        print(f"{theme}: {args.clones} clones of a turn-{state.turn + 1} state in {cpu:.2f} s CPU: "
              f"{args.clones / cpu:,.0f} clones/s ({args.clones / wall:,.0f} wall)")


if __name__ == "__main__":
    main()
