"""The distances a designer plans a board with: how many steps from each entry to the enemy goal (how fast
a rush can win) and to its own goal (how fast a defender gets back), and from goal to goal.

Counted on the board graph with networkx, in routes (one MP moves one route). Pure: no I/O.
"""

from __future__ import annotations

from dataclasses import dataclass

import networkx as nx

from toolkit.figure.rules.board import Board
from toolkit.players import PLAYERS


@dataclass(frozen=True)
class Distance:
    label: str  # "A entry r4c0 to B's goal r0c3"
    steps: int | None  # None: no path


def board_distances(board: Board) -> list[Distance]:
    """Per side, each entry to the enemy goal and to its own goal; then goal to goal. The board must
    have one goal and two entries per side (what `check_board` requires)."""
    graph = board.graph()
    found = []
    for side in PLAYERS:
        enemy = side.other()
        for entry in board.entries(side):
            found.append(_distance(graph, f"{side} entry {entry} to {enemy}'s goal {board.goal(enemy)}",
                                   entry, board.goal(enemy)))
            found.append(_distance(graph, f"{side} entry {entry} to its own goal {board.goal(side)}",
                                   entry, board.goal(side)))
    a_goal, b_goal = (board.goal(side) for side in PLAYERS)
    found.append(_distance(graph, f"goal {a_goal} to goal {b_goal}", a_goal, b_goal))
    return found


def _distance(graph: nx.Graph[str], label: str, start: str, end: str) -> Distance:
    try:
        return Distance(label, int(nx.shortest_path_length(graph, start, end)))
    except nx.NetworkXNoPath:
        return Distance(label, None)


def distance_lines(board: Board) -> list[str]:
    """`duelkit board check`'s distance table, one line each."""
    distances = board_distances(board)
    width = max(len(d.label) for d in distances)
    lines = ["distances (routes; one MP moves one route):"]
    for distance in distances:
        steps = "no path" if distance.steps is None else f"{distance.steps} step" + "s" * (distance.steps != 1)
        lines.append(f"  {distance.label.ljust(width)}  {steps}")
    return lines
