"""Which sheet column holds which unit field: the column map shared by `duelkit import` and `export csv|xlsx`.

A column is found by, in order: the name given with `--columns field=Header`, the canonical header
(the public Pokémon Duel sheet's), then common variants ("Figure", "MP", "Colour"...). Headers match
ignoring case, spaces, '_' and '-'. A sheet with one row per unit numbers its segment columns
("Move 1", "Size 1", "Color 1", ... "Move 2"...); it is recognised when the segment columns are only
found numbered.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from toolkit.errors import UsageError
from toolkit.whole_numbers import NumberError, read_whole, shown

# field key (what `--columns` names) -> canonical header
FIGURE_FIELDS = {"name": "Name", "mp": "Movement", "class": "Rarity", "types": "Type",
                 "subroutine": "Special Ability"}
SEGMENT_FIELDS = {"size": "Attack Wheel Size", "move": "Attack Name", "color": "Attack Type",
                  "value": "Attack Value", "ability": "Attack Ability"}
OPTIONAL_FIELDS = {"id": "Id"}  # written by `duelkit export`, so a re-import keeps every id
FIELDS = {**OPTIONAL_FIELDS, **FIGURE_FIELDS, **SEGMENT_FIELDS}

# Common spellings of each field's header besides the canonical one (compared after `normal`).
VARIANTS: dict[str, tuple[str, ...]] = {
    "id": ("id", "unit id", "slug"),
    "name": ("figure", "unit", "unit name", "character", "pokemon", "pokémon", "figure name"),
    "mp": ("mp", "move points", "movement points", "moves", "speed"),
    "class": ("class", "unit class", "rarity class"),
    "types": ("types", "type(s)", "element", "elements"),
    "subroutine": ("ability", "abilities", "subroutine", "special", "passive"),
    "size": ("size", "wheel size", "segment size", "wedge size", "disk size"),
    "move": ("move", "move name", "attack", "segment", "segment name"),
    "color": ("color", "colour", "segment color", "segment colour", "move color", "move colour", "move type"),
    "value": ("value", "effect", "effect text", "text", "move effect"),
    "ability": ("damage", "stars", "damage/stars", "power", "attack damage"),
}
_NUMBERED = re.compile(r"^(.*?)\s*#?\s*([0-9]+)$")  # ASCII digits; their count is bounded by read_whole


def normal(name: str) -> str:
    """Header text compared ignoring case, runs of spaces, '_' and '-'."""
    return " ".join(name.replace("_", " ").replace("-", " ").split()).casefold()


MAX_HEADER = 200  # characters of a header named with --columns


def parse_columns(text: str, extra: tuple[str, ...] = ()) -> dict[str, str]:
    """`name=Figure,mp=Move` -> {'name': 'Figure', 'mp': 'Move'}; unknown fields (neither a field of FIELDS nor
    one of `extra`, duelkit's own column names), a header that is not plain text (a control character, or
    longer than MAX_HEADER) and one header named for two fields are usage errors."""
    known = [*FIELDS, *(name for name in extra if name not in FIELDS)]
    mapping: dict[str, str] = {}
    for part in filter(None, (piece.strip() for piece in text.split(","))):
        key, sep, header = part.partition("=")
        key = key.strip().casefold()
        if not sep or not header.strip():
            raise UsageError(f"--columns: '{part[:60]}' is not field=Header (for example name=Figure)")
        if key not in known:
            raise UsageError(f"--columns: unknown field '{key[:40]}'; fields: {', '.join(known)}")
        if not header.isprintable() or len(header.strip()) > MAX_HEADER:
            raise UsageError(f"--columns: the header for {key} must be one line of plain text of at most "
                             f"{MAX_HEADER} characters (no control characters)")
        mapping[key] = header.strip()
    check_distinct(mapping)
    return mapping


def check_distinct(headers: dict[str, str]) -> None:
    """UsageError when two fields have the same header (as headers are compared): the sheet could not tell
    their columns apart."""
    seen: dict[str, str] = {}
    for key, header in headers.items():
        other = seen.setdefault(normal(header), key)
        if other != key:
            raise UsageError(f"--columns: {other} and {key} would both be the column '{header[:60]}'; give each "
                             "field its own header")


@dataclass(frozen=True)
class ColumnMap:
    """Positions in the header row. `segments` has one {field: position} per segment column group: one
    group for a row-per-segment sheet, one per number for a row-per-unit sheet (`wide`)."""

    figure: dict[str, int]
    segments: list[dict[str, int]]
    wide: bool
    optional: dict[str, int]

    def used(self) -> set[int]:
        return {*self.figure.values(), *self.optional.values(),
                *(pos for group in self.segments for pos in group.values())}


def _names(field: str, chosen: dict[str, str]) -> list[str]:
    names = [chosen[field]] if field in chosen else []
    return [normal(name) for name in (*names, FIELDS[field], *VARIANTS.get(field, ()))]


def _find(field: str, chosen: dict[str, str], found: dict[str, int]) -> int | None:
    if field in chosen:  # a header named on purpose is the only one accepted for its field
        return found.get(normal(chosen[field]))
    return next((found[name] for name in _names(field, chosen) if name in found), None)


def map_header(header: list[str], chosen: dict[str, str], layout: str = "auto") -> ColumnMap:
    """The column map of a header row; raises UsageError naming what is missing.

    `layout` is 'auto', 'segment' (one row per segment) or 'unit' (one row per unit, numbered columns)."""
    found: dict[str, int] = {}
    numbered: dict[int, dict[str, int]] = {}
    for position, text in enumerate(header):
        found.setdefault(normal(text), position)
        match = _NUMBERED.match(text.strip())
        if match:
            try:
                number = read_whole(match.group(2), "a segment number")
            except NumberError as exc:
                raise UsageError(f"the header (line 1), column {position + 1} ({shown(text.strip(), 30)}): "
                                 f"{exc}") from None
            numbered.setdefault(number, {}).setdefault(normal(match.group(1)), position)
    figure = {key: pos for key in FIGURE_FIELDS if (pos := _find(key, chosen, found)) is not None}
    optional = {key: pos for key in OPTIONAL_FIELDS if (pos := _find(key, chosen, found)) is not None}
    long_group = {key: pos for key in SEGMENT_FIELDS if (pos := _find(key, chosen, found)) is not None}
    wide_groups = []
    for number in sorted(numbered):
        group = {key: pos for key in SEGMENT_FIELDS if (pos := _find(key, chosen, numbered[number])) is not None}
        if group:
            wide_groups.append(group)
    wide = layout == "unit" or (layout == "auto" and not long_group and bool(wide_groups))
    segments = wide_groups if wide else [long_group]
    def wanted(key: str, suffix: str = "") -> str:
        return f"{chosen[key]} (--columns {key}=)" if key in chosen else FIELDS[key] + suffix

    missing = [wanted(key) for key in FIGURE_FIELDS if key not in figure]
    first = segments[0] if segments else {}
    missing += [wanted(key, " 1" if wide else "") for key in SEGMENT_FIELDS if key not in first]
    if not missing and any(len(group) < len(SEGMENT_FIELDS) for group in segments):
        missing.append("all five columns of every numbered segment")
    if missing:
        shape = "one row per unit, segment columns numbered" if wide else "one row per segment"
        raise UsageError(
            f"the header (line 1) lacks the column(s) {', '.join(repr(m) for m in missing)} ({shape}); "
            "name them with --columns field=Header (fields: " + ", ".join(FIELDS) + ")")
    return ColumnMap(figure, segments, wide, optional)
