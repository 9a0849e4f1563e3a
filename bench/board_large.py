"""Benchmark: `board check` on a generated large board (default 5,041 nodes: a 71 x 71 grid).

Prints figures; it is not a test. Usage: python bench/board_large.py [SIDE] [--crowded]
The grid is a valid board (goals and entries on the back rows, rotation-symmetric, 30 mm apart), so
every check runs. --crowded puts the nodes 10 mm apart, so the spacing check reports every neighbour.
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

from toolkit.figure.database import load_board
from toolkit.figure.rules import board as board_rules


def board_yaml(side: int, spacing: float) -> str:
    """A side x side grid board with routes between horizontal and vertical neighbours."""
    assert side % 2 == 1, "an odd side puts each goal at the centre of its back row"
    lines = ["id: large", "name: Large generated board", "token_diameter_mm: 24", "min_gap_mm: 4", "nodes:"]
    middle, last = side // 2, side - 1
    for row in range(side):
        for col in range(side):
            extra = ""
            if row in (0, last) and col in (0, middle, last):
                role = "goal" if col == middle else "entry"
                extra = f", role: {role}, side: {'B' if row == 0 else 'A'}"
            lines.append(f"  r{row}c{col}: {{x: {col * spacing:g}, y: {row * spacing:g}{extra}}}")
    lines.append("routes:")
    for row in range(side):
        for col in range(side):
            if col < last:
                lines.append(f"  - [r{row}c{col}, r{row}c{col + 1}]")
            if row < last:
                lines.append(f"  - [r{row}c{col}, r{row + 1}c{col}]")
    return "\n".join(lines) + "\n"


def main() -> None:
    args = [arg for arg in sys.argv[1:] if not arg.startswith("--")]
    side = int(args[0]) if args else 71
    spacing = 10.0 if "--crowded" in sys.argv else 30.0
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "large.yaml"
        path.write_text(board_yaml(side, spacing), encoding="utf-8")
        cpu, started = time.process_time(), time.perf_counter()
        board, problems = load_board(path)
        total, total_cpu = time.perf_counter() - started, time.process_time() - cpu
    assert board is not None
    print(f"nodes={len(board.nodes)} routes={len(board.routes)} problems={len(problems)}")
    print(f"board_check_seconds={total:.2f} (cpu {total_cpu:.2f}; includes reading the YAML)")
    graph = board.graph()
    for name in ("_check_connected", "_check_planar", "_check_rotation", "_check_spacing"):
        check = getattr(board_rules, name)
        started = time.perf_counter()
        if name == "_check_connected":
            check(graph)
        elif name in ("_check_planar", "_check_rotation"):
            check(board, graph)
        else:
            check(board)
        print(f"  {name.removeprefix('_check_')}_seconds={time.perf_counter() - started:.2f}")


if __name__ == "__main__":
    main()
