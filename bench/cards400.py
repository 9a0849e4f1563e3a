"""Benchmark: schematic cards for N generated units, against the peer tools in the same run.

Prints duelkit's seconds and peak memory (RSS), then runs ../shared/bench/peers.sh N and prints the
ratios. Not a test. Usage: python bench/cards400.py [N] [--no-peers]
"""

from __future__ import annotations

import random
import resource
import subprocess
import sys
import time
from pathlib import Path

from toolkit.figure.database import Database, Located, find_datasets, load_database
from toolkit.figure.kit.build import batch_allocation
from toolkit.figure.kit.context import KitContext
from toolkit.figure.kit.schematics import build_schematics
from toolkit.figure.model import Color, Segment, Subroutine, Unit, UnitClass
from toolkit.render.pdf import render_pdf
from toolkit.render.scene import Document

sys.path.insert(0, str(Path(__file__).parent))
from shared_paths import PEERS

WORDS = ("Thunder", "Shock", "Quick", "Attack", "Volt", "Tackle", "Iron", "Tail", "Dodge", "Protect", "Bubble",
         "Hydro", "Pump", "Flame", "Burst", "Ember", "Gust", "Slam", "Haze", "Static", "Pulse", "Cryo", "Lock",
         "Avalanche", "Riptide", "Undertow", "Luster", "Purge", "Psychic")
EFFECTS = ("The battle opponent is afflicted with EMP Static.",
           "Push the battle opponent to an unoccupied point adjacent to it, chosen by you.",
           "This unit moves to a point 2 steps away.", "")


def generated_unit(rng: random.Random, index: int) -> Unit:
    """A plausible unit: 3-6 segments whose sizes (multiples of 4) sum to 96."""
    count = rng.randint(3, 6)
    cuts = sorted(rng.sample(range(1, 24), count - 1))
    sizes = [4 * (b - a) for a, b in zip([0, *cuts], [*cuts, 24], strict=True)]
    colors = [rng.choice([Color.WHITE, Color.WHITE, Color.GOLD, Color.PURPLE, Color.BLUE]) for _ in sizes]
    colors[-1] = Color.RED
    disk = []
    for size, color in zip(sizes, colors, strict=True):
        move = " ".join(rng.sample(WORDS, 2)) if color is not Color.RED else "Miss"
        fields: dict = {"move": move, "color": color, "size": size}
        if color in (Color.WHITE, Color.GOLD):
            fields["damage"] = rng.randrange(10, 160, 10)
        if color is Color.PURPLE:
            fields.update(stars=rng.randint(1, 3), effect=rng.choice(EFFECTS[:3]))
        disk.append(Segment(**fields))
    sub = Subroutine(name="Hallucination", text="If this unit is Deactivated, it is removed from the duel instead "
                     "of being sent to the Repair Bay.") if index % 3 == 0 else None
    return Unit.model_validate({"id": f"u-{index:03d}", "name": f"Unit {index:03d}",
                                "class": rng.choice(list(UnitClass)).value, "mp": rng.randint(1, 3),
                                "subroutine": sub, "disk": disk})


def database_with(count: int) -> Database:
    base = load_database(next(ds for ds in find_datasets(None)[0] if ds.theme_id == "duel-protocol"))
    template = next(iter(base.units.values()))
    rng = random.Random(400)
    units = {}
    for index in range(count):
        unit = generated_unit(rng, index)
        units[unit.id] = Located(unit, template.source, template.data, ())
    return Database(base.theme, base.board, units=units)


def main() -> None:
    count = int(next((a for a in sys.argv[1:] if a.isdigit()), "400"))
    database = database_with(count)
    timings = []
    for _ in range(3):  # best of 3, as peers.sh does for protograf
        start = time.perf_counter()
        with batch_allocation():  # what `duelkit build` does
            component = build_schematics(KitContext(database, "a4"))
            pdf = render_pdf(Document("bench", component.pages))
        timings.append(time.perf_counter() - start)
    seconds = min(timings)
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    runs = ", ".join(f"{t:.2f}" for t in timings)
    print(f"duelkit_seconds cards={count} seconds={seconds:.2f} (best of 3; runs {runs}) peak_rss_mb={peak_mb:.0f} "
          f"pages={len(component.pages)} pdf_bytes={len(pdf)}")
    if "--no-peers" in sys.argv or not PEERS.exists():
        return
    result = subprocess.run(["bash", str(PEERS), str(count)], capture_output=True, text=True, check=False)
    for line in result.stdout.splitlines():
        if line.startswith("peer_seconds"):
            fields = dict(part.split("=", 1) for part in line.split()[1:])
            peer = float(fields["seconds"])
            print(f"{line}  ratio={peer / seconds:.1f}x")


if __name__ == "__main__":
    main()
