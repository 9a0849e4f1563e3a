"""Writing a kit to disk: rendered in memory, written to a staging folder, then swapped in.

A build never deletes what it did not make. Every folder duelkit writes carries a mark file
(`.duelkit-output`: a format line, then the names of the files duelkit wrote there); an existing
folder is replaced only when it carries the mark and holds nothing else, or is empty. Anything else,
and any symbolic link where a kit folder belongs, is refused with a message. File names come from
slugs checked here, so nothing can leave the output folder.
"""

from __future__ import annotations

import os
import re
import shutil
import stat
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path

from toolkit.kit.component import Component
from toolkit.problems import DuelkitError
from toolkit.render.pdf import render_pdf
from toolkit.render.scene import Document
from toolkit.render.svg import render_svg

_SAFE_NAME = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
KIT_FILE = "kit.pdf"
MARK_FILE = ".duelkit-output"
MARK_FORMAT = "duelkit output folder, format 1"
_MARK_NOTE = "# written by duelkit; it replaces this folder only while it holds just the files below"
_MARK_LIMIT = 1024 * 1024


class OutputRefused(DuelkitError):
    """The output location holds something duelkit did not make: nothing was written or deleted."""


def safe_name(slug: str) -> str:
    if not _SAFE_NAME.match(slug):
        raise DuelkitError(f"refusing to write a file named '{slug}': names must be lowercase slugs")
    return slug


def kit_files(components: Sequence[Component], title: str, svg: bool,
              on_render: Callable[[str], None] | None = None) -> dict[str, bytes]:
    """Every output file's name and bytes: one PDF per component, kit.pdf, and SVG pieces on request."""
    files: dict[str, bytes] = {}
    for component in components:
        name = safe_name(component.name)
        files[f"{name}.pdf"] = render_pdf(Document(f"{title}: {component.title}", component.pages))
        if on_render:
            on_render(name)
        if svg:
            for slug, page in component.pieces:
                files[f"{safe_name(slug)}.svg"] = render_svg(page, slug).encode("utf-8")
    all_pages = [page for component in components for page in component.pages]
    files[KIT_FILE] = render_pdf(Document(f"{title}: print-and-play kit", all_pages))
    if on_render:
        on_render("kit")
    return files


def mark_text(names: Sequence[str]) -> str:
    """The mark file: the format line, a note for people, then every file duelkit wrote beside it."""
    return "\n".join([MARK_FORMAT, _MARK_NOTE, *sorted(names)]) + "\n"


def written_by_duelkit(folder: Path) -> set[str] | None:
    """The file names the mark of `folder` lists, or None when it carries no readable mark."""
    mark = folder / MARK_FILE
    try:
        info = os.lstat(mark)
        if not stat.S_ISREG(info.st_mode) or info.st_size > _MARK_LIMIT:
            return None
        lines = mark.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return None
    if not lines or lines[0] != MARK_FORMAT:
        return None
    return {line for line in lines[1:] if line and not line.startswith("#")}


def foreign_entries(folder: Path) -> list[str] | None:
    """What in `folder` duelkit did not write: None when it carries no mark (and is not empty)."""
    entries = sorted(os.listdir(folder))
    if not entries:
        return []
    listed = written_by_duelkit(folder)
    if listed is None:
        return None
    foreign = []
    for name in entries:
        if name == MARK_FILE:
            continue
        if name not in listed or not stat.S_ISREG(os.lstat(folder / name).st_mode):
            foreign.append(name)
    return foreign


def check_replaceable(target: Path) -> None:
    """Refuse, before anything is written, to replace what duelkit did not make."""
    try:
        info = os.lstat(target)
    except FileNotFoundError:
        return
    if stat.S_ISLNK(info.st_mode):
        raise OutputRefused(f"'{target}' is a symbolic link; duelkit writes a kit only into a real folder "
                            "it made. Remove the link or choose another --out")
    if not stat.S_ISDIR(info.st_mode):
        raise OutputRefused(f"'{target}' exists and is not a folder; choose another --out")
    foreign = foreign_entries(target)
    if foreign is None:
        raise OutputRefused(
            f"'{target}' already exists and duelkit did not write it (it has no {MARK_FILE} file), so it "
            "will not be replaced. Choose another --out, or move that folder away")
    if foreign:
        shown = ", ".join(foreign[:5]) + (f" and {len(foreign) - 5} more" if len(foreign) > 5 else "")
        raise OutputRefused(f"'{target}' holds files duelkit did not write ({shown}); move them out of "
                            "the folder, then run duelkit again")


def check_inside(folder: Path, project: Path) -> None:
    """A default output folder must stay inside the project: a shipped link (`output -> ..`) is refused."""
    real, home = folder.resolve(), project.resolve()
    if real != home and home not in real.parents:
        raise OutputRefused(f"'{folder}' leads outside '{project}' through a symbolic link; duelkit does "
                            "not write there. Remove the link or choose a folder with --out")


def replace_folder(target: Path, files: dict[str, bytes], project: Path | None = None) -> None:
    """Write `files` into a fresh folder beside `target`, then swap it in for `target`."""
    safe_name(target.name)
    if project is not None:
        check_inside(target.parent, project)
    try:
        _replace_folder(target, files)
    except OSError as exc:
        raise DuelkitError(f"cannot write {target}: {exc.strerror or exc}") from None


def _replace_folder(target: Path, files: dict[str, bytes]) -> None:
    parent = target.parent
    parent.mkdir(parents=True, exist_ok=True)
    check_replaceable(target)
    staging = Path(tempfile.mkdtemp(prefix=f".{target.name}.new-", dir=parent))
    retired: Path | None = None
    try:
        (staging / MARK_FILE).write_text(mark_text(list(files)), encoding="utf-8")
        os.chmod(staging / MARK_FILE, 0o644)
        for name, data in sorted(files.items()):
            path = staging / name
            if path.parent != staging or name == MARK_FILE:
                raise DuelkitError(f"refusing to write '{name}' outside the output folder")
            path.write_bytes(data)
            os.chmod(path, 0o644)
        os.chmod(staging, 0o755)
        if target.exists():
            retired = Path(tempfile.mkdtemp(prefix=f".{target.name}.old-", dir=parent))
            os.rmdir(retired)
            target.rename(retired)
        staging.rename(target)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        if retired is not None and retired.exists() and not target.exists():
            retired.rename(target)
        raise
    if retired is not None:
        shutil.rmtree(retired, ignore_errors=True)
