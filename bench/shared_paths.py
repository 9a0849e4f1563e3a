"""Where the shared benchmark material is: `shared/` beside the checkout (`../shared` of /work/main), found by
walking up from the checkout, so a worktree deeper down (/work/wt/NAME) finds the same folder.
`DUELKIT_SHARED` names it outright."""

from __future__ import annotations

import os
from pathlib import Path

CHECKOUT = Path(__file__).resolve().parents[1]


def shared_folder() -> Path:
    """The first `shared` folder holding datasets/ or bench/ above the checkout (else `../shared`)."""
    if os.environ.get("DUELKIT_SHARED"):
        return Path(os.environ["DUELKIT_SHARED"])
    for parent in CHECKOUT.parents:
        candidate = parent / "shared"
        if (candidate / "datasets").is_dir() or (candidate / "bench").is_dir():
            return candidate
    return CHECKOUT.parent / "shared"


DATASET = shared_folder() / "datasets" / "pokemon_duel_characters_v1.csv"
PEERS = shared_folder() / "bench" / "peers.sh"
