"""The figure duel's adapter for the registry: one instance per theme (duel-protocol, chimera).

Heavy modules (the kit generators, reportlab) are imported inside the methods that need them, so
`duelkit validate` and `duelkit odds` start quickly.
"""

from __future__ import annotations

import difflib
import time
from collections.abc import Collection
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

from toolkit.errors import UsageError
from toolkit.figure.database import Database, bundled_dataset, load_board, load_database, project_dataset
from toolkit.figure.theme import load_theme
from toolkit.game import (
    SHEET_EXPORT,
    Advance,
    Choose,
    Game,
    GameData,
    OddsRequest,
    Output,
    PlayRequest,
    ReplayResult,
    Report,
    Show,
    SimulateProgress,
    SimulateRequest,
    SimulateResult,
    Where,
)
from toolkit.paths import DEFAULT_BOARD, STANDARD_BOARD_ID, STARTERS_DIR
from toolkit.problems import Problem
from toolkit.report import counted
from toolkit.safe_fs import display_path

if TYPE_CHECKING:
    from toolkit.export.pieces import ExportSet
    from toolkit.kit.component import Component
    from toolkit.kit.options import PrintOptions
    from toolkit.web.table import ReplayFrames, Table, TableRequest


@dataclass
class FigureData(GameData):
    """One theme's loaded database."""

    database: Database

    @property
    def problems(self) -> list[Problem]:  # type: ignore[override]
        return self.database.problems


def _database(data: GameData) -> Database:
    assert isinstance(data, FigureData), "a figure-duel command was given another game's data"
    return data.database


def _problem_line(problem: Problem) -> str:
    hint = f" (hint: {problem.hint})" if problem.hint else ""
    return f"{problem.file}:{problem.line}:{problem.column}: {problem.code} {problem.message}{hint}"


def _check_squads(database: Database, squads: tuple[str, ...]) -> None:
    """`build --squads A,B`: one or two squads of this database."""
    if len(squads) > 2:
        raise UsageError(f"--squads takes one squad per side (at most 2), not {len(squads)}")
    for squad_id in squads:
        if squad_id not in database.squads:
            close = difflib.get_close_matches(squad_id, list(database.squads), n=1)
            hint = f"did you mean '{close[0]}'?" if close else "squads: " + (", ".join(database.squads) or "none")
            raise UsageError(f"no squad '{squad_id}' in {database.theme.id}; {hint}")


