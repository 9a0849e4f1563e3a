"""duelkit's own tables: the columns of the units, squads, modules and project sheets, data turned into
rows (export) and rows turned back into patches of the data (import).

The columns come from the data format itself (`figure/model.py`): every field of a unit, a segment, a
module and a squad gets a column named by its path (`board_effect.kind`, `subroutine.effect.amount`),
nested effects are spread over the columns of all their kinds, lists of a squad get numbered columns
(`units.1` ... `units.6`), short lists of ids are one cell (`aero, volt`). A new field in the format is
a new column without a change here. Reading is by header name; a header the export did not write is
reported, a column the sheet lacks leaves its field alone (see `merge`).
"""

from __future__ import annotations

import re
import types
import typing
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel

from toolkit.figure.model import Module, Segment, Squad, Unit

TEXT, INT, BOOL, LIST = "text", "int", "bool", "list"
SQUAD_SLOTS = 6  # numbered columns written for a squad's units and modules (more when a squad lists more)
MAX_SLOTS = 99  # numbered columns read back (`units.1` .. `units.99`); wider headers are not duelkit's
_INT_CELL = re.compile(r"^-?\d{1,9}$")
_SLOT = re.compile(r"^(units|modules)\.(\d{1,2})$")
_TRUE, _FALSE = {"true", "yes", "1"}, {"false", "no", "0"}


@dataclass(frozen=True)
class Column:
    """One sheet column: its header (the field's dotted path), the path into the YAML mapping, and how a
    cell is read (text, a whole number, true/false, or a comma-separated list)."""

    header: str
    path: tuple[str, ...]
    kind: str


def _scalar_kind(annotation: Any) -> tuple[str, list[type[BaseModel]]]:
    """The cell kind of an annotation, and the models it may hold (an optional or discriminated union)."""
    models: list[type[BaseModel]] = []
    kinds: set[str] = set()
    pending = [annotation]
    while pending:
        current = pending.pop()
        origin = typing.get_origin(current)
        if origin is typing.Annotated:
            pending.append(typing.get_args(current)[0])
        elif origin in (typing.Union, types.UnionType):
            pending.extend(reversed(typing.get_args(current)))
        elif origin in (tuple, list):
            kinds.add(LIST)
        elif isinstance(current, type) and issubclass(current, BaseModel):
            models.append(current)
        elif current is bool:
            kinds.add(BOOL)
        elif current is int:
            kinds.add(INT)
        elif current is not type(None):
            kinds.add(TEXT)  # str, an enum, a Literal
    for kind in (LIST, BOOL, INT):
        if kind in kinds:
            return kind, models
    return TEXT, models


def model_columns(model: type[BaseModel], prefix: tuple[str, ...] = (), skip: Sequence[str] = ()) -> list[Column]:
    """The columns of a model's fields in declaration order, nested models and unions flattened."""
    columns: list[Column] = []
    for name, info in model.model_fields.items():
        key = info.alias or name
        if key in skip:
            continue
        kind, models = _scalar_kind(info.annotation)
        path = (*prefix, key)
        if not models:
            columns.append(Column(".".join(path), path, kind))
            continue
        seen = {column.header for column in columns}
        for nested in models:
            for column in model_columns(nested, path):
                if column.header not in seen:
                    seen.add(column.header)
                    columns.append(column)
    return columns


UNIT_COLUMNS = model_columns(Unit, skip=("disk",))
SEGMENT_COLUMNS = model_columns(Segment)
MODULE_COLUMNS = model_columns(Module)
SQUAD_COLUMNS = model_columns(Squad, skip=("units", "modules"))
PROJECT_HEADER = ("setting", "id", "value", "theme word")
# the columns that tell a units sheet written by duelkit from a foreign one: all of these, and one of the
# value columns (a designer may delete the columns of the fields they do not edit)
NATIVE_UNIT_HEADERS = ("id", "name", "move", "color", "size")
NATIVE_VALUE_HEADERS = ("damage", "stars", "effect")


def squad_columns(slots: int = SQUAD_SLOTS, module_slots: int = SQUAD_SLOTS) -> list[Column]:
    return [*SQUAD_COLUMNS, *(Column(f"units.{n}", ("units", str(n)), TEXT) for n in range(1, slots + 1)),
            *(Column(f"modules.{n}", ("modules", str(n)), TEXT) for n in range(1, module_slots + 1))]


