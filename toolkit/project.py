"""The designer's project: finding the one a command stands in (as git finds its repository), and
starting a new one with `duelkit new`."""

from __future__ import annotations

import os
import secrets
import shutil
from pathlib import Path

from toolkit.loading import PROJECT_FILE
from toolkit.paths import bundled_root
from toolkit.problems import UsageError
from toolkit.registry import find_game, game_ids

PROJECT_FOLDERS = ("unit_data", "modules", "techniques", "templates", "output")


def find_project(start: Path) -> Path | None:
    """The nearest folder, `start` or one of its parents, holding a `duelkit.yaml`; None outside any project.

    Like git's search for `.git`: a designer may stand anywhere in the project (in `unit_data/`, say) and
    every command still means this project. A `duelkit.yaml` that is a link or not a plain file still
    marks the project, so its problem is reported rather than the bundled games quietly used instead.
    """
    folder = start.resolve()
    for candidate in (folder, *folder.parents):
        if os.path.lexists(candidate / PROJECT_FILE):
            return candidate
    return None


def project_themes() -> list[str]:
    """What `duelkit new` can start: every game of the registry."""
    return game_ids()


def create_project(target: Path, theme_id: str) -> Path:
    """Copy the theme's bundled database into a new folder. Built beside the target, then renamed,
    so a failure never leaves a half-made project."""
    if theme_id not in project_themes():
        raise UsageError(f"unknown theme '{theme_id}'; choose one of: {', '.join(project_themes())}")
    if target.is_symlink():
        raise UsageError(f"'{target}' is a symbolic link; choose a new folder")
    if target.exists() and (not target.is_dir() or any(target.iterdir())):
        raise UsageError(f"'{target}' already exists and is not empty; choose a new folder")
    parent = target.resolve().parent
    if not parent.is_dir():
        raise UsageError(f"folder '{parent}' does not exist")
    bundle = bundled_root()
    # mkdir (not mkdtemp, which makes 0700) so the project gets the designer's usual permissions (umask).
    staging = parent / f".duelkit-new-{secrets.token_hex(6)}"
    staging.mkdir()
    try:
        for folder in PROJECT_FOLDERS:
            (staging / folder).mkdir()
        for source, destination in find_game(theme_id).project_folders():
            _copy_tree(bundle / source, staging / destination)
        (staging / PROJECT_FILE).write_text(
            "# duelkit project: every unit under unit_data/ (or technique under techniques/) belongs to this.\n"
            f"theme: {theme_id}\nname: My {theme_id} prototype\n", encoding="utf-8")
        (staging / ".gitignore").write_text("output/\n", encoding="utf-8")
        if target.exists():
            target.rmdir()
        staging.rename(target)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    return target


def _copy_tree(source: Path, destination: Path) -> None:
    if source.is_dir():
        shutil.copytree(source, destination, dirs_exist_ok=True)
