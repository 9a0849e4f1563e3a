"""The per-node step tables a move is read from agree with a breadth-first search, whatever is passable."""

from __future__ import annotations

import random

from tests.figure.engine.kit import game


def test_step_tables_agree_with_a_search_for_every_node_mp_and_many_boards_of_blockers() -> None:
    tables = game()
    rng = random.Random(5)
    nodes = len(tables.node_names)
    checked = 0
    for _ in range(60):
        passable = rng.getrandbits(nodes) & tables.full_mask  # any pattern of free and blocking nodes
        for start in range(nodes):
            for mp in range(0, 11):
                expected = tables._search(start, mp, passable) if mp > 0 else 0
                assert tables.reach_mask(start, mp, passable) == expected, (start, mp, bin(passable))
                checked += 1
    assert checked == 60 * nodes * 11
    # long moves fall back to the search instead of tables too large to help
    assert any(tables.steps_from(start, 10) is None for start in range(nodes))
    assert all(tables.steps_from(start, 2) is not None for start in range(nodes))


def test_a_move_through_every_node_reaches_the_whole_ball() -> None:
    tables = game()
    for start in range(len(tables.node_names)):
        for mp in range(1, 5):
            ball = tables.balls[start][min(mp, len(tables.balls[start]) - 1)]
            assert tables.reach_mask(start, mp, tables.full_mask) == ball & ~(1 << start)
