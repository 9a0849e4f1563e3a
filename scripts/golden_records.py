"""Regenerate the golden game records of tests/figure/engine/test_records.py and print their final state hashes.

Run after a deliberate change of the engine's behaviour or of the bundled data, then paste the hashes
into GOLDEN in the test (a change nobody meant shows up as a failing golden replay instead).

    PYTHONPATH=. python scripts/golden_records.py
"""

from __future__ import annotations

import argparse
import json

from tests.figure.engine.test_records import GOLDEN, RECORDS, recorded_game
from toolkit.figure.database import find_datasets, load_database


def main() -> None:
    # No options; parsing still answers --help (and rejects a typo) instead of rewriting the records.
    argparse.ArgumentParser(description=__doc__.splitlines()[0]).parse_args()
    databases = {ds.theme_id: load_database(ds) for ds in find_datasets(None)[0]}
    RECORDS.mkdir(parents=True, exist_ok=True)
    for name in sorted(GOLDEN):
        theme, seed = name.removesuffix(".jsonl").rsplit("-seed-", 1)
        text = recorded_game(databases, theme, int(seed))
        (RECORDS / name).write_text(text, encoding="utf-8")
        result = json.loads(text.splitlines()[-1])["result"]
        print(f'    "{name}": "{result["state_hash"]}",  # {result["winner"]} by {result["reason"]}, '
              f'{result["turns"]} turns')


if __name__ == "__main__":
    main()