class FigureGame(Game):
    """duel-protocol or chimera: units on a board, Data Disks, modules and squads."""

    commands = frozenset({"validate", "build", "reference", "balance", "odds", "board", "import", "new", "export",
                          SHEET_EXPORT, "play", "replay", "simulate"})

    def __init__(self, theme_id: str) -> None:
        self.id = theme_id
        self.title = load_theme(theme_id).terms.game

    def help_notes(self, command: str) -> list[str]:
        """The words `command --help` lists; the spreadsheet importer's columns are read only for `import`
        (every command builds its parser, and the importer is a quarter second of `validate`'s start)."""
        if command not in ("odds", "validate", "import"):
            return []
        if command == "import":
            from toolkit.figure.sheets.columns import FIELDS
            from toolkit.figure.sheets.foreign import REQUIRED_COLUMNS

            return ["a sheet `duelkit export csv|xlsx` wrote (tables units, squads, modules, project) is read "
                    "by its column names; the items it changes are updated, columns it lacks leave their fields "
                    "alone",
                    "any other sheet (one row per Data Disk segment; other columns are ignored): "
                    + ", ".join(REQUIRED_COLUMNS) + "; common variants (Figure, MP, Colour, Damage...) are "
                    "recognised; --columns fields: " + ", ".join(FIELDS)]
        from toolkit.figure.model import MODULE_EFFECT_KINDS

        theme = load_theme(self.id)
        statuses = f"statuses of {self.id}: " + ", ".join(
            f"{sid} ({name})" for sid, name in sorted(theme.statuses.items()))
        if command == "odds":
            return [statuses]
        return [statuses, "module effect kinds: " + ", ".join(MODULE_EFFECT_KINDS)
                + " (damage_bonus, star_bonus and extra_mp take an `amount`)"]

    def found_in(self, root: Path) -> bool:
        return (root / "unit_data" / self.id).is_dir()

    def load(self, where: Where) -> FigureData:
        dataset = project_dataset(where.root, self.id) if where.project else bundled_dataset(where.root, self.id)
        if where.settings is not None:
            dataset = replace(dataset, project_file=where.settings)
        database = load_database(dataset)
        if where.project:  # an imported project: problems also name the sheet cell to fix
            from toolkit.figure.sheets.sheet_map import with_sheet_cells

            database.problems = with_sheet_cells(where.root, database.problems)
        return FigureData(database)

    def describe(self, data: GameData) -> str:
        db = _database(data)
        board = f", board '{db.board.id}'" if db.board.id != STANDARD_BOARD_ID else ""
        return (f"{counted(len(db.units), 'unit')}, {counted(len(db.modules), 'module')}, "
                f"{counted(len(db.squads), 'squad')}{board}")

    def layout_warnings(self, data: GameData) -> list[Problem]:
        from toolkit.figure.kit.layout_check import glyph_problems, layout_warnings

        return layout_warnings(_database(data)) + glyph_problems(_database(data))

    def kit_parts(self) -> tuple[str, ...]:
        from toolkit.figure.kit.build import GENERATORS

        return (*(name for name, _ in GENERATORS), "balance")

    def kit_steps(self, data: GameData) -> int:
        del data  # the same generators run for every figure project
        from toolkit.figure.kit.build import GENERATORS

        return 2 * len(GENERATORS) + 1

    def build_kit(self, data: GameData, paper: str, advance: Advance, *, with_balance: bool,
                  squads: tuple[str, ...] = (), options: PrintOptions | None = None,
                  only: Collection[str] = ()) -> list[Component]:
        from toolkit.figure.kit.build import build_components

        database = _database(data)
        _check_squads(database, squads)
        components = []
        from toolkit.kit.options import PrintOptions

        for component in build_components(database, paper, options or PrintOptions(), squads, only):
            advance(f"{self.id}: {component.name}")
            components.append(component)
        from toolkit.figure.kit.build import glyph_problems

        if components and components[0].name == "print-test":
            components[0].warnings += glyph_problems(database)  # the print test: what the printer cannot show
        if with_balance and (not only or "balance" in only):
            from toolkit.figure.analysis.balance import balance
            from toolkit.figure.kit.balance_report import build_balance
            from toolkit.figure.kit.context import KitContext

            components.append(build_balance(KitContext(database, paper), balance(database.unit_defs())))
        return components

    def kit_title(self, data: GameData) -> str:
        return _database(data).theme.terms.game  # the project's `name:` when it has one

    def export_set(self, data: GameData) -> ExportSet:
        from toolkit.figure.kit.context import KitContext
        from toolkit.figure.kit.export_set import figure_export_set

        return figure_export_set(KitContext(_database(data), "a4"))  # cards and tokens: the same on any paper

    def reference(self, data: GameData, paper: str, templates: Path | None) -> Output:
        from toolkit.figure.kit.build import batch_allocation
        from toolkit.figure.kit.context import KitContext
        from toolkit.figure.kit.html_manual import render_manual_html
        from toolkit.figure.kit.manual import build_manual
        from toolkit.figure.kit.manual_pages import build_manual_component, build_quickref_component
        from toolkit.render.pdf import render_pdf
        from toolkit.render.scene import Document

        database = _database(data)
        with batch_allocation():
            context = KitContext(database, paper)
            manual = build_manual(database)
            html = render_manual_html(manual, database.theme, paper, templates)
            pages = build_manual_component(context, manual).pages
            quick = build_quickref_component(context, manual).pages
            files = {
                "manual.pdf": render_pdf(Document(manual.title, pages + quick)),
                "quick-reference.pdf": render_pdf(Document(f"{database.theme.terms.game}: quick reference", quick)),
                "manual.html": html.encode("utf-8"),
            }
        return Output(files, f"manual.pdf ({len(pages) + len(quick)} pages), quick-reference.pdf and manual.html")

    def balance(self, data: GameData, paper: str, board: SimulateRequest | None = None,
                progress: SimulateProgress | None = None) -> Output:
        from toolkit.figure.analysis.balance import balance, playable
        from toolkit.figure.kit.balance_report import build_balance, matchups_csv, ratings_csv
        from toolkit.figure.kit.context import KitContext
        from toolkit.render.pdf import render_pdf
        from toolkit.render.scene import Document

        database = _database(data)
        lines = []
        units = playable(database.unit_defs())
        left_out = len(database.unit_defs()) - len(units)
        if left_out or database.has_errors:
            lines.append(f"{self.id}: left out {left_out} units with rule problems (a broken Data Disk, an "
                         "upgrade loop) and any file that failed to load (`duelkit validate` lists them)")
        started = time.perf_counter()
        result = balance(units)
        seconds = time.perf_counter() - started
        context = KitContext(database, paper)
        component = build_balance(context, result)
        pages = list(component.pages)
        board_files: dict[str, bytes] = {}
        if board is not None:
            from toolkit.figure.kit.playtest import board_csv, board_pages
            from toolkit.figure.sim.verdict import ladder_lines
            from toolkit.figure.simulate import board_level

            found = board_level(database, board, progress)
            pages += board_pages(database, found)
            board_files["board.csv"] = board_csv(found).encode("utf-8")
            flagged = [i for i in found.impacts if i.flagged]
            stand_ins = ", ".join(f"{unit} for {squad}" for squad, unit in found.replacements.items())
            lines.append(f"  board level: {len(found.squads)} squads, {board.games} games per run, stand-ins "
                         f"{stand_ins}; units whose impact excludes parity: "
                         + (", ".join(f"{i.squad}/{i.unit} {i.difference:+.0%}" for i in flagged) or "none")
                         + f" ({board.players[0]} vs {board.players[1]})")
            for ladder in found.ladders:
                lines += ["", *ladder_lines(ladder)]
            if found.baseline:
                lines += ["", f"  against the baseline {board.baseline_name} (same seeds and dice, {board.games} "
                          f"games a match, {board.players[0]} vs {board.players[1]}):"]
            for change in found.baseline:
                low, high = change["difference_interval"]
                moved = "changed" if low > 0 or high < 0 else "no change beyond luck"
                lines.append(f"    {change['squads']['a']} vs {change['squads']['b']}: "
                             f"{change['baseline_win_rate_a'] * 100:.1f}% -> {change['win_rate_a'] * 100:.1f}% "
                             f"({change['difference'] * 100:+.1f} points, paired 95% interval "
                             f"{low * 100:+.1f} to {high * 100:+.1f}; {moved})")
        files = {
            "balance.pdf": render_pdf(Document(component.title, pages)),
            "balance.csv": ratings_csv(context, result).encode("utf-8"),
            "matchups.csv": matchups_csv(result).encode("utf-8"),
            **board_files,
        }
        n = len(result.unit_ids)
        for rank, rating in enumerate(result.ratings[:3], start=1):
            lines.append(f"  #{rank} {rating.unit_id}: rating {rating.rating:+.2f}")
        outliers = [r.unit_id for r in result.ratings if r.outlier]
        shown = ", ".join(outliers[:10]) + (f" and {len(outliers) - 10} more" if len(outliers) > 10 else "")
        lines.append(f"  outliers: {shown or 'none'}")
        return Output(files, f"{n} units, {n * n} matchups in {seconds:.2f} s", lines)

    def project_folders(self) -> list[tuple[str, str]]:
        return [(f"unit_data/{self.id}", "unit_data"), (f"modules/{self.id}", "modules")]

    def starter(self) -> Path | None:
        return STARTERS_DIR / "figure"

    def edit_hint(self) -> str:
        return "unit_data"

    def has_units(self, data: GameData, unit_ids: list[str]) -> bool:
        return all(uid in _database(data).units for uid in unit_ids)

    def without_invalid(self, data: GameData) -> tuple[GameData, list[str]]:
        from toolkit.figure.analysis.balance import unplayable

        database = _database(data)
        reasons = unplayable(database.unit_defs())
        kept = {uid: entry for uid, entry in database.units.items() if uid not in reasons}
        while True:  # a form whose next stage was left out would print a broken upgrade chain
            broken = {uid for uid, entry in kept.items()
                      if entry.value.upgrades_to is not None and entry.value.upgrades_to not in kept}
            if not broken:
                break
            for uid in broken:
                reasons[uid] = f"it upgrades to {kept[uid].value.upgrades_to}, which is left out"
                del kept[uid]
        squads = {sid: entry for sid, entry in database.squads.items()
                  if set(entry.value.units) <= set(kept) and set(entry.value.modules) <= set(database.modules)}
        lines = [f"left out unit {uid}: {reason}" for uid, reason in sorted(reasons.items())]
        lines += [f"left out squad {sid}: it lists a unit or module that is left out or missing"
                  for sid in sorted(set(database.squads) - set(squads))]
        errors = [problem for problem in database.problems if problem.is_error]
        if errors:
            lines.append(f"and every definition that failed to load ({len(errors)} errors: `duelkit validate` "
                         "lists them)")
        kept_db = replace(database, units=kept, squads=squads,
                          problems=[problem for problem in database.problems if not problem.is_error])
        return FigureData(kept_db), lines

    def squad_ids(self, data: GameData) -> list[str]:
        return sorted(_database(data).squads)

    def play(self, data: GameData, request: PlayRequest, show: Show, choose: Choose,
             handover: Show | None = None) -> str:
        del handover  # one board on one screen: the figure duel has no secret choices
        from toolkit.figure.session import play

        return play(_database(data), request, show, choose)

    def replay(self, data: GameData, record: str, turn: int | None) -> ReplayResult:
        from toolkit.figure.session import replay_record

        return replay_record(_database(data), record, turn)

    def unit_ids(self, data: GameData) -> list[str]:
        return list(_database(data).units)

    def web_players(self) -> list[str]:
        from toolkit.figure.web.table import player_names

        return player_names()

    def web_table(self, data: GameData, request: TableRequest) -> Table:
        from toolkit.figure.web.table import FigureTable

        return FigureTable(_database(data), request)

    def web_replay(self, data: GameData, record: str) -> ReplayFrames:
        from toolkit.figure.web.replay import replay_frames

        return replay_frames(_database(data), record)

    def broken_unit_ids(self, data: GameData) -> list[str]:
        return sorted(_database(data).broken_units)

    def simulate(self, data: GameData, request: SimulateRequest, progress: SimulateProgress) -> SimulateResult:
        from toolkit.figure.simulate import simulate

        return simulate(_database(data), request, progress)

    def simulate_folders(self, data: GameData, request: SimulateRequest) -> list[str]:
        from toolkit.figure.simulate import output_folder_name

        return [output_folder_name(_database(data), request.squads)]

    def odds(self, data: GameData, request: OddsRequest) -> str:
        from toolkit.figure.battle import (
            against_all,
            against_all_json,
            against_all_text,
            compute,
            odds_json,
            odds_text,
            setup_battle,
        )

        database = _database(data)
        if request.defender is None:
            rows = against_all(database, request.attacker, attacker_status=request.attacker_status,
                               defender_status=request.defender_status, attacker_stage=request.attacker_stage,
                               defender_stage=request.defender_stage, module_id=request.module)
            return (against_all_json(request.attacker, rows) if request.as_json
                    else against_all_text(database, request.attacker, rows))
        setup = setup_battle(database, request.attacker, request.defender,
                             attacker_status=request.attacker_status, defender_status=request.defender_status,
                             attacker_stage=request.attacker_stage, defender_stage=request.defender_stage,
                             module_id=request.module)
        odds = compute(setup)
        return odds_json(setup, odds) if request.as_json else odds_text(setup, odds)

    def check_board(self, path: Path | None, where: Where | None = None) -> Report:
        from toolkit.figure.rules.board_distances import distance_lines

        root = None
        project = where.settings if where is not None else None
        if path is None and project is not None and project.settings.board:
            problem = project.resolve(("board",), project.settings.board)[1]
            if problem is not None:
                return Report(lines=[_problem_line(problem)], failed=True)
            path, root = project.path("board"), project.root
        path = path or DEFAULT_BOARD
        if not path.is_file():
            raise UsageError(f"board file '{path}' does not exist or is not a file")
        board, problems = load_board(path, root)
        report = Report(failed=any(problem.is_error for problem in problems))
        report.lines += [_problem_line(problem) for problem in sorted(problems, key=Problem.sort_key)]
        if board is not None and not report.failed:
            shown = "the standard board" if path == DEFAULT_BOARD else display_path(path)
            report.lines.append(f"board '{board.id}' ({shown}) OK: {len(board.nodes)} nodes, "
                                f"{len(board.routes)} routes")
            report.lines += distance_lines(board)
        return report

    def export_table(self, where: Where, fmt: str, columns: str = "") -> Output:
        from toolkit.figure.sheets.columns import parse_columns
        from toolkit.figure.sheets.convert import NATIVE_HEADERS
        from toolkit.figure.sheets.files import Folders, read_index
        from toolkit.figure.sheets.settings import read_settings
        from toolkit.figure.sheets.write import export_tables, tables_csv, tables_xlsx

        dataset = project_dataset(where.root, self.id) if where.project else bundled_dataset(where.root, self.id)
        index = read_index(Folders(dataset.root or where.root, dataset.unit_dir, dataset.module_dir))
        settings = read_settings(where.root) if where.project else None
        export = export_tables(index, settings, load_theme(self.id), parse_columns(columns, NATIVE_HEADERS))
        files = {f"{self.id}.xlsx": tables_xlsx(export)} if fmt == "xlsx" else tables_csv(export)
        return Output(files, f"{', '.join(files)}: {export.summary}", export.notes,
                      incomplete=bool(index.unreadable))

    def sheet_game(self, path: Path) -> str | None:
        from toolkit.figure.sheets.convert import sheet_theme

        return sheet_theme(path)

    def import_table(self, csv_path: Path, out: Path, columns: str = "", layout: str = "auto",
                     dry_run: bool = False, delete: bool = False) -> Report:
        from toolkit.figure.sheets.columns import parse_columns
        from toolkit.figure.sheets.convert import NATIVE_HEADERS, read_sheet_data
        from toolkit.figure.sheets.project import plan_import
        from toolkit.figure.sheets.report import import_report
        from toolkit.figure.sheets.staging import apply_plan

        # a missing file, a FIFO or a folder without tables is a usage error with its own message
        reading = read_sheet_data(csv_path, parse_columns(columns, NATIVE_HEADERS), layout,
                                  load_theme(self.id).statuses)
        plan = plan_import(reading.data, out, self.id, delete)
        if not dry_run:
            apply_plan(plan)
        return import_report(csv_path, out, reading, plan, dry_run)
