"""The upgrade-chain and board checks that `validate` runs without networkx agree with networkx itself."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import networkx as nx
from hypothesis import given, settings
from hypothesis import strategies as st

from toolkit.figure.rules.board import Board, check_board
from toolkit.figure.rules.roster import looping_units, upgrade_cycles, upgrade_stages

ROOT = Path(__file__).resolve().parents[2]


def _graph(units: dict[str, Any]) -> nx.DiGraph[str]:
    graph: nx.DiGraph[str] = nx.DiGraph()
    graph.add_nodes_from(sorted(units))
    graph.add_edges_from((uid, unit.upgrades_to) for uid, unit in units.items() if unit.upgrades_to in units)
    return graph


def _reference(units: dict[str, Any]) -> tuple[list[list[str]], set[str], dict[str, int]]:
    """What the networkx version of the roster rules returned (cycles, looping units, stages)."""
    graph = _graph(units)
    cycles = []
    for cycle in nx.simple_cycles(graph):
        start = cycle.index(min(cycle))
        cycles.append(cycle[start:] + cycle[:start])
    looping: set[str] = set()
    for component in nx.strongly_connected_components(graph):
        node = next(iter(component))
        if len(component) > 1 or graph.has_edge(node, node):
            looping |= component
    for node in list(looping):
        looping |= nx.descendants(graph, node)
    acyclic = graph.copy()
    acyclic.remove_nodes_from(looping)
    stages: dict[str, int] = {}
    for node in nx.topological_sort(acyclic):
        stages[node] = max((stages[p] + 1 for p in acyclic.predecessors(node)), default=0)
    return sorted(cycles), looping, dict(sorted(stages.items()))


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(st.none(), st.integers(0, 14)), min_size=1, max_size=15))
def test_upgrade_chains_match_networkx(targets: list[int | None]) -> None:
    """Random databases (cycles, self-upgrades, chains into cycles, missing targets) read the same both ways."""
    units = {f"u{i:02d}": SimpleNamespace(upgrades_to=None if t is None else f"u{t:02d}")
             for i, t in enumerate(targets)}
    cycles, looping, stages = _reference(units)
    assert upgrade_cycles(units) == cycles  # type: ignore[arg-type]
    assert looping_units(units) == looping  # type: ignore[arg-type]
    assert upgrade_stages(units) == stages  # type: ignore[arg-type]


def test_a_chain_longer_than_the_recursion_limit_has_stages() -> None:
    units = {f"u{i:05d}": SimpleNamespace(upgrades_to=f"u{i + 1:05d}") for i in range(5_000)}
    assert upgrade_stages(units)["u04999"] == 4_999  # type: ignore[arg-type]


def _square_board(routes: list[tuple[str, str]]) -> Board:
    nodes = {
        "ga": {"x": 20, "y": 40, "role": "goal", "side": "A"}, "gb": {"x": 20, "y": 0, "role": "goal", "side": "B"},
        "a": {"x": 0, "y": 20}, "b": {"x": 40, "y": 20},
    }
    return Board.model_validate({"id": "sq", "name": "Square", "token_diameter_mm": 5, "nodes": nodes,
                                 "routes": routes})


def test_crossing_routes_on_a_planar_graph_are_only_a_drawing_problem() -> None:
    """Routes ga-gb and a-b cross in the drawing, but the graph (a 4-cycle plus a chord... ) is planar."""
    failures = check_board(_square_board([("ga", "a"), ("a", "gb"), ("gb", "b"), ("b", "ga"), ("ga", "gb"),
                                          ("a", "b")]))
    messages = [f.message for f in failures]
    assert "route a-b crosses route ga-gb" in messages
    assert not any("not planar" in m for m in messages)


def test_validate_of_the_bundled_data_does_not_import_networkx() -> None:
    """networkx costs a noticeable part of a `validate` start-up; the usual board checks never need it."""
    code = ("import sys\nfrom toolkit.cli import main\ntry:\n    main(['validate'])\nexcept SystemExit:\n    pass\n"
            "print('networkx' in sys.modules, file=sys.stderr)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=120,
                          env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    assert done.stderr.strip().splitlines()[-1] == "False", done.stderr[-2000:]
