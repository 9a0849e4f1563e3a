"""The sword lookahead's remembered cells are shared by every thread of a process (the web studio plays the
computer players of several tables in threads): matrices worked out at once in threads are the ones worked out
alone."""

from __future__ import annotations

import random
import sys
import threading

import numpy as np
import pytest

from tests.sword.test_lookahead_speed import _random_state
from toolkit.players import Player
from toolkit.sword.bots import lookahead
from toolkit.sword.bots.lookahead import candidates, payoff_array
from toolkit.sword.engine.duel import DuelState


def _matrix(state: DuelState) -> np.ndarray:
    rows = [c.choice for c in candidates(state, Player.A)]
    cols = [c.choice for c in candidates(state, Player.B)]
    return payoff_array(state, Player.A, rows, cols)


def test_matrices_worked_out_in_threads_are_the_ones_worked_out_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(5)
    states = [_random_state(rng) for _ in range(30)]
    # a small memory, so the tables start again often: a clear under another thread's ids is what went wrong
    monkeypatch.setattr(lookahead, "CACHE_LIMIT", 300)
    alone = [_matrix(state) for state in states]
    wrong: list[int] = []

    def play(seed: int) -> None:
        order = random.Random(seed)
        for _ in range(30):
            index = order.randrange(len(states))
            if not np.array_equal(_matrix(states[index]), alone[index]):
                wrong.append(index)

    switch = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # threads take turns often, as they may on a busy server
    try:
        threads = [threading.Thread(target=play, args=(seed,)) for seed in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        sys.setswitchinterval(switch)
    assert wrong == []
