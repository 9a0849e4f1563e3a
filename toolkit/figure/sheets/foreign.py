"""Foreign sheets: a Pokémon-Duel-style table (one row per Data Disk segment, or one row per unit with
numbered segment columns) turned into unit dicts.

The importer transcribes; it does not repair. Values the unit schema will reject (MP 0, a 'z-move'
colour, sizes that do not sum to 96, an empty move name) are written as found, so `duelkit validate`
reports each one at its line. Only cells that cannot be written down as a unit field at all (an
empty colour, a size that is not a whole number, a damage of '??') keep their figure out of the
project; those figures are returned in `ImportResult.skipped` with the sheet line, column and raw
value of every bad cell. Nothing here writes or prints.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from toolkit.errors import DuelkitError, UsageError
from toolkit.fields import SLUG_PATTERN
from toolkit.figure.sheets.columns import FIELDS, ColumnMap, map_header
from toolkit.figure.sheets.native import Patch, get_path
from toolkit.figure.sheets.project import SheetData
from toolkit.figure.sheets.read import (
    OTHER_SHEET_SUFFIXES,
    XLSX_SUFFIXES,
    csv_records,
    decode,
    read_bytes,
    xlsx_records,
)
from toolkit.figure.sheets.result import CellMap, ImportResult, RowIssue, SkippedFigure
from toolkit.figure.sheets.values import classify_value, inert, modified_damage, slugify
from toolkit.figure.theme import named_statuses
from toolkit.whole_numbers import WHOLE_PATTERN

# Columns that make up one figure: consecutive rows agreeing on all of them are one unit.
FIGURE_COLUMNS = ("Name", "Movement", "Rarity", "Type", "Special Ability")
SEGMENT_COLUMNS = ("Attack Wheel Size", "Attack Name", "Attack Type", "Attack Value", "Attack Ability")
REQUIRED_COLUMNS = FIGURE_COLUMNS + SEGMENT_COLUMNS
# Labelled "value" and "ability", but either may hold damage, stars or effect text: classified by content.
VALUE_COLUMNS = ("Attack Value", "Attack Ability")
MAX_ID_BASE = 60  # Slug ids are at most 64 characters; leave room for a '-2' style suffix.
_SLUG_RE = re.compile(SLUG_PATTERN)
_NO_ABILITY = {"", "none"}
_INT_RE = re.compile(f"^{WHOLE_PATTERN}$")  # 0-9 only, bounded (toolkit/whole_numbers.py)


@dataclass(frozen=True)
class _Row:
    line: int
    cells: dict[str, str]
    unit_row: int = 0  # a row-per-unit sheet: the sheet row (each is one figure)
    headers: dict[str, str] = field(default_factory=dict)  # canonical column -> the sheet's header text

    def key(self) -> tuple[object, ...]:
        return (self.unit_row, self.cells.get("Id", ""), *(self.cells[column] for column in FIGURE_COLUMNS))


# ---------------------------------------------------------------------------------------------
# Reading


def read_sheet(path: Path | str, columns: dict[str, str] | None = None, layout: str = "auto") -> ImportResult:
    """Read a sheet (CSV, or the first worksheet of an .xlsx workbook) and turn each figure into a unit dict
    (or a skipped figure). `columns` names headers by field (`columns.parse_columns`); `layout` is 'auto',
    'segment' (one row per segment) or 'unit' (one row per unit with numbered segment columns)."""
    path = Path(path)
    if path.suffix.casefold() in OTHER_SHEET_SUFFIXES:
        raise UsageError(f"'{path}': duelkit reads .csv and .xlsx sheets; save it as one of those "
                         "(File > Save As / Download) and import that")
    if path.suffix.casefold() in XLSX_SUFFIXES:
        records = xlsx_records(read_bytes(path), path)
    else:
        records = csv_records(decode(read_bytes(path), path), path)
    return read_records(list(records), path, path.name, columns, layout)


def read_records(records: list[tuple[int, list[str]]], path: Path, source: str,
                 columns: dict[str, str] | None = None, layout: str = "auto") -> ImportResult:
    """A foreign sheet's rows (header first) as units; see `read_sheet`."""
    if not records:
        raise DuelkitError(f"'{path}' is empty: expected a header line naming {', '.join(REQUIRED_COLUMNS)}")
    header = records[0][1]
    column_map = map_header(header, columns or {}, layout)
    rows = [row for line, fields in records[1:] for row in _rows(line, fields, column_map, header)]
    result = ImportResult([], [], [], rows_read=len(rows), source=source)
    taken: set[str] = set()
    renamed: list[str] = []
    for group in _figures(rows):
        base = _base_id(group[0])
        unit_id = _unique_id(base, taken)
        if unit_id != base and not group[0].cells.get("Id"):
            renamed.append(unit_id)
        lines = (group[0].line, group[-1].line)
        unit, issues, warnings = _figure(group, unit_id)
        if issues:
            result.skipped.append(SkippedFigure(group[0].cells["Name"], issues, unit_id, lines))
        else:
            result.units.append(unit)
            result.lines[unit_id] = lines
            result.cells[unit_id] = _cell_sources(group)
            result.warnings.extend(warnings)
    result.notes = _notes(rows, header, column_map, renamed, result)
    if column_map.wide:
        result.notes.insert(0, f"one row per unit: {len(column_map.segments)} numbered segment column groups")
    return result


