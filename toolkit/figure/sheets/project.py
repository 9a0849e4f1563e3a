"""An import planned against a project: what is added, updated, removed, kept or in conflict, and the text
of every file that changes. Nothing here writes (`staging.apply_plan` does).

The target is the project a designer stands in (any project of the same game), an empty or missing folder
(a new project), or an earlier import. Each item of the sheet (unit, squad, module) is matched by id with
the item of the project, and only the fields the sheet has columns for are taken from it (`native.merge`):
an item whose data comes out the same is not touched, so an unchanged export changes no file. Items of the
project missing from a table the sheet has are listed, and deleted only with `delete`. A file edited by
hand since the last import (its hash differs from the one in `import-map.json`) is never overwritten: if
the item's sheet rows did not change since that import, the edit is kept quietly; otherwise it is a
conflict, listed.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from toolkit.csvsafe import csv_text
from toolkit.errors import DuelkitError
from toolkit.fields import SLUG_PATTERN
from toolkit.figure.sheets.files import (
    KINDS,
    Folders,
    Index,
    dump_item,
    file_text,
    read_index,
)
from toolkit.figure.sheets.native import Patch, merge, merge_unit
from toolkit.figure.sheets.result import CellMap, ImportResult
from toolkit.figure.sheets.settings import PROJECT_FILE, Settings, project_text, read_settings
from toolkit.figure.sheets.sheet_map import IMPORT_MAP, read_import_map
from toolkit.figure.sheets.staging import apply_plan, check_targets, holds, line_cells, map_text
from toolkit.figure.sheets.values import slugify
from toolkit.figure.theme import theme_ids

UNIT_DIR = "unit_data"
MODULE_DIR = "modules"
SKIPPED_FILE = "skipped.csv"  # every cell that kept a figure out, one row each; absent when none was skipped
SKIPPED_HEADER = ("figure", "line", "column", "value", "reason")
# First lines of the files an import creates, saying where they came from.
UNIT_MARKER = "# Imported by duelkit"
_SLUG_RE = re.compile(SLUG_PATTERN)


@dataclass
class SheetData:
    """What a sheet says, per kind one patch per item (None: the sheet has no such table)."""

    source: str
    units: list[Patch] | None = None
    has_disk: bool = True  # the units table has segment columns
    squads: list[Patch] | None = None
    modules: list[Patch] | None = None
    settings: Settings | None = None
    skipped: ImportResult | None = None  # a foreign sheet: its figures left out, for skipped.csv
    cells: dict[str, tuple[CellMap, list[CellMap]]] = field(default_factory=dict)  # unit id -> sheet cells


@dataclass
class ImportPlan:
    """What an import does to its folder. Lists hold unit ids (squads and modules as 'squad ID')."""

    out_dir: Path
    changed: dict[str, str] = field(default_factory=dict)  # relative path -> new text
    stale: set[str] = field(default_factory=set)  # files to delete
    new_project: bool = False
    delete: bool = False
    added: list[str] = field(default_factory=list)
    updated: list[str] = field(default_factory=list)
    changes: dict[str, list[str]] = field(default_factory=dict)  # updated item -> 'field: old -> new' lines
    removed: list[str] = field(default_factory=list)  # not in the sheet (deleted only with `delete`)
    kept: list[str] = field(default_factory=list)  # edited by hand since the last import, same in the sheet
    conflicts: list[str] = field(default_factory=list)  # edited by hand and changed or removed in the sheet
    files_of: dict[str, str] = field(default_factory=dict)  # kept or conflicting item -> its file
    settings_changed: bool = False

    @property
    def paths(self) -> list[Path]:
        return [self.out_dir / relative for relative in self.changed]


def folders_of(out_dir: Path) -> Folders:
    return Folders(out_dir, out_dir / UNIT_DIR, out_dir / MODULE_DIR)


def plan_import(sheet: SheetData, out_dir: Path, theme: str, delete: bool = False) -> ImportPlan:
    """Check everything and decide what the import writes; nothing is written."""
    out_dir = Path(out_dir)
    if theme not in theme_ids():
        raise DuelkitError(f"unknown theme '{theme}'; themes: {', '.join(theme_ids())}")
    said = sheet.settings.theme if sheet.settings is not None else ""
    if said and said != theme:
        raise DuelkitError(f"the sheet holds a project of '{said[:40]}' (its project table says so), not of '{theme}'; "
                           "import it into a project of that game, or into a new folder")
    plan = ImportPlan(out_dir, new_project=_check_out_dir(out_dir, theme), delete=delete)
    folders = folders_of(out_dir)
    planner = _Planner(sheet, plan, Index(folders) if plan.new_project else read_index(folders),
                       _map_entries(out_dir))
    for kind in KINDS:
        patches: list[Patch] | None = getattr(sheet, kind)
        if patches is not None:
            planner.items(kind, patches)
    files = planner.texts()
    settings_text = project_text(out_dir, sheet.settings, sheet.source, theme, plan.new_project)
    if settings_text is not None:
        files[PROJECT_FILE] = settings_text
        plan.settings_changed = not plan.new_project
    _skipped(sheet, out_dir, files, plan)
    if files or plan.stale:
        files[IMPORT_MAP] = _import_map(sheet, planner, files)
    first = [name for name in (PROJECT_FILE, IMPORT_MAP, SKIPPED_FILE) if name in files]
    files = {**{name: files[name] for name in first}, **files}  # the project's own files first, then the data
    check_targets(out_dir, files)
    plan.changed = files if plan.new_project else {rel: text for rel, text in files.items()
                                                  if not holds(out_dir / rel, text)}
    return plan


@dataclass
class _Planner:
    """The items of one import matched against the project, file by file."""

    sheet: SheetData
    plan: ImportPlan
    index: Index
    entries: dict[str, Any]
    edits: dict[str, dict[int, dict[str, Any] | None]] = field(default_factory=dict)
    new_files: dict[str, str] = field(default_factory=dict)
    rows: dict[str, dict[str, str]] = field(default_factory=dict)  # file -> {kind:id: hash of its sheet rows}
    hand_edited: set[str] = field(default_factory=set)

    def items(self, kind: str, patches: list[Patch]) -> None:
        plan, index = self.plan, self.index
        seen: set[str] = set()
        for patch, item_id in zip(patches, _ids(patches, kind), strict=True):
            seen.add(item_id)
            found = index.where[kind].get(item_id)
            old = index.files[found[0]].items[found[1]] if found else None
            new = merge_unit(old, patch, self.sheet.has_disk) if kind == "units" else merge(old, patch.values)
            if old is None:
                new = {"id": item_id, **{k: v for k, v in new.items() if k != "id"}}
            relative = found[0] if found else self._new_path(kind, item_id)
            key = f"{kind}:{item_id}"
            self.rows.setdefault(relative, {})[key] = patch_hash(patch)
            if old is not None and new == old:
                continue
            label = _label(kind, item_id)
            if self._held(relative, key, self.rows[relative][key], label):
                continue
            if found:
                self.edits.setdefault(relative, {})[found[1]] = new
                plan.updated.append(label)
                plan.changes[label] = list(differences(old, new)) if old is not None else []
            else:
                self.new_files[relative] = _new_file_text(new, self.sheet.source, patch)
                plan.added.append(label)
        for item_id, (relative, position) in index.where[kind].items():
            if item_id in seen:
                continue
            label = _label(kind, item_id)
            if plan.delete and self._held(relative, f"{kind}:{item_id}", None, label):
                continue
            plan.removed.append(label)
            if plan.delete:
                self.edits.setdefault(relative, {})[position] = None

    def _new_path(self, kind: str, item_id: str) -> str:
        """`<id>.yaml` in the kind's folder, or `<id>-2.yaml`... when a file of that name holds other items (a
        folder or link in the way is refused later, by `check_targets`)."""
        name, number = f"{item_id}.yaml", 1
        while True:
            relative = self.index.folders.relative(kind, name)
            path = self.index.folders.root / relative
            if relative not in self.new_files and (path.is_symlink() or not path.is_file()):
                return relative
            number += 1
            name = f"{item_id}-{number}.yaml"

    def _held(self, relative: str, key: str, row_hash: str | None, label: str) -> bool:
        """Whether the file was edited by hand since the last import (then it is kept, or a conflict)."""
        state = _hand_edit(self.index, self.entries, relative, key, row_hash)
        if state:
            self.hand_edited.add(relative)
            self.plan.files_of[label] = relative
            (self.plan.kept if state == "kept" else self.plan.conflicts).append(label)
        return bool(state)

    def texts(self) -> dict[str, str]:
        """The new text of every data file that changes; files left without items become stale."""
        files = dict(self.new_files)
        for relative, changes in self.edits.items():
            data_file = self.index.files[relative]
            items = [changes.get(position, item) for position, item in enumerate(data_file.items)]
            kept_items = [item for item in items if item is not None]
            if kept_items:
                files[relative] = file_text(data_file.comments, data_file.plural, kept_items)
            else:
                self.plan.stale.add(relative)
        return files


def differences(old: Any, new: Any, path: str = "") -> Iterator[str]:
    """'disk.2.damage: 20 -> 40' for each value that differs (segments by their 1-based place)."""
    if isinstance(old, dict) and isinstance(new, dict):
        for key in [*old, *(key for key in new if key not in old)]:
            yield from differences(old.get(key), new.get(key), f"{path}.{key}" if path else str(key))
    elif (isinstance(old, list) and isinstance(new, list) and len(old) == len(new)
          and any(isinstance(item, dict) for item in (*old, *new))):
        for index, (before, after) in enumerate(zip(old, new, strict=True), start=1):
            yield from differences(before, after, f"{path}.{index}")
    elif old != new:
        def shown(value: Any) -> str:
            text = "(none)" if value is None else json.dumps(value, ensure_ascii=False)
            return text if len(text) <= 60 else text[:57] + "..."

        yield f"{path}: {shown(old)} -> {shown(new)}"


def _label(kind: str, item_id: str) -> str:
    return item_id if kind == "units" else f"{kind[:-1]} {item_id}"


def write_project(result: ImportResult, out_dir: Path, theme: str = "duel-protocol",
                  delete: bool = False) -> list[Path]:
    """A foreign sheet's units written into `out_dir`; the paths written."""
    from toolkit.figure.sheets.foreign import sheet_data

    return apply_plan(plan_import(sheet_data(result), out_dir, theme, delete)).paths


