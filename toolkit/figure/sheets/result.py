"""What reading a sheet gives: the units (plain dicts in unit YAML key order), the figures left out with
every cell that kept them out, and where each field came from in the sheet."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

CellMap = dict[str, tuple[int, str]]  # a unit or segment field -> (sheet line, header of its column)


@dataclass(frozen=True)
class RowIssue:
    """One CSV cell that could not be turned into a unit field. `line` is 1-based; the header is line 1."""

    line: int
    column: str
    value: str
    reason: str


@dataclass(frozen=True)
class SkippedFigure:
    """A figure left out of the project, with every cell that kept it out."""

    name: str
    rows: list[RowIssue]
    id: str = ""
    lines: tuple[int, int] = (0, 0)  # first and last CSV line of the figure's rows


@dataclass
class ImportResult:
    """What `read_csv` found. `units` are plain dicts in the unit YAML key order, ready to dump."""

    units: list[dict[str, Any]]
    skipped: list[SkippedFigure]
    notes: list[str]
    rows_read: int
    warnings: list[RowIssue] = field(default_factory=list)  # cells of imported units transcribed with a caveat
    source: str = ""  # file name of the CSV, quoted in the files written
    lines: dict[str, tuple[int, int]] = field(default_factory=dict)  # unit id -> its CSV lines
    # unit id -> (figure field -> (sheet line, header), one {segment field -> (line, header)} per segment)
    cells: dict[str, tuple[CellMap, list[CellMap]]] = field(default_factory=dict)

    @property
    def figures(self) -> int:
        return len(self.units) + len(self.skipped)
