"""`duelkit new`: a one-theme starter project a designer can edit."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

from toolkit.figure.database import PROJECT_FILE, SWORD_GAME_ID
from toolkit.figure.theme import theme_ids
from toolkit.paths import bundled_root
from toolkit.problems import UsageError

PROJECT_FOLDERS = ("unit_data", "modules", "techniques", "templates", "output")


def project_themes() -> list[str]:
    """What `duelkit new` can start: each theme of the figure duel, and the sword duel."""
    return [*theme_ids(), SWORD_GAME_ID]


def create_project(target: Path, theme_id: str) -> Path:
    """Copy the theme's bundled database into a new folder. Built beside the target, then renamed,
    so a failure never leaves a half-made project."""
    if theme_id not in project_themes():
        raise UsageError(f"unknown theme '{theme_id}'; choose one of: {', '.join(project_themes())}")
    if target.exists() and (not target.is_dir() or any(target.iterdir())):
        raise UsageError(f"'{target}' already exists and is not empty; choose a new folder")
    parent = target.resolve().parent
    if not parent.is_dir():
        raise UsageError(f"folder '{parent}' does not exist")
    bundle = bundled_root()
    staging = Path(tempfile.mkdtemp(prefix=".duelkit-new-", dir=parent))
    try:
        for folder in PROJECT_FOLDERS:
            (staging / folder).mkdir()
        if theme_id == SWORD_GAME_ID:
            _copy_tree(bundle / "techniques", staging / "techniques")
        else:
            _copy_tree(bundle / "unit_data" / theme_id, staging / "unit_data")
            _copy_tree(bundle / "modules" / theme_id, staging / "modules")
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
