"""`board check` on large and hostile boards (issue 12, item 15).

The spatial-grid checks must find exactly what comparing every pair finds (checked against a brute
force on random boards); NaN and infinite coordinates are located errors. Speed: bench/board_large.py.
"""

from __future__ import annotations

import itertools
import math
import random
from pathlib import Path

import pytest

from toolkit.cli import main
from toolkit.figure.rules import board as rules
from toolkit.figure.rules.board import MAX_REPORTED, Board, check_board, rotation_map
from toolkit.paths import DEFAULT_BOARD


def grid_board(side: int, spacing: float = 30.0) -> Board:
    """A side x side grid with its goals and entries on the back rows: a valid board when spaced 30 mm."""
    middle, last = side // 2, side - 1
    nodes = {}
    for row, col in itertools.product(range(side), range(side)):
        node: dict = {"x": col * spacing, "y": row * spacing}
        if row in (0, last) and col in (0, middle, last):
            node.update(role="goal" if col == middle else "entry", side="B" if row == 0 else "A")
        nodes[f"r{row}c{col}"] = node
    routes = [(f"r{r}c{c}", f"r{r}c{c + 1}") for r in range(side) for c in range(last)]
    routes += [(f"r{r}c{c}", f"r{r + 1}c{c}") for r in range(last) for c in range(side)]
    return Board.model_validate({"id": "grid", "name": "Grid", "token_diameter_mm": 24, "min_gap_mm": 4,
                                 "nodes": nodes, "routes": routes})


def test_a_large_valid_board_passes() -> None:
    board = grid_board(41)
    assert len(board.nodes) == 1681
    assert check_board(board) == []
    assert rotation_map(board)["r0c0"] == "r40c40"


def test_a_crowded_large_board_lists_the_first_failures_and_says_there_are_more() -> None:
    failures = rules._check_spacing(grid_board(41, spacing=10.0))
    assert len(failures) == MAX_REPORTED + 1
    assert failures[0].message.startswith("nodes r0c0 and r0c1 are 10.0 mm apart")
    assert failures[-1].node is None
    assert "and more nodes too close together" in failures[-1].message


# The checks as they were before the spatial grid: every pair. The grid must agree exactly, order included.
def brute_spacing(board: Board) -> list[tuple[str, str]]:
    needed = board.token_diameter_mm + board.min_gap_mm
    return [(a, b) for (a, na), (b, nb) in itertools.combinations(sorted(board.nodes.items()), 2)
            if math.dist((na.x, na.y), (nb.x, nb.y)) < needed - rules._TOLERANCE]


def brute_drawing(board: Board) -> list[str]:
    points = {name: (node.x, node.y) for name, node in board.nodes.items()}
    routes = sorted(tuple(sorted(route)) for route in board.routes)
    found = [f"route {a}-{b} crosses route {c}-{d}" for (a, b), (c, d) in itertools.combinations(routes, 2)
             if not {a, b} & {c, d} and rules._segments_cross(points[a], points[b], points[c], points[d])]
    found += [f"route {a}-{b} is drawn straight through node {name}"
              for (a, b), name in itertools.product(routes, sorted(points))
              if name not in (a, b) and rules._point_on_segment(points[name], points[a], points[b])]
    return found


def brute_rotation(board: Board) -> dict[str, str | None]:
    xs, ys = [n.x for n in board.nodes.values()], [n.y for n in board.nodes.values()]
    cx, cy = (min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2
    return {name: next((other for other, o in sorted(board.nodes.items())
                        if math.dist((o.x, o.y), (2 * cx - node.x, 2 * cy - node.y)) < rules._TOLERANCE), None)
            for name, node in sorted(board.nodes.items())}


def random_board(seed: int) -> Board:
    rng = random.Random(seed)
    # coarse coordinates so that points on routes, symmetric partners and near misses all happen
    nodes = {f"n{i:02d}": {"x": rng.randrange(0, 12) * 10.0, "y": rng.randrange(0, 12) * 10.0} for i in range(60)}
    for name in list(nodes)[:10]:  # some exact partners under the rotation
        nodes[f"m{name}"] = {"x": 110.0 - nodes[name]["x"], "y": 110.0 - nodes[name]["y"]}
    names = sorted(nodes)
    routes = {tuple(sorted(rng.sample(names, 2))) for _ in range(90)}
    routes |= {(names[0], names[1]), (names[2], names[40])}  # one long route across the board at least
    return Board.model_validate({"id": "random", "name": "Random", "token_diameter_mm": 8, "min_gap_mm": 1,
                                 "nodes": nodes, "routes": sorted(routes)})


@pytest.mark.parametrize("seed", range(12))
def test_grid_checks_agree_with_comparing_every_pair(seed: int, monkeypatch) -> None:
    monkeypatch.setattr(rules, "MAX_REPORTED", 10_000)
    board = random_board(seed)
    assert [f.message.split(" are ")[0] for f in rules._check_spacing(board)] == [
        f"nodes {a} and {b}" for a, b in brute_spacing(board)]
    drawing = [f.message for f in rules._check_planar(board) if "graph is not planar" not in f.message]
    assert drawing == brute_drawing(board)
    assert rotation_map(board) == brute_rotation(board)


@pytest.mark.parametrize(("old", "new", "where", "found"), [
    ("r0c1: {x: 30, y: 0}", "r0c1: {x: .nan, y: 0}", ":10:13:", "the number nan"),
    ("r4c1: {x: 30, y: 180}", "r4c1: {x: 30, y: -.inf}", ":23:20:", "the number -inf"),
    ("r1c0: {x: 0, y: 45}", "r1c0: {x: 1.0e400, y: 45}", ":16:13:", "the number inf"),
    ("r1c6: {x: 180, y: 45}", "r1c6: {x: 180, y: 1.0e9}", ":17:21:", "at most 100000"),
])
def test_nan_and_infinite_coordinates_are_located(capsys, tmp_path: Path, old: str, new: str, where: str,
                                                  found: str) -> None:
    text = DEFAULT_BOARD.read_text(encoding="utf-8")
    assert old in text
    path = tmp_path / "board.yaml"
    path.write_text(text.replace(old, new), encoding="utf-8")
    assert main(["board", "check", str(path)]) == 1
    out = capsys.readouterr()
    lines = out.out.splitlines()
    assert len(lines) == 1, out.out
    assert where in lines[0]
    assert found in lines[0]
    assert "Traceback" not in out.err

