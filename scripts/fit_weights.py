"""Fit the search's evaluation (toolkit/figure/bots/features.py) on self-play outcomes and write weights.json.

    PYTHONPATH=. python scripts/fit_weights.py [--games N] [--seed S] [--players search:10] [--start PATH] [--out PATH]

Every bundled match (each theme's squads against each other and themselves) plays N games between two
copies of the chosen bot, in seat-swapped pairs over shared dice (sim/games.py's streams). At every turn
start the features are read from the side to move's point of view, labelled with whether that side went on
to win (drawn games are left out). A logistic regression without intercept (the features change sign with
the side, so the model must too) is fitted by Newton's method with a small L2 penalty. The file records the
games, seed, bot, positions, the fit's log loss and its accuracy on a held-out fifth (every fifth pair), so a
reader can tell what the numbers rest on and rerun them byte for byte. A search bot plays with the weights in
--start (default: the shipped file, read before it is overwritten); the file records them as `played_with`, so
each fit can be traced back to the one before it (a step of policy iteration: the search's own games teach
its evaluation).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
from pathlib import Path

import numpy as np

from toolkit.figure.bots import features as feature_module
from toolkit.figure.bots import make_bot
from toolkit.figure.bots.features import FEATURES, WEIGHTS_FILE, features, weights
from toolkit.figure.bots.knowledge import knowledge
from toolkit.figure.database import find_datasets, load_database
from toolkit.figure.engine import CHANCE, GameState, build_game
from toolkit.figure.engine.play import sample_outcome
from toolkit.figure.engine.state import START
from toolkit.figure.sim.games import derive
from toolkit.players import PLAYERS

L2 = 1e-3  # per position: keeps rare features (a module goal threat) from running off


def positions(game, bot_name: str, seed: int, pair: int) -> list[tuple[tuple[float, ...], int]]:
    """Both games of a pair: (features for the side to move, 1 if it won) at every turn start."""
    rows = []
    dice_seed = derive(seed, pair, "dice")
    know = knowledge(game)
    for first in (0, 1):
        bots = [make_bot(bot_name), make_bot(bot_name)]
        rngs = [random.Random(derive(seed, pair, first, "player", side)) for side in (0, 1)]
        dice = random.Random(dice_seed)
        state = GameState.initial(game, PLAYERS[first])
        seen: list[tuple[tuple[float, ...], int]] = []
        last_turn = -1
        while not state.is_terminal():
            player = state.current_player
            if player == CHANCE:
                state.apply(sample_outcome(state, dice))
                continue
            if state.phase == START and state.turn != last_turn:
                last_turn = state.turn
                seen.append((features(state, state.player, know), state.player))
            state.apply(bots[player].choose(state, rngs[player]))
        outcome = state.outcome()
        if outcome is None or outcome.winner is None:
            continue
        rows += [(f, int(outcome.winner.seat == side)) for f, side in seen]
    return rows


def fit(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    w = np.zeros(x.shape[1])
    for _ in range(50):
        p = 1 / (1 + np.exp(-np.clip(x @ w, -30, 30)))
        grad = x.T @ (p - y) + L2 * len(y) * w
        hess = (x * (p * (1 - p))[:, None]).T @ x + L2 * len(y) * np.eye(x.shape[1])
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.abs(step).max() < 1e-10:
            break
    return w


def log_loss(x: np.ndarray, y: np.ndarray, w: np.ndarray) -> float:
    p = np.clip(1 / (1 + np.exp(-np.clip(x @ w, -30, 30))), 1e-9, 1 - 1e-9)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100, help="games per bundled match (default 100)")
    parser.add_argument("--seed", type=int, default=23)
    parser.add_argument("--players", default="greedy", help="the bot that plays itself (default greedy)")
    parser.add_argument("--start", type=Path, default=WEIGHTS_FILE, help="the weights a search bot plays with")
    parser.add_argument("--out", type=Path, default=WEIGHTS_FILE)
    args = parser.parse_args()
    feature_module.WEIGHTS_FILE = args.start
    weights.cache_clear()
    played_with = dict(zip(FEATURES, weights(), strict=True))  # read now: --out may be the same file
    train: list[tuple[tuple[float, ...], int]] = []
    held: list[tuple[tuple[float, ...], int]] = []
    matches = []
    for dataset in find_datasets(None)[0]:
        database = load_database(dataset)
        squads = sorted(database.squads)
        for i, a in enumerate(squads):
            for b in squads[i:]:
                matches.append(f"{dataset.theme_id}:{a}-vs-{b}")
                game = build_game(a, b, database)
                for pair in range(args.games // 2):
                    (held if pair % 5 == 4 else train).extend(positions(game, args.players, args.seed, pair))
                print(f"{matches[-1]}: {len(train) + len(held)} positions so far", file=sys.stderr, flush=True)
    x, y = np.array([f for f, _ in train]), np.array([w for _, w in train], dtype=float)
    hx, hy = np.array([f for f, _ in held]), np.array([w for _, w in held], dtype=float)
    w = fit(x, y)
    accuracy = float(np.mean(((hx @ w) > 0) == (hy > 0.5))) if len(hy) else math.nan
    report = {
        "about": "logistic weights of toolkit/figure/bots/features.py, fitted by scripts/fit_weights.py",
        "command": f"PYTHONPATH=. python scripts/fit_weights.py --games {args.games} --seed {args.seed} "
                   f"--players {args.players}",
        "played_with": played_with if args.players.startswith("search") else None,
        "bot": args.players, "seed": args.seed, "games_per_match": args.games, "matches": matches,
        "positions": {"train": len(train), "held_out": len(held)},
        "l2_per_position": L2,
        "log_loss": {"train": round(log_loss(x, y, w), 4), "held_out": round(log_loss(hx, hy, w), 4),
                     "coin": round(math.log(2), 4)},
        "held_out_accuracy": round(accuracy, 4),
        "weights": {name: round(float(v), 5) for name, v in zip(FEATURES, w, strict=True)},
    }
    args.out.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
