"""Where the bundled data and package resources live, both in a source checkout and after `pip install .`."""

from __future__ import annotations

import os
from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parent
DATA_DIR = PACKAGE_DIR / "data"
THEMES_DIR = DATA_DIR / "themes"
BOARDS_DIR = DATA_DIR / "boards"
STANDARD_BOARD_ID = "standard"
DEFAULT_BOARD = BOARDS_DIR / f"{STANDARD_BOARD_ID}.yaml"
STARTERS_DIR = DATA_DIR / "starters"  # the small commented projects `duelkit new` writes


def bundled_root() -> Path:
    """The folder holding unit_data/, modules/, techniques/ and templates/.

    A wheel carries them inside the package (`toolkit/_bundled`); a source checkout or an editable
    install finds them beside the package, at the top of the repository.
    """
    installed = PACKAGE_DIR / "_bundled"
    if (installed / "unit_data").is_dir():
        return installed
    return PACKAGE_DIR.parent


def file_in_the_way(path: Path) -> Path | None:
    """The nearest existing part of `path` (itself or a parent) when it is not a folder: what would make
    `mkdir -p path` fail with "Not a directory". None when every existing part is a folder."""
    for part in (path, *path.parents):
        if os.path.lexists(part):
            return None if part.is_dir() else part
    return None