def patch_hash(patch: Patch) -> str:
    """A fingerprint of what the sheet says about one item (its cells, not their layout)."""
    def encode(values: dict[tuple[str, ...], Any]) -> list[Any]:
        return sorted([".".join(path), value] for path, value in values.items())

    text = json.dumps([encode(patch.values), [encode(segment) for segment in patch.segments]],
                      ensure_ascii=False, sort_keys=True, default=str)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _ids(patches: list[Patch], kind: str) -> list[str]:
    """Each item's id: its id cell, or for a new item without one, a slug of its name (numbered when
    taken). Ids become file names, so each must be a slug, and one sheet names each once."""
    given = {patch.id for patch in patches if patch.id}
    ids: list[str] = []
    seen: set[str] = set()
    for patch in patches:
        item_id = patch.id
        if not item_id:
            base = slugify(str(patch.values.get(("name",)) or ""))[:60].strip("-") or kind[:-1]
            item_id, number = base, 1
            while item_id in given or item_id in seen:
                number += 1
                item_id = f"{base}-{number}"
        if not _SLUG_RE.match(item_id) or len(item_id) > 64:
            raise DuelkitError(f"{kind[:-1]} id {item_id!r} (sheet line {patch.line}) is not a slug (a-z, 0-9 and "
                               "'-'); nothing was written")
        if item_id in seen:
            raise DuelkitError(f"{kind[:-1]} id '{item_id}' appears twice (again on sheet line {patch.line}); "
                               "nothing was written")
        seen.add(item_id)
        ids.append(item_id)
    return ids


