"""Writing an import into a project folder: planned first (`plan_project`: what is added, updated, removed,
kept or in conflict), then written all at once (`apply_plan`), or only shown (`--dry-run`).

A new project is written into a hidden sibling folder and renamed into place; an existing one receives its
changed files by rename, so a failed import leaves the previous project as it was. `import-map.json`
records a hash of each unit file as written and the sheet cell of each of its keys (read by
`sheet_map.with_sheet_cells` for validate, and by the next import to see hand edits).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import secrets
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from toolkit.csvsafe import csv_text
from toolkit.fields import SLUG_PATTERN
from toolkit.figure.sheets.result import CellMap, ImportResult
from toolkit.figure.sheets.sheet_map import IMPORT_MAP, file_sha256, read_import_map
from toolkit.figure.theme import theme_ids
from toolkit.problems import DuelkitError

PROJECT_FILE = "duelkit.yaml"
UNIT_DIR = "unit_data"
SKIPPED_FILE = "skipped.csv"  # every cell that kept a figure out, one row each; absent when none was skipped
SKIPPED_HEADER = ("figure", "line", "column", "value", "reason")
# First lines of the files we write. They let a later import recognise (and replace) its own output
# without touching a hand-made project or units a designer added by hand.
PROJECT_MARKER = "# Written by duelkit import"
UNIT_MARKER = "# Imported by duelkit"
_SLUG_RE = re.compile(SLUG_PATTERN)



@dataclass
class ImportPlan:
    """What an import does to its folder: decided first (`plan_project`), written by `apply_plan`, or only
    shown (`--dry-run`). Lists hold unit ids."""

    out_dir: Path
    files: dict[str, str]  # every file this import writes (hand-edited units excluded), relative path -> text
    changed: dict[str, str]  # of those, the ones that differ from the folder
    stale: set[str]  # imported files to delete
    new_project: bool
    added: list[str] = field(default_factory=list)
    updated: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    kept: list[str] = field(default_factory=list)  # edited by hand since the last import, same in the sheet
    conflicts: list[str] = field(default_factory=list)  # edited by hand and changed or removed in the sheet

    @property
    def paths(self) -> list[Path]:
        return [self.out_dir / relative for relative in self.files]


def write_project(result: ImportResult, out_dir: Path, theme: str = "duel-protocol") -> list[Path]:
    """Write `duelkit.yaml` and one `unit_data/<id>.yaml` per unit; return the paths written."""
    return apply_plan(plan_project(result, out_dir, theme)).paths


def plan_project(result: ImportResult, out_dir: Path, theme: str = "duel-protocol") -> ImportPlan:
    """Check everything and decide what the import writes; nothing is written.

    `out_dir` must be missing, empty, or an earlier import (its `duelkit.yaml` starts with the import
    marker). Re-importing replaces the imported unit files and deletes imported ones no longer in the
    result; files without the marker (units added by hand, squads) are left alone. A unit file edited
    since the last import (its hash differs from the one in `import-map.json`) is never overwritten or
    deleted: if its sheet rows are unchanged the edit is kept quietly, otherwise it is a conflict.
    """
    out_dir = Path(out_dir)
    if theme not in theme_ids():
        raise DuelkitError(f"unknown theme '{theme}'; themes: {', '.join(theme_ids())}")
    _check_units(result.units)
    _check_out_dir(out_dir)
    files = {PROJECT_FILE: _project_text(result, theme), IMPORT_MAP: ""}
    if result.skipped:
        files[SKIPPED_FILE] = skipped_csv(result)
    units = {f"{UNIT_DIR}/{unit['id']}.yaml": _unit_text(unit, result) for unit in result.units}
    previous = _previous_imports(out_dir / UNIT_DIR)
    entries = _map_entries(out_dir)
    plan = ImportPlan(out_dir, files, {}, set(), not out_dir.exists() or not any(out_dir.iterdir()))
    keep: dict[str, Any] = {}
    for relative in sorted({*units, *(f"{UNIT_DIR}/{uid}.yaml" for uid in previous)}):
        entry = entries.get(relative)
        recorded = entry.get("sha256") if isinstance(entry, dict) else None
        if recorded is None or file_sha256(out_dir / relative) in (None, recorded):
            continue  # not edited since the import (or never mapped): the sheet decides
        unit_id = relative[len(UNIT_DIR) + 1: -len(".yaml")]
        text = units.pop(relative, None)
        unchanged_in_sheet = text is not None and hashlib.sha256(text.encode("utf-8")).hexdigest() == recorded
        (plan.kept if unchanged_in_sheet else plan.conflicts).append(unit_id)
        keep[relative] = entry
    files.update(units)
    files[IMPORT_MAP] = import_map(result, files, keep)  # the project's files first, then the units
    _check_targets(out_dir, files)
    plan.stale = {f"{UNIT_DIR}/{uid}.yaml" for uid in previous} - set(files) - set(keep)
    if SKIPPED_FILE not in files and (out_dir / SKIPPED_FILE).is_file():
        plan.stale.add(SKIPPED_FILE)  # an earlier import's list; nothing is skipped now
    # A re-import stages only the files that change: replacing (or deleting) a file costs far more than
    # reading it, and an unchanged unit file is best left alone.
    plan.changed = files if plan.new_project else {
        rel: text for rel, text in files.items() if not _holds(out_dir / rel, text)}
    for relative in plan.changed:
        if relative.startswith(f"{UNIT_DIR}/"):
            unit_id = relative[len(UNIT_DIR) + 1: -len(".yaml")]
            (plan.updated if (out_dir / relative).exists() else plan.added).append(unit_id)
    plan.removed = sorted(rel[len(UNIT_DIR) + 1: -len(".yaml")] for rel in plan.stale if rel.startswith(UNIT_DIR))
    return plan


def apply_plan(plan: ImportPlan) -> ImportPlan:
    """Write a planned import: into a hidden sibling folder, flushed to disk once, then moved into place
    (a new project with one rename; an earlier import receives its changed files by renames only). So a
    failed write leaves the previous project as it was."""
    out_dir = plan.out_dir
    staging = _stage(out_dir, plan.changed)
    try:
        if plan.new_project:
            if out_dir.exists():
                out_dir.rmdir()
            os.replace(staging, out_dir)
        else:
            _move_into(staging, out_dir, plan.changed, plan.stale)
    except OSError as exc:
        raise DuelkitError(f"cannot write into '{out_dir}': {exc.strerror or exc} ({exc.filename}); "
                           "the folder is marked as an import, so importing again into it is safe") from None
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return plan


def _map_entries(out_dir: Path) -> dict[str, Any]:
    document = read_import_map(out_dir) if out_dir.is_dir() else None
    units = document.get("units") if document else None
    return units if isinstance(units, dict) else {}


def _holds(path: Path, text: str) -> bool:
    try:
        return path.read_bytes() == text.encode("utf-8")
    except OSError:
        return False


def _check_targets(out_dir: Path, files: dict[str, str]) -> None:
    """Every file we will replace is a plain file: a folder or link in its place stops the import now."""
    for relative in files:
        target = out_dir / relative
        if target.is_symlink() or (target.exists() and not target.is_file()):
            raise DuelkitError(f"'{target}' is in the way (a folder, link or special file); move it and "
                               "import again; nothing was written")


def _stage(out_dir: Path, files: dict[str, str]) -> Path:
    """The whole import, written beside `out_dir` (same file system, so it can be renamed into place)."""
    try:
        out_dir.parent.mkdir(parents=True, exist_ok=True)
        staging = out_dir.parent / f".{out_dir.name}.import-{os.getpid()}-{secrets.token_hex(4)}"
        staging.mkdir()  # default permissions (unlike mkdtemp's 0700): it may become the project folder
    except OSError as exc:
        raise DuelkitError(f"cannot write beside '{out_dir}': {exc.strerror or exc}; nothing was written") from None
    try:
        (staging / UNIT_DIR).mkdir()
        for relative, text in files.items():
            with open(staging / relative, "w", encoding="utf-8", newline="\n") as handle:
                handle.write(text)
        if hasattr(os, "sync"):
            os.sync()  # once for the whole project, not once per file (that took minutes for 20,000 units)
    except OSError as exc:
        shutil.rmtree(staging, ignore_errors=True)
        raise DuelkitError(f"cannot write the import: {exc.strerror or exc}; '{out_dir}' was not changed") from None
    return staging


def _move_into(staging: Path, out_dir: Path, changed: dict[str, str], stale: set[str]) -> None:
    """Re-import: rename each changed file over the old one, then delete the imported files (units, the
    skipped list) that this import no longer has."""
    (out_dir / UNIT_DIR).mkdir(exist_ok=True)
    for relative in changed:
        os.replace(staging / relative, out_dir / relative)
    for relative in sorted(stale):
        (out_dir / relative).unlink(missing_ok=True)


def _check_units(units: list[dict[str, Any]]) -> None:
    """Ids become file names: each must be a slug (so it cannot leave the folder) and unique."""
    seen: set[str] = set()
    for unit in units:
        unit_id = unit.get("id")
        if not isinstance(unit_id, str) or not _SLUG_RE.match(unit_id) or len(unit_id) > 64:
            raise DuelkitError(f"unit id {unit_id!r} is not a slug (a-z, 0-9 and '-'); nothing was written")
        if unit_id in seen:
            raise DuelkitError(f"unit id '{unit_id}' appears twice; nothing was written")
        seen.add(unit_id)


def _check_out_dir(out_dir: Path) -> None:
    if out_dir.exists() and not out_dir.is_dir():
        raise DuelkitError(f"'{out_dir}' exists and is not a folder")
    unit_dir = out_dir / UNIT_DIR
    if unit_dir.is_symlink() or (unit_dir.exists() and not unit_dir.is_dir()):
        raise DuelkitError(f"'{unit_dir}' is not a plain folder; import into a new folder")
    if not out_dir.exists() or not any(out_dir.iterdir()):
        return
    if _starts_with(out_dir / PROJECT_FILE, PROJECT_MARKER):
        return
    raise DuelkitError(
        f"'{out_dir}' is not empty and is not an earlier `duelkit import`; import into a new or empty "
        "folder (an earlier import is replaced; a hand-made project is never overwritten)")


def _starts_with(path: Path, marker: str) -> bool:
    if path.is_symlink() or not path.is_file():
        return False
    try:
        with path.open(encoding="utf-8", errors="replace") as handle:
            return handle.readline().startswith(marker)
    except OSError:
        return False


def _previous_imports(unit_dir: Path) -> set[str]:
    """Ids of unit files an earlier import wrote (top level of unit_data/ only; squads are not ours)."""
    if not unit_dir.is_dir():
        return set()
    return {path.stem for path in unit_dir.glob("*.yaml")
            if _SLUG_RE.match(path.stem) and _starts_with(path, UNIT_MARKER)}


def import_map(result: ImportResult, files: dict[str, str], keep: dict[str, Any] | None = None) -> str:
    """`import-map.json`: per unit file, its sha256 and [yaml line, yaml column, sheet line, header] entries
    sorted by position (a problem belongs to the last entry at or before it). `keep`: the earlier entries
    of files edited by hand, kept as they were (so they stay recognised as edited)."""
    units: dict[str, Any] = dict(keep or {})
    for unit in result.units:
        relative = f"{UNIT_DIR}/{unit['id']}.yaml"
        if relative not in files:
            continue
        text = files[relative]
        figure, segments = result.cells.get(unit["id"], ({}, []))
        units[relative] = {"sha256": hashlib.sha256(text.encode("utf-8")).hexdigest(),
                           "cells": _line_cells(text, figure, segments)}
    document = {"sheet": _one_line(result.source), "units": units}
    return json.dumps(document, ensure_ascii=False, sort_keys=True, separators=(",", ":")) + "\n"


def _line_cells(text: str, figure: CellMap, segments: list[CellMap]) -> list[tuple[int, int, int, str]]:
    """Positions of the unit's keys in its YAML text (as composed by the YAML parser, so quoting or
    folded long text cannot shift them), each with the sheet cell its value came from."""
    root = yaml.compose(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    entries: list[tuple[int, int, int, str]] = []

    def add(node: yaml.Node, source: tuple[int, str] | None) -> None:
        if source is not None:
            entries.append((node.start_mark.line + 1, node.start_mark.column + 1, *source))

    if not isinstance(root, yaml.MappingNode):
        return entries
    for key, value in root.value:
        add(key, figure.get(key.value))
        if key.value == "disk" and isinstance(value, yaml.SequenceNode):
            for item, segment in zip(value.value, segments, strict=False):
                add(item, segment.get(""))
                if isinstance(item, yaml.MappingNode):
                    for segment_key, _ in item.value:
                        add(segment_key, segment.get(segment_key.value, segment.get("")))
    return sorted(entries)


def skipped_csv(result: ImportResult) -> str:
    """`skipped.csv`: one row per cell that kept a figure out (figure, sheet line, column, value, reason)."""
    rows: list[tuple[object, ...]] = [SKIPPED_HEADER]
    rows += [(figure.name, issue.line, issue.column, issue.value, issue.reason)
             for figure in result.skipped for issue in figure.rows]
    return csv_text(rows)


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _project_text(result: ImportResult, theme: str) -> str:
    source = _one_line(result.source) or "a CSV file"
    name = f"Imported from {source}"[:120]
    header = f"{PROJECT_MARKER} from {source}. Importing again into this folder replaces the imported units.\n"
    return header + yaml.safe_dump({"theme": theme, "name": name}, sort_keys=False, allow_unicode=True)


def _unit_text(unit: dict[str, Any], result: ImportResult) -> str:
    first, last = result.lines.get(unit["id"], (0, 0))
    where = f", lines {first}-{last}" if first else ""
    header = f"{UNIT_MARKER} from {_one_line(result.source) or 'a CSV file'}{where}.\n"
    return header + dump_unit(unit)


class _Flow(dict):
    """A mapping dumped on one line, like the hand-written unit files (`- {move: ..., color: ...}`)."""


class _FlowList(list):
    """A short list dumped on one line (`types: [steel, dragon]`)."""


# libyaml's emitter (shipped in PyYAML's wheels) is about 10x faster: 20,000 units in 2 s instead of 40.
# Both emitters write the same bytes except that libyaml escapes characters beyond U+FFFF ("\U0001F600");
# the data read back is identical either way.
class _UnitDumper(getattr(yaml, "CSafeDumper", yaml.SafeDumper)):  # type: ignore[misc]
    pass


_UnitDumper.add_representer(
    _Flow, lambda dumper, data: dumper.represent_mapping("tag:yaml.org,2002:map", list(data.items()), True))
_UnitDumper.add_representer(
    _FlowList, lambda dumper, data: dumper.represent_sequence("tag:yaml.org,2002:seq", data, True))


def dump_unit(unit: dict[str, Any]) -> str:
    """YAML for one unit: block keys, one flow-style line per segment, no line wrapping."""
    shaped = dict(unit)
    if "types" in shaped:
        shaped["types"] = _FlowList(shaped["types"])
    shaped["disk"] = [_Flow(segment) for segment in shaped.get("disk", [])]
    return yaml.dump(shaped, Dumper=_UnitDumper, sort_keys=False, allow_unicode=True, width=1_000_000)
