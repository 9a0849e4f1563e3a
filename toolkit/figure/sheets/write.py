"""`duelkit export csv|xlsx`: the project's data as tables that `duelkit import` reads back to the same data.

Four tables (`native.py` says their columns): units (one row per Data Disk segment), squads, modules and
project (the game's name and every term and status word). An .xlsx workbook has a sheet per table; CSV
is a folder with one file per table. Data is read as written (raw YAML), not as validated, so a database
with rule problems round-trips too; a file that is not readable YAML is left out and named, and keys no
column holds (a misspelt key) are counted in a note (an import leaves them in the YAML). Every text cell
passes `csvsafe.spreadsheet_cell` (no cell runs as a formula); the workbook has fixed zip and document
dates, so the same data gives the same bytes.
"""

from __future__ import annotations

import io
import re
import zipfile
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from toolkit.csvsafe import csv_text, spreadsheet_cell
from toolkit.errors import UsageError
from toolkit.figure.project_theme import NAME_TERM
from toolkit.figure.sheets.columns import check_distinct
from toolkit.figure.sheets.files import Index
from toolkit.figure.sheets.native import (
    MODULE_COLUMNS,
    PROJECT_HEADER,
    SEGMENT_COLUMNS,
    UNIT_COLUMNS,
    Column,
    slots_needed,
    squad_columns,
    table_rows,
    unit_rows,
)
from toolkit.figure.theme import Theme
from toolkit.report import counted

_FIXED_TIME = (1980, 1, 1, 0, 0, 0)  # zip entries and document properties: the same bytes on every run
_CORE_TIME = re.compile(rb"(<dcterms:(?:created|modified)[^>]*>)[^<]*(</dcterms:)")


@dataclass
class Export:
    """The tables (name -> rows, header first) and what the designer should know about them."""

    tables: dict[str, list[list[object]]] = field(default_factory=dict)
    units: int = 0
    notes: list[str] = field(default_factory=list)

    @property
    def summary(self) -> str:
        counts = {name: len(rows) - 1 for name, rows in self.tables.items()}
        return (f"{counted(self.units, 'unit')} ({counted(counts.get('units', 0), 'row')}), "
                f"{counted(counts.get('squads', 0), 'squad')}, {counted(counts.get('modules', 0), 'module')}, "
                f"the project's {counted(counts.get('project', 0), 'setting')}")


def export_tables(index: Index, settings: dict[str, Any] | None, theme: Theme, chosen: dict[str, str]) -> Export:
    """Every table of a dataset. `settings`: the project's duelkit.yaml (None for the bundled data); `theme`
    the game's own words; `chosen`: the designer's `--columns` names for duelkit's columns."""
    export = Export()
    units, squads, modules = index.items("units"), index.items("squads"), index.items("modules")
    unit_header = _header([*UNIT_COLUMNS, *SEGMENT_COLUMNS], chosen)
    export.tables["units"] = [unit_header, *unit_rows(units)]
    export.units = len(units)
    squad_cols = squad_columns(slots_needed(squads, "units"), slots_needed(squads, "modules"))
    export.tables["squads"] = [_header(squad_cols, {}), *table_rows(squads, squad_cols)]
    export.tables["modules"] = [_header(MODULE_COLUMNS, {}), *table_rows(modules, MODULE_COLUMNS)]
    export.tables["project"] = [list(PROJECT_HEADER), *_settings_rows(settings or {}, theme)]
    lost: Counter[str] = Counter()
    _count_lost(units, UNIT_COLUMNS, "", lost, segments=True)
    _count_lost(squads, squad_cols, "squad ", lost)
    _count_lost(modules, MODULE_COLUMNS, "module ", lost)
    if lost:
        export.notes.append("not in the sheet (no column holds them; an import leaves them in the YAML): "
                            + ", ".join(f"{key} ({count}x)" for key, count in sorted(lost.items())))
    export.notes += [f"{line} (not exported)" for line in index.unreadable]
    return export


def _header(columns: list[Column], chosen: dict[str, str]) -> list[object]:
    unknown = sorted(set(chosen) - {column.header for column in columns})
    if unknown:
        raise UsageError(f"--columns: {', '.join(unknown)} is not a column of the export; its columns: "
                         + ", ".join(column.header for column in columns))
    names = {column.header: chosen.get(column.header, column.header) for column in columns}
    check_distinct(names)  # `--columns name=mp` would write two 'mp' columns
    return list(names.values())