read_csv = read_sheet  # the name of the CSV-only importer, kept for callers

def _rows(line: int, fields: list[str], column_map: ColumnMap, header: list[str]) -> Iterator[_Row]:
    """The segment rows of one sheet row: itself, or one per numbered segment group that is not empty."""
    def cell(position: int) -> str:
        return inert(fields[position].strip()) if position < len(fields) else ""

    figure = {**column_map.figure, **column_map.optional}
    base = {FIELDS[key]: cell(pos) for key, pos in figure.items()}
    base_headers = {FIELDS[key]: header[pos] for key, pos in figure.items()}
    groups = []
    for group in column_map.segments:
        cells = {FIELDS[key]: cell(pos) for key, pos in group.items()}
        if not column_map.wide or any(cells.values()):
            groups.append((cells, {FIELDS[key]: header[pos] for key, pos in group.items()}))
    if not groups:
        groups.append((dict.fromkeys(SEGMENT_COLUMNS, ""), dict(zip(SEGMENT_COLUMNS, SEGMENT_COLUMNS, strict=True))))
    for cells, headers in groups:
        yield _Row(line, {**base, **cells}, line if column_map.wide else 0, {**base_headers, **headers})


def _figures(rows: list[_Row]) -> Iterator[list[_Row]]:
    """Runs of consecutive rows that agree on every figure column."""
    group: list[_Row] = []
    for row in rows:
        if group and row.key() != group[0].key():
            yield group
            group = []
        group.append(row)
    if group:
        yield group


def _base_id(row: _Row) -> str:
    given = row.cells.get("Id", "")
    if _SLUG_RE.match(given) and len(given) <= MAX_ID_BASE + 4:
        return given
    name = slugify(row.cells["Name"])[:MAX_ID_BASE].strip("-") or "unit"
    rarity = slugify(row.cells["Rarity"])
    return f"{name}-{rarity}" if rarity else name


def _unique_id(base: str, taken: set[str]) -> str:
    """`base`, or `base-2`, `base-3`... Ids are given in CSV order to every figure, skipped or not,
    so fixing one bad row and importing again does not rename any other unit."""
    candidate, number = base, 1
    while candidate in taken:
        number += 1
        candidate = f"{base}-{number}"
    taken.add(candidate)
    return candidate


# ---------------------------------------------------------------------------------------------
# Converting one figure


def _figure(rows: list[_Row], unit_id: str) -> tuple[dict[str, Any], list[RowIssue], list[RowIssue]]:
    """The unit dict for a figure, the cells that could not be converted (empty when fine) and the cells
    transcribed with a caveat the designer should read (warnings)."""
    first = rows[0]
    issues = _figure_issues(first)
    unit: dict[str, Any] = {
        "id": unit_id,
        "name": first.cells["Name"],
        "class": first.cells["Rarity"],
        "mp": int(first.cells["Movement"]) if _INT_RE.match(first.cells["Movement"]) else None,
    }
    types = [slug for part in first.cells["Type"].split("/") if (slug := slugify(part))]
    if types:
        unit["types"] = types
    subroutine = _subroutine(first.cells["Special Ability"])
    if subroutine:
        unit["subroutine"] = subroutine
    disk = []
    warnings: list[RowIssue] = []
    for row in rows:
        segment, row_issues, row_warnings = _segment(row)
        disk.append(segment)
        issues.extend(row_issues)
        warnings.extend(row_warnings)
    unit["disk"] = disk
    return unit, issues, warnings


