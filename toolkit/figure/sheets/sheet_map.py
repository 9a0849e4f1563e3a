"""Problems in imported unit files, pointed back at the sheet cell the designer must fix.

`duelkit import` writes `import-map.json` (see `importer.import_map`): for each unit file, a hash of the
file as written and where each of its YAML keys came from (sheet line and column header). A problem in
a file that still has that hash gets `[sheet: <file> line N, column 'Header']` added to its message
(text and JSON alike: the JSON contract has no field for it). A file edited since the import, or a
missing or unreadable map, is left as it is: a stale map must never point at the wrong cell.
"""

from __future__ import annotations

import bisect
import hashlib
import json
import os
from pathlib import Path
from typing import Any

from toolkit.problems import Problem

IMPORT_MAP = "import-map.json"
MAX_MAP_BYTES = 50_000_000


def with_sheet_cells(project: Path, problems: list[Problem]) -> list[Problem]:
    """`problems`, those in unchanged imported unit files naming their sheet cell."""
    document = read_import_map(project)
    if document is None or not problems:
        return problems
    sheet = str(document.get("sheet") or "the sheet")
    found = document.get("units")
    units: dict[str, Any] = found if isinstance(found, dict) else {}
    root = project.resolve()
    current: dict[str, list[tuple[int, int, int, str]] | None] = {}
    relatives: dict[str, str | None] = {}  # a file has many problems: resolve its path once
    folders: dict[str, tuple[str, str | None]] = {}  # and the files share a few folders: resolve each once
    cwd = os.getcwd()
    annotated = []
    for problem in problems:
        if problem.file not in relatives:
            relatives[problem.file] = _relative(problem.file, root, folders, cwd)
        relative = relatives[problem.file]
        if relative is not None and relative not in current:
            current[relative] = _cells_if_unchanged(root / relative, units.get(relative))
        cells = current.get(relative) if relative is not None else None
        cell = _cell_at(cells, problem.line, problem.column) if cells else None
        if cell is None:
            annotated.append(problem)
            continue
        line, header = cell
        where = f"line {line}, column '{header}'" if header else f"line {line}"
        annotated.append(problem.with_message(f"{problem.message} [sheet: {sheet} {where}]"))
    return annotated


def read_import_map(project: Path) -> dict[str, Any] | None:
    """The project's import map, or None when it is missing, too large or not a JSON object."""
    path = project / IMPORT_MAP
    try:
        if not path.is_file() or path.stat().st_size > MAX_MAP_BYTES:
            return None
        document = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError):
        return None
    return document if isinstance(document, dict) else None


def _relative(file: str, root: Path, folders: dict[str, tuple[str, str | None]], cwd: str) -> str | None:
    """The file's path inside the project, resolved as Path.resolve does (its folder resolved, and placed
    in the project, once per call; the file itself only when it is a link)."""
    try:
        folder, name = os.path.split(os.path.join(cwd, file))  # not normalised: realpath does
        if folder not in folders:
            real_folder = os.path.realpath(folder)
            folders[folder] = real_folder, _inside(real_folder, root)
        real_folder, inside = folders[folder]
        joined = os.path.join(real_folder, name)
        if name in ("", ".", "..") or inside is None or os.path.islink(joined):
            return _inside(os.path.realpath(joined), root)
        return name if inside == "." else f"{inside}/{name}"
    except OSError:
        return None


def _inside(real: str, root: Path) -> str | None:
    try:
        return Path(real).relative_to(root).as_posix()
    except ValueError:
        return None


def file_sha256(path: Path) -> str | None:
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return None


def _cells_if_unchanged(path: Path, entry: object) -> list[tuple[int, int, int, str]] | None:
    if not isinstance(entry, dict) or not isinstance(entry.get("cells"), list):
        return None
    if file_sha256(path) != entry.get("sha256"):
        return None  # edited by hand since the import: its lines no longer match the sheet's
    listed = [item for item in entry["cells"] if isinstance(item, list) and len(item) == 4]
    return sorted([(line, column, row, header) for line, column, row, header in listed
                   if isinstance(line, int) and isinstance(column, int) and isinstance(row, int)
                   and isinstance(header, str)])


def _cell_at(cells: list[tuple[int, int, int, str]], line: int, column: int) -> tuple[int, str] | None:
    """The sheet cell of the last key at or before (line, column); None before the first key."""
    index = bisect.bisect_right(cells, (line, column, float("inf"), "")) - 1
    if index < 0 or line < 1:
        return None
    return cells[index][2], cells[index][3]
