"""The standard board matches the facts of DESIGN section 2, and each board check catches its failure."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import networkx as nx
import pytest
import yaml

from toolkit.cli import main
from toolkit.figure.database import load_board
from toolkit.figure.rules.board import Board, check_board, rotation_map
from toolkit.paths import DEFAULT_BOARD


@pytest.fixture(scope="module")
def board() -> Board:
    loaded, problems = load_board(DEFAULT_BOARD)
    assert problems == []
    return loaded


def test_counts(board: Board) -> None:
    graph = board.graph()
    assert graph.number_of_nodes() == 28
    assert graph.number_of_edges() == 34
    assert Counter(degree for _, degree in graph.degree()) == {2: 16, 3: 12}


def test_goals_and_entries(board: Board) -> None:
    graph = board.graph()
    assert board.goal("A") == "r4c3"
    assert board.goal("B") == "r0c3"
    assert board.entries("A") == ["r4c0", "r4c6"]
    assert board.entries("B") == ["r0c0", "r0c6"]
    assert graph.degree("r4c3") == graph.degree("r0c3") == 2
    assert all(graph.degree(e) == 3 for e in board.entries("A") + board.entries("B"))


def test_distances(board: Board) -> None:
    graph = board.graph()
    for side, enemy in (("A", "B"), ("B", "A")):
        for entry in board.entries(side):
            assert nx.shortest_path_length(graph, entry, board.goal(enemy)) == 6
            assert nx.shortest_path_length(graph, entry, board.goal(side)) == 3
    assert nx.shortest_path_length(graph, "r4c3", "r0c3") == 8


def test_rotation_is_an_automorphism_but_mirror_is_not(board: Board) -> None:
    graph = board.graph()
    rotation = rotation_map(board)
    assert all(graph.has_edge(rotation[a], rotation[b]) for a, b in graph.edges)
    mirror = {name: name[:-1] + str(6 - int(name[-1])) if name.startswith("r") else
              name[:-1] + str(2 - int(name[-1])) for name in board.nodes}
    assert not all(graph.has_edge(mirror[a], mirror[b]) for a, b in graph.edges)


def test_goal_side_diagonals_and_square_drawing(board: Board) -> None:
    graph = board.graph()
    assert graph.has_edge("r4c4", "i2c1")
    assert graph.has_edge("r0c2", "i0c1")
    xs = [n.x for n in board.nodes.values()]
    ys = [n.y for n in board.nodes.values()]
    assert max(xs) - min(xs) == pytest.approx(max(ys) - min(ys))


def _broken(board: Board, **changes) -> list[str]:
    data = board.model_dump()
    data.update(changes)
    return [f.message for f in check_board(Board.model_validate(data))]


def test_crossing_route_is_named(board: Board) -> None:
    routes = [*board.routes, ("r0c1", "i1c0")]
    messages = _broken(board, routes=routes)
    assert any("i1c0-r0c1" in m and "crosses" in m for m in messages)


def test_disconnected_node_is_named(board: Board) -> None:
    nodes = dict(board.model_dump()["nodes"])
    nodes["lonely"] = {"x": 90, "y": 90, "role": "point", "side": None}
    nodes["twin"] = {"x": 90, "y": 90, "role": "point", "side": None}
    messages = _broken(board, nodes=nodes)
    assert any("lonely" in m and "not connected" in m for m in messages)
    assert any("lonely" in m and "twin" in m and "mm apart" in m for m in messages)


def test_asymmetric_route_breaks_rotation(board: Board) -> None:
    routes = [r for r in board.routes if tuple(r) != ("r0c2", "i0c1")]
    messages = _broken(board, routes=routes)
    assert any("i2c1-r4c4" in m and "rotated twin" in m for m in messages)


def test_goal_off_centre_and_missing_entry(board: Board) -> None:
    nodes = board.model_dump()["nodes"]
    nodes["r4c3"]["role"], nodes["r4c2"]["role"], nodes["r4c2"]["side"] = "point", "goal", "A"
    nodes["r0c6"]["role"] = "point"
    messages = _broken(board, nodes=nodes)
    assert any("goal r4c2" in m and "centre" in m for m in messages)
    assert any("side B has 1 entries" in m for m in messages)


def test_tokens_too_big_for_spacing(board: Board) -> None:
    messages = _broken(board, token_diameter_mm=40.0)
    assert any("mm apart" in m for m in messages)


def test_board_check_cli_names_node_and_line(tmp_path: Path, capsys) -> None:
    data = yaml.safe_load(DEFAULT_BOARD.read_text())
    data["routes"].append(["r0c1", "i1c0"])
    path = tmp_path / "board.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    assert main(["board", "check", str(path)]) == 1
    out = capsys.readouterr().out.strip().splitlines()
    crossing = [line for line in out if "crosses route i1c0-r0c1" in line]
    assert len(crossing) == 1
    assert "B001" in crossing[0]
    line = int(crossing[0].split(":")[1])
    assert path.read_text().splitlines()[line - 1].strip().startswith("i0c0")
    assert main(["board", "check"]) == 0