def _cell_sources(rows: list[_Row]) -> tuple[CellMap, list[CellMap]]:
    """Where each field of a unit came from in the sheet, so validation can point at the cell to fix."""
    first = rows[0]

    def at(row: _Row, column: str) -> tuple[int, str]:
        return row.line, row.headers.get(column, column)

    figure = {"id": at(first, "Id" if "Id" in first.headers else "Name"), "name": at(first, "Name"),
              "class": at(first, "Rarity"), "mp": at(first, "Movement"), "types": at(first, "Type"),
              "subroutine": at(first, "Special Ability"), "disk": (first.line, "")}
    segments = []
    for row in rows:
        segment = {"": (row.line, ""), "move": at(row, "Attack Name"), "color": at(row, "Attack Type"),
                   "size": at(row, "Attack Wheel Size")}
        for column in VALUE_COLUMNS:
            kind = classify_value(row.cells[column])[0]
            kind = "damage" if kind == "damage_note" else kind
            if kind in ("damage", "stars", "effect") and kind not in segment:
                segment[kind] = at(row, column)
                if kind == "damage":
                    segment["damage_note"] = segment[kind]
        segments.append(segment)
    return figure, segments


def _figure_issues(row: _Row) -> list[RowIssue]:
    issues = []
    if not row.cells["Name"]:
        issues.append(RowIssue(row.line, "Name", "", "empty: every unit needs a name"))
    movement = row.cells["Movement"]
    if not _INT_RE.match(movement):
        issues.append(RowIssue(row.line, "Movement", movement, "MP must be a whole number"))
    return issues


def _subroutine(text: str) -> dict[str, str] | None:
    """'Name - text' split at the first ' - '. Without a ' - ' the cell is both name and text, so
    nothing is lost and an over-long name is reported by validation; 'None' or empty means none."""
    if text.casefold() in _NO_ABILITY:
        return None
    name, sep, rest = text.partition(" - ")
    if sep and name.strip() and rest.strip():
        return {"name": name.strip(), "text": rest.strip()}
    return {"name": text, "text": text}


def _segment(row: _Row) -> tuple[dict[str, Any], list[RowIssue], list[RowIssue]]:
    """One Data Disk segment: move, colour and size as written, plus whatever the value cells hold."""
    cells = row.cells
    issues = []
    warnings = []
    # An empty cell is an absent field, as the project writer reads it: a nameless Miss has no `move`.
    segment: dict[str, Any] = {"move": cells["Attack Name"]} if cells["Attack Name"] else {}
    segment["color"] = _color(cells["Attack Type"])
    if not cells["Attack Type"]:
        issues.append(RowIssue(row.line, "Attack Type", "", "empty: every segment needs a colour"))
    size = cells["Attack Wheel Size"]
    if _INT_RE.match(size):
        segment["size"] = int(size)
    else:
        reason = "empty: every segment needs a size" if not size else "size must be a whole number"
        issues.append(RowIssue(row.line, "Attack Wheel Size", size, reason))
    found: dict[str, tuple[str, int | str]] = {}
    note = ""
    for column in VALUE_COLUMNS:
        kind, value = classify_value(cells[column])
        modified = kind == "damage_note"
        if modified:
            kind, value = "damage", modified_damage(cells[column])
        if modified and "damage" not in found:
            note = cells[column]
            warnings.append(RowIssue(row.line, column, cells[column],
                                     f"damage with a modifier: imported as damage {value}, the cell kept as "
                                     "`damage_note` (write the rule in the effect text)"))
        if kind == "bad":
            issues.append(RowIssue(row.line, column, cells[column], str(value)))
        elif kind in found:
            issues.append(RowIssue(row.line, column, cells[column],
                                   f"a second {kind} in one segment (the other is in '{found[kind][0]}')"))
        elif kind != "empty":
            found[kind] = (column, value)
    for kind in ("damage", "stars", "effect"):
        if kind in found:
            segment[kind] = found[kind][1]
            if kind == "damage" and note:
                segment["damage_note"] = note
    return segment, issues, warnings


