"""Load a data folder into a Database, collecting every problem with its file, line and column.

Two layouts are understood:
- a project made by `duelkit new`: `duelkit.yaml` names the theme; `unit_data/` (squads in
  `unit_data/squads/`) and `modules/` hold one database;
- the bundled layout: `unit_data/<theme>/` and `modules/<theme>/`, one database per theme.
"""

from __future__ import annotations

import difflib
import os
import sys
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from pydantic import TypeAdapter, ValidationError

from toolkit.errors import UsageError
from toolkit.figure.model import Module, Segment, Squad, Unit
from toolkit.figure.project_theme import project_theme
from toolkit.figure.rules.board import Board, check_board
from toolkit.figure.rules.disk import check_disk
from toolkit.figure.rules.roster import squad_findings, upgrade_cycles
from toolkit.figure.simulated import unsimulated_texts
from toolkit.figure.theme import Theme, foreign_words, load_theme, named_statuses, theme_ids
from toolkit.loading import (
    PROJECT_FILE,
    Located,
    Project,
    Rejected,
    index_by_id,
    load_kind,
    read_project,
    yaml_files,
)
from toolkit.paths import DEFAULT_BOARD, bundled_root
from toolkit.pictures import Art, BackLook, read_back, read_entry_art
from toolkit.plain_check import plain_instance
from toolkit.problems import Problem, Severity
from toolkit.safe_fs import display_path
from toolkit.schema import locate, validate_model
from toolkit.yamlsource import LocatedDict, SourceFile, load_yaml_file

SQUADS_DIR = "squads"


@dataclass(frozen=True)
class DataSet:
    """Where one theme's database lives."""

    theme_id: str
    unit_dir: Path
    module_dir: Path
    root: Path | None = None  # the project: nothing outside it is read (None: the common parent)
    project_file: Project | None = None  # the project's duelkit.yaml: its name, words, board and card back

    @property
    def project(self) -> Path:
        return self.root or Path(os.path.commonpath([self.unit_dir, self.module_dir]))


@dataclass
class Database:
    theme: Theme
    board: Board
    units: dict[str, Located[Unit]] = field(default_factory=dict)
    modules: dict[str, Located[Module]] = field(default_factory=dict)
    squads: dict[str, Located[Squad]] = field(default_factory=dict)
    problems: list[Problem] = field(default_factory=list)
    # ids defined in files that failed to load (squads naming them are not told they are unknown)
    broken_units: set[str] = field(default_factory=set)
    broken_modules: set[str] = field(default_factory=set)
    # the designer's pictures, read and downsampled once: ("unit" | "module", id) -> picture
    art: dict[tuple[str, str], Art] = field(default_factory=dict)
    back: BackLook | None = None  # the project's card back (`back:` in duelkit.yaml)
    project_file: Project | None = None  # the project's duelkit.yaml (its printed words are checked for glyphs)

    @property
    def has_errors(self) -> bool:
        return any(problem.is_error for problem in self.problems)

    def unit_defs(self) -> dict[str, Unit]:
        return {uid: entry.value for uid, entry in sorted(self.units.items())}


def project_dataset(root: Path, theme_id: str) -> DataSet:
    """A project made by `duelkit new`: one theme, in unit_data/ and modules/."""
    return DataSet(theme_id, root / "unit_data", root / "modules", root)


def bundled_dataset(root: Path, theme_id: str) -> DataSet:
    """The bundled layout: one theme's units in unit_data/<theme>/, its modules in modules/<theme>/."""
    return DataSet(theme_id, root / "unit_data" / theme_id, root / "modules" / theme_id, root)


def find_datasets(data_dir: Path | None) -> tuple[list[DataSet], list[Problem]]:
    """The figure-duel databases in a folder (bundled data when None). Other games' data and unknown game
    names in `duelkit.yaml` are left to the registry (`toolkit.registry.discover`)."""
    root = bundled_root() if data_dir is None else data_dir
    if not root.is_dir():
        raise UsageError(f"'{root}' is not a folder")
    if os.path.lexists(root / PROJECT_FILE):  # a link or a special file is reported, not taken for "no project"
        project, problems = read_project(root)
        if project is None or project.game_id not in theme_ids():
            return [], problems
        return [project_dataset(root, project.game_id)], problems
    return [bundled_dataset(root, tid) for tid in theme_ids() if (root / "unit_data" / tid).is_dir()], []


def load_board(path: Path = DEFAULT_BOARD, root: Path | None = None) -> tuple[Board | None, list[Problem]]:
    """Load a board file and run every board check; failures are located at the node they name. With
    `root` (the project), a board reached through a link leading outside it is refused unread."""
    loaded = load_yaml_file(path, display_path(path), root)
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
    theme, problems = project_theme(load_theme(dataset.theme_id), dataset.project_file)
    board, board_problems = _board(dataset)
    problems += board_problems
    rejected: list[Rejected] = []
    broken_units: set[str] = set()
    broken_modules: set[str] = set()
    root = dataset.project
    unit_files = yaml_files(dataset.unit_dir, skip_dir=SQUADS_DIR, root=root, problems=problems)
    units = load_kind(unit_files, Unit, "units", problems, rejected, broken_units)
    squad_files = yaml_files(dataset.unit_dir / SQUADS_DIR, root=root, problems=problems)
    squads = load_kind(squad_files, Squad, "squads", problems)
    modules = load_kind(yaml_files(dataset.module_dir, root=root, problems=problems), Module, "modules", problems,
                        broken=broken_modules)
    problems += _fonts(dataset.project_file)
    database = Database(theme, board, problems=problems, project_file=dataset.project_file)
    database.broken_units, database.broken_modules = broken_units, broken_modules
    database.units = index_by_id(units, "unit", problems)
    database.modules = index_by_id(modules, "module", problems)
    database.squads = index_by_id(squads, "squad", problems)
    _check_units(database)
    _check_rejected_disks(database, rejected)
    _check_squads(database)
    _read_art(database, root)
    _read_back(database, dataset.project_file)
    database.problems = sorted(problems, key=Problem.sort_key)
    return database