# ---------------------------------------------------------------------------------------------
# Data -> cells


def get_path(data: Any, path: tuple[str, ...]) -> Any:
    for key in path:
        if isinstance(data, list) and key.isdigit():
            index = int(key) - 1
            data = data[index] if 0 <= index < len(data) else None
        elif isinstance(data, dict):
            data = data.get(key)
        else:
            return None
    return data


def cell(value: Any, kind: str) -> object:
    """A value as its cell: whole numbers stay numbers (a spreadsheet can sum them), true/false as words,
    a list of plain words as one 'a, b' cell; anything else (data the schema will reject) as its text."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return value
    if isinstance(value, list) and kind == LIST and all(isinstance(item, str | int) for item in value):
        return ", ".join(str(item) for item in value)
    return str(value)


def unit_rows(units: list[dict[str, Any]]) -> Iterator[list[object]]:
    """One row per segment: the unit's cells on its first row, its id on every row."""
    for unit in units:
        disk = unit.get("disk")
        segments = [s for s in disk if isinstance(s, dict)] if isinstance(disk, list) else []
        first = [cell(get_path(unit, column.path), column.kind) for column in UNIT_COLUMNS]
        blank: list[object] = [first[0], *([""] * (len(UNIT_COLUMNS) - 1))]
        for index, segment in enumerate(segments or [{}]):
            yield [*(first if index == 0 else blank),
                   *(cell(get_path(segment, column.path), column.kind) for column in SEGMENT_COLUMNS)]


def table_rows(items: list[dict[str, Any]], columns: list[Column]) -> Iterator[list[object]]:
    for item in items:
        yield [cell(get_path(item, column.path), column.kind) for column in columns]


def slots_needed(squads: list[dict[str, Any]], key: str) -> int:
    return max([SQUAD_SLOTS, *(len(s[key]) for s in squads if isinstance(s.get(key), list))])


# ---------------------------------------------------------------------------------------------
# Cells -> patches


EMPTY: Any = None  # an empty cell: the field is removed (or stays absent)


def parse(text: str, kind: str) -> Any:
    """A cell read back: '' is EMPTY; a number, true/false or list where the column holds one; text that
    does not fit its column is kept as text, for validation to report where it is."""
    if text == "":
        return EMPTY
    stripped = text.strip()
    if kind == INT and _INT_CELL.match(stripped):
        return int(stripped)
    if kind == BOOL and stripped.casefold() in _TRUE | _FALSE:
        return stripped.casefold() in _TRUE
    if kind == LIST:
        return [item.strip() for item in stripped.split(",") if item.strip()]
    return text


@dataclass
class Patch:
    """What one row (or rows) of a table says about one item: column path -> value (EMPTY: remove)."""

    id: str
    values: dict[tuple[str, ...], Any]
    line: int
    lines: tuple[int, int] = (0, 0)
    segments: list[dict[tuple[str, ...], Any]] = field(default_factory=list)
    segment_lines: list[int] = field(default_factory=list)
    headers: dict[tuple[str, ...], str] = field(default_factory=dict)  # path -> the sheet's header


def header_columns(header: list[str], columns: list[Column]) -> tuple[dict[int, Column], list[str]]:
    """Which position holds which column (exact names, case and spaces ignored); the headers not known."""
    known = {column.header.casefold(): column for column in columns}
    found: dict[int, Column] = {}
    unknown = []
    for position, text in enumerate(header):
        name = text.strip().casefold()
        slot = _SLOT.match(name)
        if name in known:
            found[position] = known[name]
        elif slot and 1 <= int(slot.group(2)) <= MAX_SLOTS:
            found[position] = Column(name, (slot.group(1), slot.group(2)), TEXT)
        elif name:
            unknown.append(text.strip())
    return found, unknown


def is_native_units(header: list[str]) -> bool:
    names = {text.strip().casefold() for text in header}
    return all(name in names for name in NATIVE_UNIT_HEADERS) and any(name in names for name in NATIVE_VALUE_HEADERS)


def _row_values(fields: list[str], positions: dict[int, Column]) -> dict[tuple[str, ...], Any]:
    values = {column.path: parse(fields[pos] if pos < len(fields) else "", column.kind)
              for pos, column in positions.items()}
    color = values.get(("color",))
    if isinstance(color, str):  # 'White' typed in a spreadsheet is the colour white
        values[("color",)] = color.strip().lower()
    return values