def _hand_edit(index: Index, entries: dict[str, Any], relative: str, key: str, row_hash: str | None) -> str:
    """'' when the sheet decides; 'kept' or 'conflict' when the file was edited by hand since the last import
    (kept: the item's sheet rows are the same as at that import)."""
    entry = entries.get(relative)
    recorded = entry.get("sha256") if isinstance(entry, dict) else None
    data_file = index.files.get(relative)
    if recorded is None or data_file is None or data_file.sha256 == recorded:
        return ""
    rows = entry.get("rows") if isinstance(entry, dict) else None
    same = row_hash is not None and isinstance(rows, dict) and rows.get(key) == row_hash
    return "kept" if same else "conflict"


def _new_file_text(item: dict[str, Any], source: str, patch: Patch) -> str:
    first, last = patch.lines
    where = f", lines {first}-{last}" if first and last > first else f", line {first}" if first else ""
    return f"{UNIT_MARKER} from {_one_line(source) or 'a sheet'}{where}.\n" + dump_item(item)


def _import_map(sheet: SheetData, planner: _Planner, files: dict[str, str]) -> str:
    """Every file the sheet's items are in: its hash as it will be, its items' row hashes and (one unit per
    file) the sheet cell of each key. Files kept as edited by hand keep their earlier entry."""
    entries, index = planner.entries, planner.index
    result: dict[str, Any] = {rel: entry for rel, entry in entries.items() if rel not in planner.rows}
    for relative, items in sorted(planner.rows.items()):
        if relative in planner.plan.stale:
            continue
        if relative in planner.hand_edited:
            if relative in entries:
                result[relative] = entries[relative]
            continue
        text = files.get(relative)
        if text is None:
            data_file = index.files.get(relative)
            if data_file is None:
                continue
            text = data_file.text
        entry: dict[str, Any] = {"sha256": hashlib.sha256(text.encode("utf-8")).hexdigest(), "rows": items}
        unit_ids = [key.split(":", 1)[1] for key in items if key.startswith("units:")]
        if len(unit_ids) == 1 and unit_ids[0] in sheet.cells and len(items) == 1:
            figure, segments = sheet.cells[unit_ids[0]]
            with contextlib.suppress(yaml.YAMLError):
                entry["cells"] = line_cells(text, figure, segments)
        result[relative] = entry
    return map_text(sheet.source, result)


