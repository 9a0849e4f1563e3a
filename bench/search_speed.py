"""Speed of the search bot and of a skill ladder, against the greedy bot measured in the same run.

    PYTHONPATH=. python bench/search_speed.py [--decisions N] [--ladder-games N] [--theme ID] [--squad ID]

Prints, for the turn-start positions of greedy self-play: a greedy decision's time (the anchor), the
search at an eighth of the default budget and the default's (issue 23: at most 0.25 s), how deep each got;
then the time of the default 4-rung ladder (`duelkit simulate --ladder`: random, greedy, search:10, search:20) of a
bundled mirror match at N games a rung (issue 23: 100 games a rung in under 10 minutes), rung by rung,
each against the greedy rung's time in the same run.
Wall-clock figures depend on what else the machine runs: read the ratios.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from toolkit.cli.simulate import LADDER
from toolkit.figure.bots.greedy import GreedyBot
from toolkit.figure.bots.search import DEFAULT_ITERATIONS, SearchBot
from toolkit.figure.database import find_datasets, load_database
from toolkit.figure.engine import CHANCE, GameState, build_game
from toolkit.figure.engine.play import sample_outcome
from toolkit.figure.engine.state import START
from toolkit.figure.sim.games import PairTask
from toolkit.figure.sim.pool import play_pairs
from toolkit.players import PLAYERS


def positions(game, count: int) -> list[GameState]:
    """Turn starts of greedy self-play games, every third turn."""
    greedy, found, seed = GreedyBot(), [], 0
    while len(found) < count:
        dice, own = random.Random(seed), random.Random(seed + 1)
        state = GameState.initial(game, PLAYERS[seed % 2])
        seed += 1
        while not state.is_terminal() and len(found) < count:
            if state.current_player == CHANCE:
                state.apply(sample_outcome(state, dice))
                continue
            if state.phase == START and state.turn % 3 == 1 and len(state.decisions()) > 1:
                found.append(state.clone())
            state.apply(greedy.choose(state, own))
    return found


def timed(bot, states: list[GameState]) -> tuple[list[float], list[int]]:
    seconds, depths = [], []
    for state in states:
        started = time.perf_counter()
        bot.choose(state, random.Random(1))
        seconds.append(time.perf_counter() - started)
        depths.append(getattr(bot, "last_depth", 1))
    return seconds, depths


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--decisions", type=int, default=30, help="positions timed (default 30)")
    parser.add_argument("--ladder-games", type=int, default=100, help="games a ladder rung (default 100; 0 skips)")
    parser.add_argument("--theme", default="duel-protocol")
    parser.add_argument("--squad", default="hydro-conductor", help="the mirror match's squad")
    args = parser.parse_args()
    database = next(load_database(ds) for ds in find_datasets(None)[0] if ds.theme_id == args.theme)
    game = build_game(args.squad, args.squad, database)
    states = positions(game, args.decisions)
    anchor, _ = timed(GreedyBot(), states)
    greedy_ms = statistics.fmean(anchor) * 1000
    print(f"{args.theme} {args.squad} mirror, {len(states)} turn starts of greedy self-play")
    print(f"  greedy (anchor): mean {greedy_ms:.1f} ms")
    for budget in (DEFAULT_ITERATIONS // 8, DEFAULT_ITERATIONS):  # the 1x and 8x of the strength figures
        seconds, depths = timed(SearchBot(budget), states)
        mean = statistics.fmean(seconds) * 1000
        print(f"  search:{budget}: mean {mean:.0f} ms ({mean / greedy_ms:.1f}x greedy), median "
              f"{statistics.median(seconds) * 1000:.0f} ms, max {max(seconds) * 1000:.0f} ms; "
              f"depth reached: mean {statistics.fmean(depths):.2f} turns, max {max(depths)}", flush=True)
    if args.ladder_games:
        total = 0.0
        rungs = LADDER
        greedy_rung = None
        for rung in rungs:
            tasks = [PairTask((rung, rung), 23, pair, record=False) for pair in range(args.ladder_games // 2)]
            started = time.perf_counter()
            play_pairs(game, tasks, 1)
            seconds = time.perf_counter() - started
            total += seconds
            greedy_rung = seconds if rung == "greedy" else greedy_rung
            ratio = f" ({seconds / greedy_rung:.1f}x the greedy rung)" if greedy_rung else ""
            print(f"  ladder rung {rung}: {args.ladder_games} games in {seconds:.0f} s{ratio}", flush=True)
        print(f"  4-rung ladder, {args.ladder_games} games a rung, one process: {total:.0f} s ({total / 60:.1f} min"
              f"{f', {total / greedy_rung:.0f}x the greedy rung' if greedy_rung else ''})")


if __name__ == "__main__":
    main()