def _color(text: str) -> str:
    """Lowercase, spaces and underscores as '-': 'Z-Move' stays 'z-move' for validation to report."""
    return re.sub(r"[\s_]+", "-", text.strip().lower())


def derive_inflicts(result: ImportResult, statuses: Mapping[str, str]) -> None:
    """Purple moves whose effect text names exactly one status of the theme (by its printed name, also
    inflected: Burn, Burned) get `inflicts:` that status, with a warning to check it (the text may name a
    status it cures or avoids). Text naming several statuses gets a warning and no `inflicts`."""
    for unit in result.units:
        sources = result.cells.get(unit["id"], ({}, []))[1]
        for index, segment in enumerate(unit["disk"]):
            effect = segment.get("effect")
            if segment.get("color") != "purple" or not isinstance(effect, str) or "inflicts" in segment:
                continue
            named = named_statuses(effect, statuses)
            if not named:
                continue
            source = sources[index] if index < len(sources) else {}
            line, column = source.get("effect", (0, ""))
            shown = effect if len(effect) <= 60 else effect[:57] + "..."
            if len(named) == 1:
                segment["inflicts"] = named[0]
                source["inflicts"] = (line, column)
                reason = (f"the effect names {statuses[named[0]]}: imported as `inflicts: {named[0]}` (check that "
                          "the move inflicts it; remove `inflicts` if the text only mentions it)")
            else:
                reason = (f"the effect names several statuses ({', '.join(statuses[s] for s in named)}): no "
                          "`inflicts` set; add the one the move inflicts")
            result.warnings.append(RowIssue(line, column, shown, reason))


def _notes(rows: list[_Row], header: list[str], column_map: ColumnMap, renamed: list[str],
           result: ImportResult) -> list[str]:
    """Facts about the file as a whole that a designer should know before trusting the result."""
    notes = []
    numbers = ("damage", "damage_note", "stars")
    swapped = sum(1 for row in rows if classify_value(row.cells["Attack Ability"])[0] in numbers)
    if swapped:
        notes.append(
            f"'Attack Ability' held a damage number or stars on {swapped} of {len(rows)} rows (the "
            "'Attack Value' and 'Attack Ability' columns are mislabelled); every cell of both columns "
            "was classified by its content instead of its column name")
    used = column_map.used()
    ignored = [name for position, name in enumerate(header) if position not in used and name.strip()]
    if ignored:
        notes.append(f"column(s) not imported: {', '.join(repr(name) for name in ignored)}")
    if renamed:
        notes.append(f"{len(renamed)} figure(s) repeat an earlier name and class and got a numbered id: "
                     + ", ".join(renamed))
    if result.skipped:
        notes.append(f"{len(result.skipped)} of {result.figures} figures were not imported because of "
                     "cells that cannot be converted; see the skipped list")
    return notes



# What a foreign sheet's columns say (and so replace in a project's units); other fields are left alone.
UNIT_PATHS = (("id",), ("name",), ("class",), ("mp",), ("types",), ("subroutine", "name"), ("subroutine", "text"))
SEGMENT_PATHS = (("move",), ("color",), ("size",), ("damage",), ("damage_note",), ("stars",), ("effect",))


def sheet_data(result: ImportResult) -> SheetData:
    """The units of a foreign sheet as patches for `project.plan_import`."""
    patches = []
    for unit in result.units:
        segments = []
        for segment in unit["disk"]:
            values: dict[tuple[str, ...], Any] = {path: segment.get(path[0]) for path in SEGMENT_PATHS}
            if "inflicts" in segment:  # derived from the effect text; otherwise the project's is kept
                values[("inflicts",)] = segment["inflicts"]
            segments.append(values)
        first, last = result.lines.get(unit["id"], (0, 0))
        patches.append(Patch(unit["id"], {path: get_path(unit, path) for path in UNIT_PATHS}, first, (first, last),
                             segments))
    return SheetData(result.source, units=patches, skipped=result, cells=result.cells)
