"""Loading helpers every game shares: find YAML files, split them into definitions, validate each
against its schema, index by id, and read the project file. Problems are collected, never raised."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import AbstractContextManager
from contextvars import ContextVar
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Generic, Protocol, TypeVar

from pydantic import BaseModel

from toolkit.fields import ProjectFile
from toolkit.problems import Problem
from toolkit.rebuild_memo import RebuildMemo, in_effect
from toolkit.safe_fs import FileProblem, display_path, project_file, scan_yaml
from toolkit.schema import locate, validate_model
from toolkit.yamlsource import LocatedDict, LocatedList, Pos, SourceFile, load_yaml_file

PROJECT_FILE = "duelkit.yaml"

T = TypeVar("T", bound=BaseModel)
V = TypeVar("V")  # what Located holds: a validated definition


class HasId(Protocol):
    @property
    def id(self) -> str: ...


D = TypeVar("D", bound=HasId)  # a definition with an id: a unit, a module, a squad, a technique


@dataclass(frozen=True)
class Located(Generic[V]):
    """A validated definition and where it was written."""

    value: V
    source: SourceFile
    data: LocatedDict
    where: tuple  # path of `data` inside its file, e.g. ("units", 2)

    def pos(self, *loc: Any, key: bool = False) -> Pos | None:
        return locate(self.data, loc, key=key)


def yaml_files(folder: Path, *, skip_dir: str | None = None, root: Path | None = None,
               problems: list[Problem] | None = None) -> list[Path]:
    """YAML files under `folder` in sorted order (reproducible output depends on it), read as part of the
    project `root` (default: `folder` itself); what cannot be read is added to `problems`."""
    files, found = scan_yaml(folder, root or folder, skip_dir=skip_dir)
    if problems is not None:
        problems.extend(found)
    return files


def documents(loaded_data: Any, source: SourceFile, plural: str, problems: list[Problem]) -> Iterator[
        tuple[LocatedDict, tuple]]:
    """Yield each definition in a file: the file itself, or each item of its `plural:` list."""
    if isinstance(loaded_data, LocatedList):
        problems.append(source.problem(
            "S005", loaded_data.pos, "the file is a list, but a definition (a mapping) belongs here",
            hint=f"write `{plural}:` on the first line and indent the list under it",
            expected="a mapping", found="a list"))
        return
    if not isinstance(loaded_data, LocatedDict):
        problems.append(source.problem(
            "S005", None, f"the file holds {type(loaded_data).__name__}, not a definition",
            hint="a definition is a set of `key: value` lines", expected="a mapping"))
        return
    if plural not in loaded_data:
        yield loaded_data, ()
        return
    for key in sorted(set(loaded_data) - {plural}):
        problems.append(source.problem(
            "S001", loaded_data.key_pos[key], f"unknown key '{key}' beside `{plural}:`",
            hint=f"a file with `{plural}:` holds only that list"))
    items = loaded_data[plural]
    if not isinstance(items, LocatedList):
        problems.append(source.problem(
            "S003", loaded_data.value_pos[plural], f"`{plural}:` must be a list", expected="a list",
            hint="start each item with '- '"))
        return
    for index, item in enumerate(items):
        if isinstance(item, LocatedDict):
            yield item, (plural, index)
        else:
            problems.append(source.problem(
                "S005", items.item_pos[index], f"item {index + 1} of `{plural}:` is not a definition",
                expected="a mapping", found=type(item).__name__))


@dataclass(frozen=True)
class Rejected:
    """A definition that failed its schema; kept so independent checks can still run on parts of it."""

    source: SourceFile
    data: LocatedDict
    where: tuple


def load_kind(files: list[Path], model: type[T], plural: str, problems: list[Problem],
               rejected: list[Rejected] | None = None, broken: set[str] | None = None) -> list[Located[T]]:
    """Every valid definition in `files`. `broken` collects the ids that exist but failed to load (a
    definition that failed its schema, or a file that is not YAML, by its file name), so a reference to
    one is not also called unknown: its own problem is the one to fix."""
    entries: list[Located[T]] = []
    for path in files:
        loaded = load_yaml_file(path, display_path(path))
        problems.extend(loaded.problems)
        if loaded.data is None:
            if broken is not None:
                broken.add(path.stem)
            continue
        for data, where in documents(loaded.data, loaded.source, plural, problems):
            value, found = _validated(model, data, loaded.source, where)
            problems.extend(found)
            if value is not None:
                entries.append(Located(value, loaded.source, data, where))
                continue
            if rejected is not None:
                rejected.append(Rejected(loaded.source, data, where))
            if broken is not None and isinstance(data.get("id"), str):
                broken.add(data["id"])
    return entries


class CheckMemo(RebuildMemo[Any]):
    """Schema checks of one `duelkit watch`, by definition: a definition parsed once (the parse cache hands
    the same data back while its file's bytes are unchanged) is checked once. The check reads nothing but
    the definition, so its result stands as long as that does."""


_CHECKS: ContextVar[CheckMemo | None] = ContextVar("duelkit_check_memo", default=None)


def checking_with(memo: CheckMemo) -> AbstractContextManager[CheckMemo]:
    """Definitions checked inside this block are looked up in `memo` first."""
    return in_effect(_CHECKS, memo)


def _validated(model: type[T], data: LocatedDict, source: SourceFile, where: tuple) -> tuple[T | None, list[Problem]]:
    memo = _CHECKS.get()
    if memo is None:
        return validate_model(model, data, source, where)
    # keyed by identity: the memo holds `data`, so its id is not reused meanwhile
    held, value, found = memo.get((model, id(data), id(source), where),
                                  lambda: (data, *validate_model(model, data, source, where)))
    if held is not data:
        value, found = validate_model(model, data, source, where)
    return value, list(found)


def index_by_id(entries: list[Located[D]], kind: str, problems: list[Problem]) -> dict[str, Located[D]]:
    """By id; a repeated id is reported at the later definition and names the first."""
    result: dict[str, Located[D]] = {}
    for entry in entries:
        key = entry.value.id
        if key in result:
            first = result[key]
            first_pos = first.pos("id")
            problems.append(entry.source.problem(
                "X001", entry.pos("id"),
                f"{kind} id '{key}' is already used in {first.source.display}:{first_pos.line if first_pos else 0}",
                hint="ids must be unique across the whole database; rename one of them"))
            continue
        result[key] = entry
    return dict(sorted(result.items()))


@dataclass(frozen=True)
class Project:
    """A designer's `duelkit.yaml`: the game it names, its settings, and where each is written (for messages)."""

    game_id: str
    source: SourceFile
    data: LocatedDict
    settings: ProjectFile
    root: Path

    def problem_at_game(self, code: str, message: str, **details: Any) -> Problem:
        return self.source.problem(code, locate(self.data, ("theme",)), message, **details)

    def resolve(self, loc: tuple[str | int, ...], relative: str) -> tuple[Path | None, Problem | None]:
        """The project's file that `relative` (written at `loc` of duelkit.yaml) names, or the problem
        located at that value: a path outside the project (F004) or a missing file (F003)."""
        try:
            return project_file(self.root, relative), None
        except FileProblem as exc:
            return None, self.source.problem(exc.code, locate(self.data, loc), exc.message, hint=exc.hint)

    def path(self, *loc: str | int) -> Path | None:
        """The file named at `loc` (e.g. "board"), when it is written and inside the project."""
        written = dict(self.settings.paths()).get(loc)
        return self.resolve(loc, written)[0] if written else None


def read_project(root: Path) -> tuple[Project | None, list[Problem]]:
    """The project file of `root`, if it has one that reads and validates."""
    path = root / PROJECT_FILE
    loaded = load_yaml_file(path, display_path(path), root)
    if loaded.problems and loaded.data is None:
        return None, loaded.problems
    project, problems = validate_model(ProjectFile, loaded.data, loaded.source)
    problems = loaded.problems + problems
    if project is None or not isinstance(loaded.data, LocatedDict):
        return None, problems
    found = Project(project.theme, loaded.source, loaded.data, project, root)
    for loc, relative in project.paths():
        problem = found.resolve(loc, relative)[1]
        if problem is not None:
            problems.append(problem)
    return found, problems
