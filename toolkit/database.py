"""Load a data folder into a Database, collecting every problem with its file, line and column.

Two layouts are understood:
- a project made by `duelkit new`: `duelkit.yaml` names the theme; `unit_data/` (squads in
  `unit_data/squads/`) and `modules/` hold one database;
- the bundled layout: `unit_data/<theme>/` and `modules/<theme>/`, one database per theme.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Generic, TypeVar

from pydantic import BaseModel, TypeAdapter, ValidationError

from toolkit.figure.simulated import unsimulated_texts
from toolkit.model import Module, ProjectFile, Segment, Squad, Unit
from toolkit.paths import DEFAULT_BOARD, bundled_root
from toolkit.problems import Problem, Severity, UsageError
from toolkit.rules.board import Board, check_board
from toolkit.rules.disk import check_disk
from toolkit.rules.roster import squad_findings, upgrade_cycles
from toolkit.schema import locate, validate_model
from toolkit.theme import Theme, load_theme, theme_ids
from toolkit.yamlsource import LocatedDict, LocatedList, SourceFile, load_yaml_file

PROJECT_FILE = "duelkit.yaml"
SWORD_GAME_ID = "sword-duel"  # the card duel of spec 002: a game of its own, not a theme of the figure duel
YAML_SUFFIXES = (".yaml", ".yml")
SQUADS_DIR = "squads"

T = TypeVar("T", bound=BaseModel)


@dataclass(frozen=True)
class Located(Generic[T]):
    """A validated definition and where it was written."""

    value: T
    source: SourceFile
    data: LocatedDict
    where: tuple  # path of `data` inside its file, e.g. ("units", 2)

    def pos(self, *loc: Any, key: bool = False):
        return locate(self.data, loc, key=key)


@dataclass(frozen=True)
class DataSet:
    """Where one theme's database lives."""

    theme_id: str
    unit_dir: Path
    module_dir: Path


@dataclass
class Database:
    theme: Theme
    board: Board
    units: dict[str, Located[Unit]] = field(default_factory=dict)
    modules: dict[str, Located[Module]] = field(default_factory=dict)
    squads: dict[str, Located[Squad]] = field(default_factory=dict)
    problems: list[Problem] = field(default_factory=list)

    @property
    def has_errors(self) -> bool:
        return any(problem.is_error for problem in self.problems)

    def unit_defs(self) -> dict[str, Unit]:
        return {uid: entry.value for uid, entry in sorted(self.units.items())}


def display_path(path: Path) -> str:
    """Paths relative to the working directory when possible, so editors can open them."""
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


def find_datasets(data_dir: Path | None) -> tuple[list[DataSet], list[Problem]]:
    """The databases in a folder (bundled data when None). A wrong folder is a UsageError."""
    root = bundled_root() if data_dir is None else data_dir
    if not root.is_dir():
        raise UsageError(f"'{root}' is not a folder")
    project_file = root / PROJECT_FILE
    if project_file.is_file():
        return _project_dataset(root, project_file)
    themed = [tid for tid in theme_ids() if (root / "unit_data" / tid).is_dir()]
    if not themed and not any((root / "techniques").glob("*.y*ml")):
        raise UsageError(
            f"'{root}' is not a duelkit data folder: it has no {PROJECT_FILE} and no unit_data/<theme>/ "
            f"folders (themes: {', '.join(theme_ids())}); `duelkit new DIR` makes one")
    return [DataSet(tid, root / "unit_data" / tid, root / "modules" / tid) for tid in themed], []


