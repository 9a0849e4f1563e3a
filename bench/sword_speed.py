"""Sword-duel speed: random duels per CPU second, equilibrium decision times, equilibrium self-play wall time.

Issue 24's targets: >= 2,000 random duels per second per core; an equilibrium decision <= 50 ms; 1,000
equilibrium-against-equilibrium duels under 60 s on 2 cores. Machines differ and this one is shared, so
every figure is also given as a ratio against an anchor measured in the same run: a fixed pure-Python
workload (ANCHOR_LOOPS additions), whose CPU time is one "anchor second".

    python bench/sword_speed.py                       # all three, 1,000 self-play duels on 2 jobs
    python bench/sword_speed.py --selfplay 100 --jobs 2

Self-play is timed twice: wall time (which on a shared machine also counts other work), and the CPU
seconds its worker processes used, from which 1,000 duels on 2 whole cores are projected (CPU per duel x
1,000 / 2). The load average is printed at the start and the end: read figures taken above 2 with care.
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from toolkit.game import SimulateRequest  # noqa: E402
from toolkit.players import PLAYERS  # noqa: E402
from toolkit.sword.bots import EquilibriumBot, RandomBot  # noqa: E402
from toolkit.sword.bots.observation import Observation  # noqa: E402
from toolkit.sword.data import load_sword  # noqa: E402
from toolkit.sword.engine.draft import opponent_hands  # noqa: E402
from toolkit.sword.engine.duel import new_duel, resolve_turn  # noqa: E402
from toolkit.sword.sim.duels import DuelTask, Setup, play_pair, run_draft  # noqa: E402
from toolkit.sword.simulate import play  # noqa: E402

ANCHOR_LOOPS = 5_000_000


def anchor() -> float:
    """CPU seconds of a fixed pure-Python workload (best of 3)."""
    best = float("inf")
    for _ in range(3):
        start = time.process_time()
        total = 0
        for i in range(ANCHOR_LOOPS):
            total += i & 7
        best = min(best, time.process_time() - start)
    return best


def random_duels(setup: Setup, seconds: float) -> float:
    """Whole random duels (draft, builds, turns) per CPU second."""
    start = time.process_time()
    pairs = 0
    while time.process_time() - start < seconds:
        play_pair(setup, DuelTask(("random", "random"), 1, pairs))
        pairs += 1
    return 2 * pairs / (time.process_time() - start)


def decisions(setup: Setup, duels: int) -> list[float]:
    """CPU seconds of each equilibrium decision over `duels` drafted duels against a random opponent."""
    times: list[float] = []
    for k in range(duels):
        rng = random.Random(k)
        bots = [EquilibriumBot(), RandomBot()]
        draft = run_draft(setup.deck, setup.techniques, bots, [rng, rng], random.Random(k + 1000))  # type: ignore[list-item]
        hands = [[setup.techniques[c] for c in draft.picks[seat]] for seat in (0, 1)]
        state = new_duel(bots[0].build(rng), hands[0], bots[1].build(rng), hands[1])
        beliefs = [opponent_hands(draft, player) for player in PLAYERS]
        while state.result is None and state.turn <= 10:
            seen = [Observation(p, state, beliefs[p.seat], frozenset(), setup.techniques) for p in PLAYERS]
            started = time.process_time()
            mine = bots[0].choose(seen[0], rng)
            times.append(time.process_time() - started)
            state = resolve_turn(state, mine, bots[1].choose(seen[1], rng)).state
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=5.0, help="CPU seconds of random duels")
    parser.add_argument("--decision-duels", type=int, default=20, help="duels whose equilibrium decisions are timed")
    parser.add_argument("--selfplay", type=int, default=1000, help="equilibrium self-play duels (even)")
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    db = load_sword(ROOT)
    deck = tuple(t.id for t in db.draft_techniques())
    setup = Setup(dict(db.techniques), deck)
    print(f"load average at the start: {os.getloadavg()[0]:.1f} ({os.cpu_count()} cores)")
    unit = anchor()
    print(f"anchor: {ANCHOR_LOOPS:,} additions in {unit:.3f} CPU s (one anchor second)")
    rate = random_duels(setup, args.seconds)
    print(f"random duels: {rate:,.0f} per CPU second = {rate * unit:,.0f} per anchor second "
          f"(target 2,000 per second per core: {rate / 2000:.2f}x)")
    times = decisions(setup, args.decision_duels)
    median, worst = statistics.median(times), max(times)
    print(f"equilibrium decisions: {len(times)} over {args.decision_duels} duels against random; median "
          f"{median * 1000:.0f} ms = {median / unit:.2f} anchor s, 90th percentile "
          f"{sorted(times)[int(0.9 * (len(times) - 1))] * 1000:.0f} ms, worst {worst * 1000:.0f} ms "
          f"(target 50 ms: median {median / 0.05:.1f}x the target)")
    request = SimulateRequest(None, args.selfplay, ("equilibrium", "equilibrium"), 1, args.jobs)
    start, cpu = time.perf_counter(), _cpu_seconds()
    results, _ = play(setup, request, lambda _n: None)
    wall, cpu = time.perf_counter() - start, _cpu_seconds() - cpu
    n = len(results)
    print(f"equilibrium self-play: {n} duels on {args.jobs} jobs in {wall:.1f} s wall ({wall / unit:.0f} anchor s): "
          f"1,000 duels would take {wall * 1000 / n:.0f} s wall here (target 60 s: {wall * 1000 / n / 60:.1f}x)")
    projected = cpu / n * 1000 / 2
    print(f"  CPU: {cpu:.1f} s = {cpu / n * 1000:.0f} ms per duel ({cpu / n / unit:.2f} anchor s); on 2 whole cores "
          f"1,000 duels would take {projected:.0f} s (target 60 s: {projected / 60:.1f}x)")
    print(f"load average at the end: {os.getloadavg()[0]:.1f}")


def _cpu_seconds() -> float:
    """CPU seconds of this process and of its finished children (the self-play workers, once joined)."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


if __name__ == "__main__":
    main()
