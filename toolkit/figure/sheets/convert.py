"""A sheet file turned into what an import plans with: duelkit's own tables read by their header names
(units, squads, modules, project, whatever sheet or file each is in), or else a foreign sheet read by
its guessed columns (`foreign.py`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from toolkit.errors import DuelkitError
from toolkit.figure.sheets.columns import normal
from toolkit.figure.sheets.foreign import derive_inflicts, read_records, sheet_data
from toolkit.figure.sheets.native import (
    MODULE_COLUMNS,
    PROJECT_HEADER,
    SEGMENT_COLUMNS,
    SQUAD_COLUMNS,
    UNIT_COLUMNS,
    Column,
    Patch,
    header_columns,
    is_native_units,
    item_patches,
    unit_patches,
)
from toolkit.figure.sheets.project import Settings, SheetData
from toolkit.figure.sheets.read import Table, read_tables
from toolkit.figure.sheets.result import CellMap, ImportResult, RowIssue
from toolkit.figure.sheets.values import inert

NATIVE_HEADERS = tuple(column.header for column in (*UNIT_COLUMNS, *SEGMENT_COLUMNS))


@dataclass
class Reading:
    """What a sheet says, and what the designer should know about reading it."""

    data: SheetData
    rows_read: int
    notes: list[str] = field(default_factory=list)
    warnings: list[RowIssue] = field(default_factory=list)
    foreign: ImportResult | None = None


def read_sheet_data(path: Path, chosen: dict[str, str], layout: str, statuses: Mapping[str, str]) -> Reading:
    """Every table of the sheet at `path` (a workbook, a CSV file, or the folder `export csv` wrote)."""
    tables = read_tables(path)
    native: dict[str, tuple[Table, list[str]]] = {}
    for table in tables:
        if table.records:
            header = _renamed(table.records[0][1], chosen)
            kind = _kind(header)
            if kind is not None and kind not in native:
                native[kind] = (table, header)
    if not native:
        first = next((table for table in tables if table.records), None)
        if first is None:
            raise DuelkitError(f"'{path}' is empty: expected a header line naming the columns")
        result = read_records(first.records, path, first.source, chosen, layout)
        derive_inflicts(result, statuses)
        return Reading(sheet_data(result), result.rows_read, [f"note: {note}" for note in result.notes],
                       result.warnings, result)
    reading = Reading(SheetData(path.name), 0)
    for kind, (table, header) in native.items():
        reading.rows_read += len(table.records) - 1
        _read_native(kind, table, header, reading)
    return reading


def _kind(header: list[str]) -> str | None:
    names = {text.strip().casefold() for text in header}
    if is_native_units(header):
        return "units"
    if [text.strip().casefold() for text in header[:3]] == list(PROJECT_HEADER[:3]):
        return "project"
    if "id" in names and "units.1" in names:
        return "squads"
    if {"id", "text", "effect.kind"} <= names:
        return "modules"
    return None


def _renamed(header: list[str], chosen: dict[str, str]) -> list[str]:
    """The header with the designer's `--columns` names turned back into duelkit's column names."""
    back = {normal(custom): name for name, custom in chosen.items() if name in NATIVE_HEADERS}
    return [back.get(normal(text), text) for text in header]


def _read_native(kind: str, table: Table, header: list[str], reading: Reading) -> None:
    data = reading.data
    if kind == "project":
        data.settings = _settings(table, reading)
        return
    columns: list[Column] = {"units": [*UNIT_COLUMNS, *SEGMENT_COLUMNS], "squads": SQUAD_COLUMNS,
                             "modules": MODULE_COLUMNS}[kind]
    positions, unknown = header_columns(header, columns)
    if unknown:
        reading.notes.append(f"note: {table.source}: column(s) not imported: "
                             + ", ".join(repr(name[:40]) for name in unknown[:20]))
    records = [(line, [inert(cell) for cell in cells]) for line, cells in table.records[1:]]
    if kind == "units":
        patches = unit_patches(records, positions)
        segment_paths = {column.path for column in SEGMENT_COLUMNS}
        data.units = patches
        data.has_disk = any(column.path in segment_paths for column in positions.values())
        figure_keys: dict[str, str] = {}
        segment_keys: dict[str, str] = {}
        for column in positions.values():  # the first column of each key names its cell
            (segment_keys if column.path in segment_paths else figure_keys).setdefault(column.path[0], column.header)
        data.cells = {patch.id: _cells(patch, figure_keys, segment_keys) for patch in patches if patch.id}
    else:
        setattr(data, kind, item_patches(records, positions))


def _cells(patch: Patch, figure_keys: dict[str, str], segment_keys: dict[str, str]) -> tuple[CellMap, list[CellMap]]:
    """Where each key of a unit came from, for validate's `[sheet: ...]` notes."""
    figure: CellMap = {key: (patch.line, header) for key, header in figure_keys.items()}
    figure["disk"] = (patch.line, "")
    segments = []
    for line in patch.segment_lines:
        segment: CellMap = {key: (line, header) for key, header in segment_keys.items()}
        segment[""] = (line, "")
        segments.append(segment)
    return figure, segments


def _settings(table: Table, reading: Reading) -> Settings:
    """The project table: `name` (its value), and one row per `term` and per `status` (id, value)."""
    settings = Settings()
    for line, cells in table.records[1:]:
        setting, word_id, value = (inert(cells[i]) if i < len(cells) else "" for i in range(3))
        kind = setting.strip().casefold()
        if kind == "name":
            settings.name = value.strip()
        elif kind == "theme":
            settings.theme = value.strip()
        elif kind in ("term", "status") and word_id.strip():
            (settings.terms if kind == "term" else settings.statuses)[word_id.strip()] = value.strip()
        elif kind:
            reading.notes.append(f"note: {table.source}:{line}: setting '{setting[:40]}' is not theme, name, term "
                                 "or status; not imported")
    return settings


def sheet_theme(path: Path) -> str | None:
    """The game a sheet that duelkit wrote names in its project table (None for any other sheet)."""
    for table in read_tables(path):
        if table.records and _kind(table.records[0][1]) == "project":
            return _settings(table, Reading(SheetData(path.name), 0)).theme or None
    return None