def _project_dataset(root: Path, project_file: Path) -> tuple[list[DataSet], list[Problem]]:
    loaded = load_yaml_file(project_file, display_path(project_file))
    if loaded.problems and loaded.data is None:
        return [], loaded.problems
    project, problems = validate_model(ProjectFile, loaded.data, loaded.source)
    problems = loaded.problems + problems
    if project is None:
        return [], problems
    if project.theme == SWORD_GAME_ID:
        return [], problems  # a sword-duel project: its data is techniques/, loaded by toolkit.sword
    if project.theme not in theme_ids():
        known = [*theme_ids(), SWORD_GAME_ID]
        close = difflib.get_close_matches(project.theme, known, n=1)
        problems.append(loaded.source.problem(
            "P002", locate(loaded.data, ("theme",)), f"unknown theme '{project.theme}'",
            hint=f"did you mean '{close[0]}'?" if close else f"themes: {', '.join(known)}",
            expected=" or ".join(known), found=project.theme))
        return [], problems
    return [DataSet(project.theme, root / "unit_data", root / "modules")], problems


def yaml_files(folder: Path, *, skip_dir: str | None = None) -> list[Path]:
    """YAML files under `folder` in sorted order (reproducible output depends on it)."""
    if not folder.is_dir():
        return []
    files = [
        path for path in folder.rglob("*")
        if path.is_file() and path.suffix.lower() in YAML_SUFFIXES
        and not (skip_dir and skip_dir in path.relative_to(folder).parts[:-1])
    ]
    return sorted(files, key=lambda p: p.relative_to(folder).as_posix())


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
               rejected: list[Rejected] | None = None) -> list[Located[T]]:
    entries: list[Located[T]] = []
    for path in files:
        loaded = load_yaml_file(path, display_path(path))
        problems.extend(loaded.problems)
        if loaded.data is None:
            continue
        for data, where in documents(loaded.data, loaded.source, plural, problems):
            value, found = validate_model(model, data, loaded.source, where)
            problems.extend(found)
            if value is not None:
                entries.append(Located(value, loaded.source, data, where))
            elif rejected is not None:
                rejected.append(Rejected(loaded.source, data, where))
    return entries


def index_by_id(entries: list[Located[T]], kind: str, problems: list[Problem]) -> dict[str, Located[T]]:
    """By id; a repeated id is reported at the later definition and names the first."""
    result: dict[str, Located[T]] = {}
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


def load_board(path: Path = DEFAULT_BOARD) -> tuple[Board | None, list[Problem]]:
    """Load a board file and run every board check; failures are located at the node they name."""
    loaded = load_yaml_file(path, display_path(path))
    if loaded.data is None:
        return None, loaded.problems
    board, problems = validate_model(Board, loaded.data, loaded.source)
    problems = loaded.problems + problems
    if board is None:
        return None, problems
    for failure in check_board(board):
        pos = locate(loaded.data, ("nodes", failure.node), key=True) if failure.node else None
        problems.append(loaded.source.problem("B001", pos, failure.message, hint=failure.hint))
    return board, problems


def load_database(dataset: DataSet) -> Database:
    """Load and validate one theme's database. Problems are collected, never raised."""
    theme = load_theme(dataset.theme_id)
    board, problems = load_board()
    if board is None:
        raise UsageError("the bundled board is broken: " + "; ".join(p.message for p in problems))
    rejected: list[Rejected] = []
    units = load_kind(yaml_files(dataset.unit_dir, skip_dir=SQUADS_DIR), Unit, "units", problems, rejected)
    squads = load_kind(yaml_files(dataset.unit_dir / SQUADS_DIR), Squad, "squads", problems)
    modules = load_kind(yaml_files(dataset.module_dir), Module, "modules", problems)
    database = Database(theme, board, problems=problems)
    database.units = index_by_id(units, "unit", problems)
    database.modules = index_by_id(modules, "module", problems)
    database.squads = index_by_id(squads, "squad", problems)
    _check_units(database)
    _check_rejected_disks(database, rejected)
    _check_squads(database)
    database.problems = sorted(problems, key=Problem.sort_key)
    return database


