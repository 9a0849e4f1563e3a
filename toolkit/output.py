"""Writing a kit to disk: rendered in memory, written to a staging folder, then swapped in.

A failed build therefore leaves the previous output untouched, and no reader ever sees a
half-written file. File names come from slugs checked here, so nothing can leave the output folder.
"""

from __future__ import annotations

import os
import re
import shutil
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


def replace_folder(target: Path, files: dict[str, bytes]) -> None:
    """Write `files` into a fresh folder beside `target`, then swap it in for `target`."""
    safe_name(target.name)
    try:
        _replace_folder(target, files)
    except OSError as exc:
        raise DuelkitError(f"cannot write {target}: {exc.strerror or exc}") from None


def _replace_folder(target: Path, files: dict[str, bytes]) -> None:
    parent = target.parent
    parent.mkdir(parents=True, exist_ok=True)
    if target.exists() and not target.is_dir():
        raise DuelkitError(f"'{target}' exists and is not a folder; choose another --out")
    staging = Path(tempfile.mkdtemp(prefix=f".{target.name}.new-", dir=parent))
    retired: Path | None = None
    try:
        for name, data in sorted(files.items()):
            path = staging / name
            if path.parent != staging:
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