def _fonts(project: Project | None) -> list[Problem]:
    """The project's fallback fonts, in use from now on. reportlab (250 ms to import) is loaded only for a
    project with fonts, or when it is loaded already (an earlier project's fonts must then be dropped)."""
    if (project is None or not project.settings.fonts) and "toolkit.render.fonts" not in sys.modules:
        return []
    from toolkit.kit.glyphs import load_fonts

    return load_fonts(project)


def _read_art(db: Database, root: Path) -> None:
    """Each unit's and module's `art:`, read once per file; a problem is located at its `art:` value."""
    entries: list[tuple[tuple[str, str], Located[Unit] | Located[Module]]] = [
        *((("unit", uid), entry) for uid, entry in db.units.items()),
        *((("module", mid), entry) for mid, entry in db.modules.items())]
    db.art, problems = read_entry_art(root, entries)
    db.problems += problems


def _read_back(db: Database, project: Project | None) -> None:
    db.back, problems = read_back(project)
    db.problems += problems


def _board(dataset: DataSet) -> tuple[Board, list[Problem]]:
    """The project's board when it names one and it passes every check; otherwise the standard board, so
    the other checks still run (the project board's problems, reported here, stop any build)."""
    problems: list[Problem] = []
    path = dataset.project_file.path("board") if dataset.project_file is not None else None
    if path is not None:
        board, problems = load_board(path, dataset.project)
        if board is not None and not any(problem.is_error for problem in problems):
            return board, problems
    standard, broken = load_board()
    if standard is None:
        raise UsageError("the bundled board is broken: " + "; ".join(p.message for p in broken))
    return standard, problems


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
    found += _effect_words(db, source, data, label, disk)
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


def _effect_words(db: Database, source: SourceFile, data: LocatedDict, label: str,
                  disk: tuple[Segment, ...]) -> list[Problem]:
    """Effect text that disagrees with the data: it names a status the move does not inflict (X010), or
    uses another theme's word, as after switching a project's theme (X011). Warnings: the card prints
    the text as written."""
    theme = db.theme
    found = []
    leave_out = "or leave out `effect:` and the card words `inflicts:` in the theme's words"
    for index, segment in enumerate(disk):
        if not segment.effect:
            continue
        named = [status_id for status_id in named_statuses(segment.effect, theme.statuses)
                 if status_id != segment.inflicts]
        foreign = foreign_words(segment.effect, theme)
        if not named and not foreign:
            continue  # most effect text: located only when there is something to say about it
        pos = locate(data, ("disk", index, "effect"))
        inflicted = theme.statuses.get(segment.inflicts or "", "no status")
        for status_id in named:
            found.append(source.problem(
                "X010", pos, f"{label}: the effect text of '{segment.move}' names {theme.statuses[status_id]}, "
                f"but the move inflicts {inflicted}", severity=Severity.WARNING,
                hint=f"set `inflicts: {status_id}` or change the text, {leave_out}"))
        for other, meaning, word in foreign:
            own = theme.statuses.get(meaning) or getattr(theme.terms, meaning, None)
            found.append(source.problem(
                "X011", pos, f"{label}: the effect text of '{segment.move}' says '{word}', {other.id}'s word; "
                f"this project's theme {theme.id} says {own}", severity=Severity.WARNING,
                hint=f"write {own}, {leave_out}" if meaning in theme.statuses else f"write {own}"))
    return found


@cache
def _disk_adapter() -> TypeAdapter[tuple[Segment, ...]]:
    """Built for the first unit that failed its schema: building it is a start-up cost valid data never needs."""
    return TypeAdapter(tuple[Segment, ...])


def _plain_disk(written: object) -> tuple[Segment, ...] | None:
    """The disk as the adapter would read it when every segment passes its plain check (the adapter is
    then never built: a unit rejected for its name or mp usually has a well-formed disk); else None."""
    if not isinstance(written, list):
        return None
    segments = []
    for segment in written:
        found = plain_instance(Segment, segment)
        if found is None:
            return None
        segments.append(found)
    return tuple(segments)


def _check_rejected_disks(db: Database, rejected: list[Rejected]) -> None:
    """A unit with a bad name still gets its Data Disk checked: every problem at once."""
    for item in rejected:
        disk = _plain_disk(item.data.get("disk"))
        if disk is None:
            try:
                disk = _disk_adapter().validate_python(item.data.get("disk"))
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
    # A unit or module whose own file has problems is not "unknown": its own problem is reported there.
    unit_ids, module_ids = set(db.units) | db.broken_units, set(db.modules) | db.broken_modules
    for entry in db.squads.values():
        for finding in squad_findings(entry.value, unit_ids, module_ids):
            loc = (finding.field,) if finding.index is None else (finding.field, finding.index)
            db.problems.append(entry.source.problem(
                finding.code, entry.pos(*loc), finding.message, hint=_SQUAD_HINTS[finding.code]))


_SQUAD_HINTS = {
    "X004": "use an id from unit_data/", "X005": "use an id from modules/", "X006": "list exactly 6 unit ids",
    "X008": "each unit and module may appear once", "X009": "keep at most 6 modules",
}