def _disk_problems(db: Database, source: SourceFile, data: LocatedDict, label: str,
                   disk: tuple[Segment, ...]) -> list[Problem]:
    """Data Disk arithmetic and status references for one unit's disk."""
    found = []
    for finding in check_disk(disk):
        loc: tuple = ("disk",)
        if finding.segment is not None:
            loc = ("disk", finding.segment) + ((finding.field,) if finding.field else ())
        found.append(source.problem(
            finding.code, locate(data, loc, key=finding.field is not None or finding.segment is None),
            f"{label}: {finding.message}",
            hint=finding.hint, expected=finding.expected, found=finding.found,
            severity=Severity.WARNING if finding.warning else Severity.ERROR))
    statuses = db.theme.statuses
    for index, segment in enumerate(disk):
        if segment.inflicts and segment.inflicts not in statuses:
            close = difflib.get_close_matches(segment.inflicts, list(statuses), n=1)
            found.append(source.problem(
                "X007", locate(data, ("disk", index, "inflicts")),
                f"{label}: '{segment.inflicts}' is not a status of theme '{db.theme.id}'",
                hint=f"did you mean '{close[0]}'?" if close else "statuses: " + ", ".join(
                    f"{sid} ({name})" for sid, name in sorted(statuses.items())),
                expected=", ".join(sorted(statuses)), found=segment.inflicts))
    return found


_DISK = TypeAdapter(tuple[Segment, ...])


def _check_rejected_disks(db: Database, rejected: list[Rejected]) -> None:
    """A unit with a bad name still gets its Data Disk checked: every problem at once."""
    for item in rejected:
        try:
            disk = _DISK.validate_python(item.data.get("disk"))
        except ValidationError:
            continue  # the schema problems are already reported
        label = f"unit '{item.data.get('id')}'" if isinstance(item.data.get("id"), str) else "unit"
        db.problems.extend(_disk_problems(db, item.source, item.data, label, disk))


def _check_units(db: Database) -> None:
    for uid, entry in db.units.items():
        unit = entry.value
        db.problems.extend(_disk_problems(db, entry.source, entry.data, f"unit '{uid}'", unit.disk))
        for loc, what in unsimulated_texts(unit):
            db.problems.append(entry.source.problem(
                "N001", locate(entry.data, loc), f"unit '{uid}': {what} is not simulated by the game engine",
                hint="it is printed, but `duelkit play` and simulations ignore it; give it a structured "
                     "`board_effect:`/`inflicts:` (segments) or `effect:` (subroutines) where the vocabulary has one",
                severity=Severity.WARNING))
        if unit.upgrades_to is not None and unit.upgrades_to not in db.units:
            close = difflib.get_close_matches(unit.upgrades_to, list(db.units), n=1)
            db.problems.append(entry.source.problem(
                "X002", entry.pos("upgrades_to"), f"unit '{uid}' upgrades to unknown unit '{unit.upgrades_to}'",
                hint=f"did you mean '{close[0]}'?" if close else "add that unit or remove `upgrades_to`"))
    for cycle in upgrade_cycles(db.unit_defs()):
        entry = db.units[cycle[0]]
        db.problems.append(entry.source.problem(
            "X003", entry.pos("upgrades_to"), "upgrade chain loops: " + " -> ".join([*cycle, cycle[0]]),
            hint="an upgrade chain must end; remove one `upgrades_to`"))


def _check_squads(db: Database) -> None:
    unit_ids, module_ids = set(db.units), set(db.modules)
    for entry in db.squads.values():
        for finding in squad_findings(entry.value, unit_ids, module_ids):
            loc = (finding.field,) if finding.index is None else (finding.field, finding.index)
            db.problems.append(entry.source.problem(
                finding.code, entry.pos(*loc), finding.message, hint=_SQUAD_HINTS[finding.code]))


_SQUAD_HINTS = {
    "X004": "use an id from unit_data/", "X005": "use an id from modules/", "X006": "list exactly 6 unit ids",
    "X008": "each unit and module may appear once", "X009": "keep at most 6 modules",
}
