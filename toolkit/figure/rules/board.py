"""The board as a graph, and every structural check of DESIGN section 2.

Coordinates are millimetres on the drawn board, y growing downwards; player A sits at the bottom. The checks
run on a plain adjacency map (connectivity and reachability are a breadth-first walk; a drawing without
crossings is itself a planar embedding), so `validate` does not import networkx; networkx is asked only when
the drawing has crossings (is the graph planar at all?) and by `Board.graph()` for analysis and printing.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated, Generic, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, StrictStr

from toolkit.fields import DEFER_BUILD, Slug
from toolkit.players import PLAYERS, Player

if TYPE_CHECKING:
    import networkx as nx

T = TypeVar("T")
_TOLERANCE = 0.01
MAX_REPORTED = 100  # failures of one kind listed before "and more": a broken huge board stays readable
Point = tuple[float, float]  # (x, y) in mm on the drawn board
# Millimetres; finite (NaN and infinity are located schema errors) and within 100 m, so sums stay exact.
Coordinate = Annotated[float, Field(allow_inf_nan=False, ge=-100_000, le=100_000)]


class BoardNode(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=DEFER_BUILD)
    x: Coordinate
    y: Coordinate
    role: Literal["point", "goal", "entry"] = "point"
    side: Player | None = None


class Board(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=DEFER_BUILD)
    id: Slug
    name: StrictStr
    token_diameter_mm: Annotated[float, Field(gt=0, le=100)]
    min_gap_mm: Annotated[float, Field(ge=0, le=50)] = 2.0
    nodes: dict[Annotated[StrictStr, Field(pattern=r"^[A-Za-z0-9_-]+$")], BoardNode]
    routes: tuple[tuple[StrictStr, StrictStr], ...]

    def graph(self) -> nx.Graph[str]:
        import networkx as nx

        graph: nx.Graph[str] = nx.Graph()
        for name in sorted(self.nodes):
            node = self.nodes[name]
            graph.add_node(name, x=node.x, y=node.y, role=node.role, side=node.side)
        graph.add_edges_from(route for route in self.routes if all(end in self.nodes for end in route))
        return graph

    def adjacency(self) -> dict[str, set[str]]:
        """Each node's neighbours along the routes whose ends both exist (as `graph()`, without networkx)."""
        neighbours: dict[str, set[str]] = {name: set() for name in sorted(self.nodes)}
        for a, b in self.routes:
            if a in neighbours and b in neighbours:
                neighbours[a].add(b)
                neighbours[b].add(a)
        return neighbours

    def nodes_with(self, role: str, side: Player) -> list[str]:
        return sorted(name for name, node in self.nodes.items() if node.role == role and node.side == side)

    def goal(self, side: Player) -> str:
        (goal,) = self.nodes_with("goal", side)
        return goal

    def entries(self, side: Player) -> list[str]:
        return self.nodes_with("entry", side)


@dataclass(frozen=True)
class BoardFailure:
    node: str | None  # the node (or first node) the failure is about; None for the whole board
    message: str
    hint: str = ""


def check_board(board: Board) -> list[BoardFailure]:
    """Every failure at once, each naming the node it concerns. An empty list means the board is sound."""
    failures = _check_routes(board)
    if failures:
        return failures  # the remaining checks need a well-formed graph
    graph = board.adjacency()
    failures += _check_connected(graph)
    failures += _check_planar(board)
    failures += _check_sides(board)
    if not failures:
        failures += _check_rotation(board, graph)
        failures += _check_reachability(board, graph)
    failures += _check_spacing(board)
    return failures


def _check_routes(board: Board) -> list[BoardFailure]:
    failures = []
    seen: set[frozenset[str]] = set()
    for a, b in board.routes:
        for end in (a, b):
            if end not in board.nodes:
                failures.append(BoardFailure(end, f"route {a}-{b} names unknown node '{end}'",
                                             "every route end must be listed under nodes"))
        if a == b:
            failures.append(BoardFailure(a, f"route {a}-{b} joins a node to itself"))
        key = frozenset((a, b))
        if key in seen:
            failures.append(BoardFailure(a, f"route {a}-{b} is listed twice"))
        seen.add(key)
    return failures


def _reached(graph: dict[str, set[str]], start: str) -> set[str]:
    seen, frontier = {start}, [start]
    while frontier:
        node = frontier.pop()
        for other in graph[node] - seen:
            seen.add(other)
            frontier.append(other)
    return seen


def _check_connected(graph: dict[str, set[str]]) -> list[BoardFailure]:
    components: list[list[str]] = []
    placed: set[str] = set()
    for node in graph:
        if node not in placed:
            component = _reached(graph, node)
            placed |= component
            components.append(sorted(component))
    components.sort(key=lambda c: (-len(c), c))
    return [
        BoardFailure(component[0], f"nodes {', '.join(component)} are not connected to the rest of the board")
        for component in components[1:]
    ]


