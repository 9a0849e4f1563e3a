"""Which of the sword-duel linter's findings does self-play confirm? (issue 24)

Random players explore every legal choice, so they reach the corners the linter reasons about. Over many
duels with every technique of the kit (the 12 samples, not only the draft) this counts, from the engine's
own event log: evades tried and why they failed, per technique; evades that succeeded; bypasses that took
effect; the highest Initiative reached. A linter finding is confirmed when the simulation never sees what
it says cannot happen (and sees the attempts, so it had the chance).

    python bench/sword_lint_check.py --duels 20000
"""

from __future__ import annotations

import argparse
import random
import re
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from toolkit.players import PLAYERS  # noqa: E402
from toolkit.sword.data import load_sword  # noqa: E402
from toolkit.sword.engine.duel import draw_by_time, legal_builds, legal_choices, new_duel, resolve_turn  # noqa: E402

EVADE = re.compile(r"^(Challenger|Defender) (tries to evade|evades) with (.+?)(,| paying| for free|\.)(.*)$")
INITIATIVE = re.compile(r"(Challenger|Defender) (\d+) \(Speed")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--duels", type=int, default=20000)
    args = parser.parse_args()
    db = load_sword(ROOT)
    techniques = list(db.techniques.values())
    builds = legal_builds()
    rng = random.Random(1)
    tried: Counter[str] = Counter()
    succeeded: Counter[str] = Counter()
    failed: Counter[tuple[str, str]] = Counter()
    bypassed: Counter[str] = Counter()
    top_initiative: Counter[str] = Counter()
    for _ in range(args.duels):
        hands = [rng.sample(techniques, 2), rng.sample(techniques, 2)]
        state = new_duel(rng.choice(builds), hands[0], rng.choice(builds), hands[1])
        while state.result is None:
            if state.turn > 10:
                state = draw_by_time(state)
                break
            choices = [rng.choice(legal_choices(state, p)) for p in PLAYERS]
            turn = resolve_turn(state, choices[0], choices[1])
            for event in turn.events:
                match = EVADE.match(event)
                if match:
                    name = match.group(3)
                    tried[name] += 1
                    if match.group(2) == "evades":
                        succeeded[name] += 1
                    else:
                        reason = event.split(", but ", 1)[-1].rstrip(".")
                        reason = re.sub(r"\d+", "N", reason)
                        failed[(name, reason)] += 1
                if "bypassed by" in event:
                    bypassed[event.rsplit("bypassed by ", 1)[1].rstrip(".")] += 1
                for _who, value in INITIATIVE.findall(event):
                    top_initiative[value] += 1
            state = turn.state
    print(f"{args.duels} random duels, hands of two of all {len(techniques)} techniques, random builds")
    for name in sorted(tried):
        reasons = "; ".join(f"{reason} x{count}" for (n, reason), count in sorted(failed.items()) if n == name)
        print(f"  {name}: evades tried {tried[name]}, succeeded {succeeded[name]}; failed: {reasons or 'never'}")
    print("  bypasses that took effect: " + (", ".join(f"{k} x{v}" for k, v in sorted(bypassed.items())) or "none"))
    values = sorted(int(v) for v in top_initiative)
    print(f"  Initiative values seen: {values[0]}..{values[-1]}; above 7 (the spec's tokens): "
          f"{sum(c for v, c in top_initiative.items() if int(v) > 7)} times")


if __name__ == "__main__":
    main()