def _settings_rows(settings: dict[str, Any], theme: Theme) -> Iterator[list[object]]:
    """The game, its name, then every term and status: the project's word (or the theme's), and the theme's."""
    yield ["theme", "", theme.id, ""]
    yield ["name", "", _text(settings.get("name")), theme.terms.model_dump().get(NAME_TERM, "")]
    for setting, key, defaults in (("term", "terms", theme.terms.model_dump()), ("status", "statuses",
                                                                               dict(theme.statuses))):
        found = settings.get(key)
        own: dict[str, Any] = found if isinstance(found, dict) else {}
        for word_id in [*(k for k in defaults if k != NAME_TERM), *sorted(set(own) - set(defaults))]:
            yield [setting, word_id, _text(own.get(word_id, defaults.get(word_id))), _text(defaults.get(word_id))]


def _text(value: object) -> str:
    return "" if value is None else str(value)


def _count_lost(items: list[dict[str, Any]], columns: list[Column], label: str, lost: Counter[str],
                segments: bool = False) -> None:
    tops = {column.path[0] for column in columns} | ({"disk"} if segments else set())
    nested = {column.path for column in columns}
    segment_tops = {column.path[0] for column in SEGMENT_COLUMNS}
    for item in items:
        lost.update(f"{label}{key}" for key in item if key not in tops)
        lost.update(f"{label}{'.'.join(path)}" for path in _nested_paths(item) if path not in nested)
        disk = item.get("disk") if segments else None
        for segment in disk if isinstance(disk, list) else []:
            if isinstance(segment, dict):
                lost.update(f"segment {key}" for key in segment if key not in segment_tops)
                lost.update(f"segment {'.'.join(path)}" for path in _nested_paths(segment)
                            if path not in {column.path for column in SEGMENT_COLUMNS})


def _nested_paths(item: dict[str, Any], prefix: tuple[str, ...] = ()) -> Iterable[tuple[str, ...]]:
    """Paths of values inside nested mappings (`subroutine.effect.kind`), not of top-level values."""
    for key, value in item.items():
        if isinstance(value, dict) and key != "disk":
            for inner_key, inner in value.items():
                path = (*prefix, key, str(inner_key))
                if isinstance(inner, dict):
                    yield from _nested_paths({str(inner_key): inner}, (*prefix, key))
                else:
                    yield path


def _cells(rows: list[list[object]]) -> Iterator[list[object]]:
    """Cells as the workbook stores them: an empty cell is no cell at all (openpyxl would write an empty
    string, which a spreadsheet shows the same but which costs reading and writing)."""
    for row in rows:
        yield [None if cell == "" else spreadsheet_cell(cell) for cell in row]


def tables_csv(export: Export) -> dict[str, bytes]:
    """One CSV file (UTF-8) per table."""
    return {f"{name}.csv": csv_text(rows).encode("utf-8") for name, rows in export.tables.items()}


def tables_xlsx(export: Export) -> bytes:
    """An .xlsx workbook (openpyxl) with a worksheet per table; byte-identical for the same tables."""
    from openpyxl import Workbook

    workbook = Workbook(write_only=True)
    for name, rows in export.tables.items():
        worksheet = workbook.create_sheet(name[:31])
        for row in _cells(rows):
            worksheet.append(row)
    buffer = io.BytesIO()
    workbook.save(buffer)
    return _reproducible(buffer.getvalue())


def _reproducible(raw: bytes) -> bytes:
    """The workbook with fixed zip dates and document times (openpyxl stamps both with the clock)."""
    result = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(raw)) as source, zipfile.ZipFile(result, "w", zipfile.ZIP_DEFLATED) as target:
        for info in source.infolist():
            data = source.read(info.filename)
            if info.filename == "docProps/core.xml":
                data = _CORE_TIME.sub(rb"\g<1>2000-01-01T00:00:00Z\g<2>", data)
            target.writestr(zipfile.ZipInfo(info.filename, date_time=_FIXED_TIME), data,
                            compress_type=zipfile.ZIP_DEFLATED)
    return result.getvalue()