def _segments_cross(p1: Point, p2: Point, p3: Point, p4: Point) -> bool:
    """True if segment p1-p2 and p3-p4 properly intersect (shared end points do not count)."""

    def orient(a: Point, b: Point, c: Point) -> float:
        return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])

    d1, d2 = orient(p3, p4, p1), orient(p3, p4, p2)
    d3, d4 = orient(p1, p2, p3), orient(p1, p2, p4)
    return d1 * d2 < -_TOLERANCE and d3 * d4 < -_TOLERANCE


def _point_on_segment(p: Point, a: Point, b: Point) -> bool:
    length = math.dist(a, b)
    return length > 0 and abs(math.dist(a, p) + math.dist(p, b) - length) < _TOLERANCE


def _check_planar(board: Board) -> list[BoardFailure]:
    """Planarity of the graph, then of the drawing: routes that cross, and routes drawn through a node.
    A spatial grid keeps the drawing checks near-linear: only routes and nodes that share a cell meet.
    A drawing with no crossings proves the graph planar; only a drawing with crossings asks networkx whether
    some other drawing would avoid them."""
    failures = []
    points = {name: (node.x, node.y) for name, node in board.nodes.items()}
    routes = sorted(tuple(sorted(route)) for route in board.routes)
    lengths = [math.dist(points[a], points[b]) for a, b in routes]
    grid: _Grid[int] = _Grid(max(board.token_diameter_mm + board.min_gap_mm,
                                 sum(lengths) / max(len(lengths), 1), 1.0))
    for index, (a, b) in enumerate(routes):
        grid.add(index, points[a], points[b])
    crossings = []
    for i, (a, b) in enumerate(routes):
        for j in sorted(k for k in grid.near(points[a], points[b]) if k > i):
            c, d = routes[j]
            if not {a, b} & {c, d} and _segments_cross(points[a], points[b], points[c], points[d]):
                crossings.append(BoardFailure(a, f"route {a}-{b} crosses route {c}-{d}",
                                              "move a node so the drawn lines do not cross"))
    if crossings:
        import networkx as nx

        if not nx.check_planarity(board.graph())[0]:
            failures.append(BoardFailure(None, "the routes cannot be drawn without crossings (graph is not planar)"))
    failures += _at_most(crossings, "crossing routes")
    nodes: _Grid[str] = _Grid(grid.cell)
    for name in sorted(points):
        nodes.add(name, points[name], points[name])
    through = []
    for a, b in routes:
        for name in sorted(nodes.near(points[a], points[b])):
            if name not in (a, b) and _point_on_segment(points[name], points[a], points[b]):
                through.append(BoardFailure(name, f"route {a}-{b} is drawn straight through node {name}"))
    return failures + _at_most(through, "routes drawn through nodes")


def _check_sides(board: Board) -> list[BoardFailure]:
    failures = []
    for name, node in sorted(board.nodes.items()):
        if node.role != "point" and node.side is None:
            failures.append(BoardFailure(name, f"{node.role} {name} has no side", "add `side: A` or `side: B`"))
    for side in PLAYERS:
        goals, entries = board.nodes_with("goal", side), board.nodes_with("entry", side)
        if len(goals) != 1:
            failures.append(BoardFailure(goals[0] if goals else None,
                                         f"side {side} has {len(goals)} goals ({', '.join(goals) or 'none'}); "
                                         "it needs exactly 1"))
        if len(entries) != 2:
            failures.append(BoardFailure(entries[0] if entries else None,
                                         f"side {side} has {len(entries)} entries "
                                         f"({', '.join(entries) or 'none'}); it needs exactly 2"))
        if len(goals) == 1 and len(entries) == 2:
            failures += _check_back_row(board, side, goals[0], entries)
    return failures


def _check_back_row(board: Board, side: Player, goal: str, entries: list[str]) -> list[BoardFailure]:
    """Player A's back row is the bottom row (largest y); player B's is the top row."""
    ys = [node.y for node in board.nodes.values()]
    back_y = max(ys) if side == Player.A else min(ys)
    row = [node.x for node in board.nodes.values() if abs(node.y - back_y) < _TOLERANCE]
    left, right = min(row), max(row)
    failures = []
    goal_node = board.nodes[goal]
    if abs(goal_node.y - back_y) > _TOLERANCE or abs(goal_node.x - (left + right) / 2) > _TOLERANCE:
        failures.append(BoardFailure(goal, f"goal {goal} of side {side} is not at the centre of its back row",
                                     f"place it at x={(left + right) / 2:g}, y={back_y:g}"))
    corners = {(left, back_y), (right, back_y)}
    for entry in entries:
        node = board.nodes[entry]
        if not any(abs(node.x - x) < _TOLERANCE and abs(node.y - y) < _TOLERANCE for x, y in corners):
            failures.append(BoardFailure(entry, f"entry {entry} of side {side} is not at a corner of its back row"))
    return failures


