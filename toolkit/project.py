"""The designer's project: finding the one a command stands in (as git finds its repository), and
starting a new one with `duelkit new`."""

from __future__ import annotations

import json
import os
import secrets
import shutil
import unicodedata
from pathlib import Path

from toolkit.errors import DuelkitError, UsageError
from toolkit.fields import MAX_SHORT_TEXT
from toolkit.loading import PROJECT_FILE
from toolkit.paths import bundled_root, file_in_the_way
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


def create_project(target: Path, theme_id: str, *, from_bundled: bool = False) -> Path:
    """Start a project: the game's small commented starter (a few units, a squad, modules and a README),
    or with `from_bundled` a copy of its whole bundled database. Built beside the target, then renamed,
    so a failure never leaves a half-made project. A folder that cannot be made (read-only, a name too
    long) is a DuelkitError naming it."""
    try:
        return _create_project(target, theme_id, from_bundled=from_bundled)
    except OSError as exc:
        raise DuelkitError(f"cannot create the project '{target}': {exc.strerror or exc}") from None


def _create_project(target: Path, theme_id: str, *, from_bundled: bool) -> Path:
    from toolkit.output import sync_folder, write_file  # here: finding a project must not load the renderer

    if theme_id not in project_themes():
        raise UsageError(f"unknown theme '{theme_id}'; choose one of: {', '.join(project_themes())}")
    if target.is_symlink():
        raise UsageError(f"'{target}' is a symbolic link; choose a new folder")
    if target.exists() and (not target.is_dir() or any(target.iterdir())):
        raise UsageError(f"'{target}' already exists and is not empty; choose a new folder")
    parent = target.resolve().parent
    blocker = file_in_the_way(parent)
    if blocker is not None:
        raise UsageError(f"cannot create the project '{target}': '{blocker}' is a file, not a folder")
    if not parent.is_dir():
        raise UsageError(f"folder '{parent}' does not exist")
    game = find_game(theme_id)
    name = starter_name(target.resolve().name)
    # mkdir (not mkdtemp, which makes 0700) so the project gets the designer's usual permissions (umask).
    staging = parent / f".duelkit-new-{secrets.token_hex(6)}"
    staging.mkdir()
    try:
        for folder in PROJECT_FOLDERS:
            (staging / folder).mkdir()
        starter = None if from_bundled else game.starter()
        if starter is None:
            for source, destination in game.project_folders():
                _copy_tree(bundled_root() / source, staging / destination)
        else:
            _copy_starter(starter, staging, {"{name}": name, "{game}": game.title, "{theme}": theme_id})
        write_file(staging / PROJECT_FILE, (
            "# duelkit project file: duelkit finds it from this folder or any folder inside it.\n"
            f"theme: {theme_id}    # the game and its words: {', '.join(project_themes())}\n"
            f"name: {json.dumps(name, ensure_ascii=False)}    # your game's name\n").encode())
        write_file(staging / ".gitignore", b"output/\n")
        for folder, _, _ in os.walk(staging):
            sync_folder(Path(folder))
        if target.exists():
            target.rmdir()
        staging.rename(target)
        sync_folder(parent)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    return target


def starter_name(folder: str) -> str:
    """The game's name a new project starts with: its folder's name, as `duelkit validate` accepts a name
    (no control, format or line-separator characters, at most 120 characters), or "My game" when nothing
    printable is left."""
    kept = "".join(" " if ch.isspace() else ch for ch in folder if ch.isspace() or unicodedata.category(ch)
                   not in _UNPRINTED)
    return " ".join(kept.split())[:MAX_SHORT_TEXT].strip() or "My game"


_UNPRINTED = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})


def _copy_tree(source: Path, destination: Path) -> None:
    if source.is_dir():
        shutil.copytree(source, destination, dirs_exist_ok=True, copy_function=_copy_file)


def _copy_file(source: str, destination: str) -> None:
    """A bundled file into the new project, written as every duelkit file is (`output.write_file`)."""
    from toolkit.output import write_file

    write_file(Path(destination), Path(source).read_bytes())


def _copy_starter(starter: Path, destination: Path, words: dict[str, str]) -> None:
    """The starter's files; its README names the project and its game."""
    _copy_tree(starter, destination)
    readme = destination / "README.md"
    if readme.is_file():
        text = readme.read_text(encoding="utf-8")
        for placeholder, word in words.items():
            text = text.replace(placeholder, word)
        from toolkit.output import replace_file

        replace_file(readme, text.encode("utf-8"))
