"""`duelkit export csv|xlsx`: the unit database written back as a sheet that `duelkit import` reads.

One row per Data Disk segment, in the import's column map (canonical headers, or the designer's
`--columns`), with an `Id` column so a re-import keeps every id. Units are read as written (raw YAML),
not as validated, so a database with rule problems (MP 0, a disk that does not sum to 96) round-trips
too; a file that is not readable YAML is left out and named. Fields no sheet column holds (`inflicts`,
`board_effect`, `upgrades_to`, `copies`, a subroutine's `effect`) are counted in a note, never dropped
silently. Every text cell passes `csvsafe.spreadsheet_cell` (no cell runs as a formula).
"""

from __future__ import annotations

import io
import re
import zipfile
from collections import Counter
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from toolkit.csvsafe import csv_text, spreadsheet_cell
from toolkit.figure.sheets.columns import FIELDS, check_distinct
from toolkit.figure.theme import named_statuses
from toolkit.loading import documents, yaml_files
from toolkit.yamlsource import load_yaml_file

HEADER_FIELDS = ("id", "name", "mp", "class", "types", "subroutine", "size", "move", "color", "value", "ability")
_UNIT_KEYS = {"id", "name", "class", "mp", "types", "subroutine", "disk"}
_SEGMENT_KEYS = {"move", "color", "size", "damage", "damage_note", "stars", "effect"}
_FIXED_TIME = (1980, 1, 1, 0, 0, 0)  # zip entries and document properties: the same bytes on every run
_CORE_TIME = re.compile(rb"(<dcterms:(?:created|modified)[^>]*>)[^<]*(</dcterms:)")


@dataclass
class Sheet:
    """A database as sheet rows (header first), and what the designer should know about it."""

    rows: list[list[object]]
    units: int = 0
    notes: list[str] = field(default_factory=list)


def read_raw_units(unit_dir: Path, root: Path, skip_dir: str) -> tuple[list[dict[str, Any]], list[str]]:
    """Every unit definition under `unit_dir` as written, in file order; files that do not load are named."""
    problems: list[Any] = []
    units: list[dict[str, Any]] = []
    for path in yaml_files(unit_dir, skip_dir=skip_dir, root=root, problems=problems):
        loaded = load_yaml_file(path, root=root)
        if loaded.data is None or any(p.is_error for p in loaded.problems):
            problems += loaded.problems
            continue
        units += [dict(unit) for unit, _ in documents(loaded.data, loaded.source, "units", problems)]
    return units, [f"{p.file}:{p.line}: {p.message} (not exported)" for p in problems]


def units_sheet(units: list[dict[str, Any]], columns: dict[str, str], statuses: Mapping[str, str]) -> Sheet:
    """The rows of the sheet: a header (the column map), then one row per segment. An `inflicts` that the
    import derives again from the effect text (`statuses`: the theme's printed names) is not a loss."""
    names = {key: columns.get(key, FIELDS[key]) for key in HEADER_FIELDS}
    check_distinct(names)  # `--columns name=Movement` would write two 'Movement' columns
    header: list[object] = list(names.values())
    sheet = Sheet([header])
    lost: Counter[str] = Counter()
    for unit in units:
        lost.update(key for key in unit if key not in _UNIT_KEYS)
        subroutine = unit.get("subroutine")
        if isinstance(subroutine, dict):
            lost.update(f"subroutine {key}" for key in subroutine if key not in ("name", "text"))
        figure = [_number(unit.get("id")), _text(unit.get("name")), _number(unit.get("mp")),
                  _text(unit.get("class")), _types(unit.get("types")), _subroutine(subroutine)]
        disk = unit.get("disk")
        for segment in disk if isinstance(disk, list) else []:
            if not isinstance(segment, dict):
                continue
            lost.update(key for key in segment if key not in _SEGMENT_KEYS and not (
                key == "inflicts" and isinstance(segment.get("effect"), str)
                and named_statuses(segment["effect"], statuses) == [segment[key]]))
            value, ability = _value_cells(segment, lost)
            sheet.rows.append([*figure, _number(segment.get("size")), _text(segment.get("move")),
                               _text(segment.get("color")).title(), value, ability])
        sheet.units += 1
    if lost:
        sheet.notes.append("not in the sheet (no column holds them; keep them in the YAML): "
                           + ", ".join(f"{key} ({count}x)" for key, count in sorted(lost.items())))
    return sheet


def _value_cells(segment: dict[str, Any], lost: Counter[str]) -> tuple[object, object]:
    """(Attack Value, Attack Ability): the effect text, and the damage (as the sheet wrote it) or stars.
    The importer classifies both cells by content, so either order reads back the same."""
    effect = _text(segment.get("effect"))
    damage = segment.get("damage")
    note = segment.get("damage_note")
    stars = segment.get("stars")
    number: object = note if isinstance(note, str) and note else _number(damage)
    star_cell = "☆" * stars if isinstance(stars, int) and 0 < stars <= 10 else _number(stars)
    if damage is None:
        return effect, star_cell
    if stars is not None:
        if not effect:
            return star_cell, number
        lost["stars beside damage and effect"] += 1
    return effect, number


def _text(value: object) -> str:
    return "" if value is None else str(value)


def _number(value: object) -> object:
    """Whole numbers stay numbers (a spreadsheet can sum them); anything else is written as text."""
    return value if isinstance(value, int) and not isinstance(value, bool) else _text(value)


def _types(value: object) -> str:
    if isinstance(value, list):
        return " / ".join(str(item).title() for item in value)
    return _text(value)


def _subroutine(value: object) -> str:
    """'Name - text' as the import splits it; a text without a separate name is the whole cell."""
    if not isinstance(value, dict):
        return "None" if value is None else str(value)
    name, text = _text(value.get("name")), _text(value.get("text"))
    return text if name == text or not name else f"{name} - {text}"


def _cells(rows: list[list[object]]) -> Iterator[list[object]]:
    for row in rows:
        yield [spreadsheet_cell(cell) for cell in row]


def sheet_csv(sheet: Sheet) -> bytes:
    return csv_text(sheet.rows).encode("utf-8")


def sheet_xlsx(sheet: Sheet, title: str = "units") -> bytes:
    """An .xlsx workbook (openpyxl) with the rows on one worksheet; byte-identical for the same rows."""
    from openpyxl import Workbook

    workbook = Workbook(write_only=True)
    worksheet = workbook.create_sheet(title[:31])
    for row in _cells(sheet.rows):
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
