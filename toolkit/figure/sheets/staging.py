"""Writing a planned import: all files staged in a hidden sibling folder, flushed to disk once, then moved
into place (a new project with one rename; an existing one receives its changed files by rename, and
loses the files the import deletes only after). A failed write leaves the previous project as it was.

Also `import-map.json`'s text: per data file, its hash as written, the hash of each sheet row that went
into it (so the next import can tell a hand edit from a sheet change), and, for a one-unit file, the sheet
cell of each YAML key (for validate's messages).
"""

from __future__ import annotations

import json
import os
import secrets
import shutil
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml

from toolkit.errors import DuelkitError
from toolkit.figure.sheets.result import CellMap

if TYPE_CHECKING:
    from toolkit.figure.sheets.project import ImportPlan


def apply_plan(plan: ImportPlan) -> ImportPlan:
    """Write a planned import: into a hidden sibling folder, flushed to disk once, then moved into place
    (a new project with one rename; an earlier import receives its changed files by renames only). So a
    failed write leaves the previous project as it was."""
    out_dir = plan.out_dir
    if not plan.changed and not plan.stale:
        return plan  # an unchanged sheet: not a byte is written
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
                           "the files not yet replaced are as they were; importing again is safe") from None
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return plan


def holds(path: Path, text: str) -> bool:
    try:
        return path.read_bytes() == text.encode("utf-8")
    except OSError:
        return False


def check_targets(out_dir: Path, files: dict[str, str]) -> None:
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
        from toolkit.output import write_new_files  # here: reading a sheet must not load the renderer

        # flushed once for the whole project, not once per file (that took minutes for 20,000 units)
        write_new_files(staging, {relative: text.encode("utf-8") for relative, text in files.items()})
    except OSError as exc:
        shutil.rmtree(staging, ignore_errors=True)
        raise DuelkitError(f"cannot write the import: {exc.strerror or exc}; '{out_dir}' was not changed") from None
    return staging


def _move_into(staging: Path, out_dir: Path, changed: dict[str, str], stale: set[str]) -> None:
    """Re-import: rename each changed file over the old one, then delete the imported files (units, the
    skipped list) that this import no longer has."""
    for relative in changed:
        (out_dir / relative).parent.mkdir(parents=True, exist_ok=True)
        os.replace(staging / relative, out_dir / relative)
    for relative in sorted(stale):
        (out_dir / relative).unlink(missing_ok=True)


def map_text(source: str, entries: dict[str, Any]) -> str:
    document = {"sheet": " ".join(source.split()), "units": entries}
    return json.dumps(document, ensure_ascii=False, sort_keys=True, separators=(",", ":")) + "\n"


def line_cells(text: str, figure: CellMap, segments: list[CellMap]) -> list[tuple[int, int, int, str]]:
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