def unit_patches(records: list[tuple[int, list[str]]], positions: dict[int, Column]) -> list[Patch]:
    """Units from the rows of a units table: a row with a new id (or, without an id, a name) starts a unit,
    the rows after it with the same or no id are its further segments."""
    unit_paths = {column.path for column in UNIT_COLUMNS}
    top = {pos: col for pos, col in positions.items() if col.path in unit_paths}
    seg = {pos: col for pos, col in positions.items() if col.path not in unit_paths}
    patches: list[Patch] = []
    for line, fields in records:
        values = _row_values(fields, top)
        unit_id = values.get(("id",)) or ""
        current = patches[-1] if patches else None
        starts = current is None or (unit_id and unit_id != current.id) or (not unit_id and values.get(("name",)))
        if starts:
            current = Patch(str(unit_id), values, line, (line, line),
                            headers={col.path: col.header for col in positions.values()})
            patches.append(current)
        assert current is not None
        current.lines = (current.lines[0], line)
        segment = _row_values(fields, seg)
        if any(value is not EMPTY for value in segment.values()):
            current.segments.append(segment)
            current.segment_lines.append(line)
    return patches


def item_patches(records: list[tuple[int, list[str]]], positions: dict[int, Column]) -> list[Patch]:
    """One item (module, squad) per row."""
    patches = []
    for line, fields in records:
        values = _row_values(fields, positions)
        patches.append(Patch(str(values.get(("id",)) or ""), values, line, (line, line),
                             headers={col.path: col.header for col in positions.values()}))
    return patches


# ---------------------------------------------------------------------------------------------
# Patches -> data


def _same(old: Any, new: Any) -> bool:
    """Whether a cell read back says what the data holds: equal values, an empty cell for an absent or
    empty value, or the same text (data of the wrong type, written and read as text)."""
    if new is EMPTY:
        return old is None or old == [] or old == {} or old == ""
    if old == new and type(old) is type(new):
        return True
    return isinstance(new, str | list) and new == cell(old, LIST if isinstance(new, list) else TEXT)


def merge(existing: dict[str, Any] | None, values: dict[tuple[str, ...], Any]) -> dict[str, Any]:
    """`existing` with every field the patch has a column for set from its cell (an empty cell removes the
    field; a mapping left empty is removed); fields without a column are left as they are. A cell that
    says what the data holds changes nothing, so merging an unchanged export gives the same data."""
    result = _copy(existing or {})
    for path, value in values.items():
        if path[0] in ("units", "modules") and len(path) == 2:
            continue  # numbered slots: gathered below
        if not _same(get_path(result, path), value):
            _set(result, path, value)
    for key in ("units", "modules"):
        slots = sorted((int(path[1]), value) for path, value in values.items() if len(path) == 2 and path[0] == key)
        if slots:
            listed = [value for _, value in slots if value is not EMPTY]
            if listed != result.get(key) and not (not listed and key not in result):
                result[key] = listed
    return result


def merge_unit(existing: dict[str, Any] | None, patch: Patch, has_disk: bool) -> dict[str, Any]:
    """A unit: its own fields merged, then its Data Disk segment by segment when the sheet has segment
    columns (`has_disk`); the sheet's rows decide how many segments there are."""
    result = merge(existing, patch.values)
    if not has_disk:
        return result
    old = existing.get("disk") if existing is not None else None
    old_segments = old if isinstance(old, list) else []
    disk = [merge(old_segments[index] if index < len(old_segments) and isinstance(old_segments[index], dict)
                  else None, segment) for index, segment in enumerate(patch.segments)]
    if disk or "disk" in result:
        result["disk"] = disk
    return result


def _set(data: dict[str, Any], path: tuple[str, ...], value: Any) -> None:
    parents = [data]
    for key in path[:-1]:
        child = parents[-1].get(key)
        if not isinstance(child, dict):
            if value is EMPTY:
                return
            child = {}
            parents[-1][key] = child
        parents.append(child)
    if value is EMPTY:
        parents[-1].pop(path[-1], None)
        for depth in range(len(path) - 1, 0, -1):  # a mapping left empty is removed
            if not parents[depth]:
                parents[depth - 1].pop(path[depth - 1], None)
    else:
        parents[-1][path[-1]] = value


def _copy(data: Any) -> Any:
    if isinstance(data, dict):
        return {key: _copy(value) for key, value in data.items()}
    if isinstance(data, list):
        return [_copy(item) for item in data]
    return data