def rotation_map(board: Board) -> dict[str, str | None]:
    """Each node's partner under the 180-degree rotation about the board's centre (None if no node there)."""
    xs = [node.x for node in board.nodes.values()]
    ys = [node.y for node in board.nodes.values()]
    cx, cy = (min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2
    grid: _Grid[str] = _Grid(1.0)
    for name, node in board.nodes.items():
        grid.add(name, (node.x, node.y), (node.x, node.y))
    result: dict[str, str | None] = {}
    for name, node in sorted(board.nodes.items()):
        target = (2 * cx - node.x, 2 * cy - node.y)
        result[name] = next((other for other in sorted(grid.near(target, target))
                             if math.dist((board.nodes[other].x, board.nodes[other].y), target) < _TOLERANCE), None)
    return result


def _check_rotation(board: Board, graph: dict[str, set[str]]) -> list[BoardFailure]:
    failures = []
    mapping = rotation_map(board)
    for name, partner in mapping.items():
        if partner is None:
            failures.append(BoardFailure(name, f"node {name} has no partner under the 180-degree rotation",
                                         "the board must look the same to both players"))
            continue
        node, other = board.nodes[name], board.nodes[partner]
        swapped = node.side.other() if node.side else None
        if other.role != node.role or (node.role != "point" and other.side != swapped):
            failures.append(BoardFailure(name, f"node {name} ({node.role} {node.side or ''}) rotates onto "
                                         f"{partner} ({other.role} {other.side or ''})".replace(" )", ")")))
    if failures:
        return failures
    edges = sorted({(a, b) if a < b else (b, a) for a, others in graph.items() for b in others})
    for a, b in edges:
        ra, rb = mapping[a], mapping[b]
        if ra is None or rb is None or rb not in graph[ra]:  # (every node has a partner by now)
            failures.append(BoardFailure(a, f"route {a}-{b} has no rotated twin {ra}-{rb}",
                                         "the rotation that swaps the sides must map routes onto routes"))
    return failures


def _check_reachability(board: Board, graph: dict[str, set[str]]) -> list[BoardFailure]:
    failures = []
    for side in PLAYERS:
        target = board.goal(side.other())
        for entry in board.entries(side):
            if target not in _reached(graph, entry):
                failures.append(BoardFailure(entry, f"entry {entry} of side {side} cannot reach goal {target}"))
    return failures


def _check_spacing(board: Board) -> list[BoardFailure]:
    """Token circles too close: each node is compared with the nodes in its grid cell and the 8 around it."""
    needed = board.token_diameter_mm + board.min_gap_mm
    names = sorted(board.nodes)
    order = {name: index for index, name in enumerate(names)}
    grid: _Grid[str] = _Grid(needed)
    for name in names:
        node = board.nodes[name]
        grid.add(name, (node.x, node.y), (node.x, node.y))
    failures: list[BoardFailure] = []
    for a in names:
        na = board.nodes[a]
        for b in sorted(grid.near((na.x, na.y), (na.x, na.y)), key=order.__getitem__):
            if order[b] <= order[a]:
                continue
            nb = board.nodes[b]
            distance = math.dist((na.x, na.y), (nb.x, nb.y))
            if distance < needed - _TOLERANCE:
                failures.append(BoardFailure(a, f"nodes {a} and {b} are {distance:.1f} mm apart; tokens of "
                                             f"{board.token_diameter_mm:g} mm need at least {needed:g} mm",
                                             "spread the nodes or use smaller tokens"))
        if len(failures) > MAX_REPORTED:
            break
    return _at_most(failures, "nodes too close together")


def _at_most(failures: list[BoardFailure], what: str) -> list[BoardFailure]:
    """The first MAX_REPORTED failures, and one line saying there are more."""
    if len(failures) <= MAX_REPORTED:
        return failures
    return [*failures[:MAX_REPORTED],
            BoardFailure(None, f"... and more {what}: the first {MAX_REPORTED} are listed; fix them and check again")]


class _Grid(Generic[T]):
    """A uniform grid of square cells (millimetres): things in the same or a neighbouring cell are near.

    `add` files an item under every cell its bounding box touches; `near` returns the items filed under
    the cells a box touches, widened by one cell so that anything within one cell size is found."""

    def __init__(self, cell: float) -> None:
        self.cell = cell
        self.cells: dict[tuple[int, int], list[T]] = defaultdict(list)

    def _span(self, p: Point, q: Point, margin: int) -> Iterator[tuple[int, int]]:
        x0, x1 = sorted((math.floor(p[0] / self.cell), math.floor(q[0] / self.cell)))
        y0, y1 = sorted((math.floor(p[1] / self.cell), math.floor(q[1] / self.cell)))
        for i in range(x0 - margin, x1 + margin + 1):
            for j in range(y0 - margin, y1 + margin + 1):
                yield i, j

    def add(self, item: T, p: Point, q: Point) -> None:
        for key in self._span(p, q, 0):
            self.cells[key].append(item)

    def near(self, p: Point, q: Point) -> set[T]:
        return {item for key in self._span(p, q, 1) if key in self.cells for item in self.cells[key]}