def _map_entries(out_dir: Path) -> dict[str, Any]:
    document = read_import_map(out_dir) if out_dir.is_dir() else None
    units = document.get("units") if document else None
    return units if isinstance(units, dict) else {}


def _check_out_dir(out_dir: Path, theme: str) -> bool:
    """True for a new project (a missing or empty folder); an existing project must be of `theme`."""
    if out_dir.exists() and not out_dir.is_dir():
        raise DuelkitError(f"'{out_dir}' exists and is not a folder")
    for sub in (UNIT_DIR, MODULE_DIR):
        folder = out_dir / sub
        if folder.is_symlink() or (folder.exists() and not folder.is_dir()):
            raise DuelkitError(f"'{folder}' is not a plain folder; import into a new folder")
    if not out_dir.exists() or not any(out_dir.iterdir()):
        return True
    settings = read_settings(out_dir)
    if settings is None:
        raise DuelkitError(f"'{out_dir}' is not empty and is not a duelkit project (no readable {PROJECT_FILE}); "
                           "import into a project, or into a new or empty folder")
    if settings.get("theme") != theme:
        raise DuelkitError(f"'{out_dir}' is a project of '{str(settings.get('theme'))[:40]}', not '{theme}'; "
                           "import into a project of the sheet's game, or into a new folder")
    return False


def _skipped(sheet: SheetData, out_dir: Path, files: dict[str, str], plan: ImportPlan) -> None:
    """skipped.csv: written when a foreign sheet left figures out, deleted when an import no longer does."""
    result = sheet.skipped
    if result is None:
        return
    if result.skipped:
        rows: list[tuple[object, ...]] = [SKIPPED_HEADER]
        rows += [(figure.name, issue.line, issue.column, issue.value, issue.reason)
                 for figure in result.skipped for issue in figure.rows]
        files[SKIPPED_FILE] = csv_text(rows)
    elif (out_dir / SKIPPED_FILE).is_file():
        plan.stale.add(SKIPPED_FILE)  # an earlier import's list; nothing is skipped now


def _one_line(text: str) -> str:
    return " ".join(text.split())
