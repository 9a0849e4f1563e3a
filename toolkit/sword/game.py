"""The sword duel's adapter for the registry (spec 002: the card duel).

Its data model and kit are imported inside the methods that use them, so commands on a figure-duel
project do not load them."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

from toolkit.errors import UsageError
from toolkit.game import (
    Advance,
    Choose,
    Game,
    GameData,
    Output,
    PlayRequest,
    ReplayResult,
    Show,
    SimulateProgress,
    SimulateRequest,
    SimulateResult,
    Where,
)
from toolkit.loading import Project
from toolkit.problems import Problem, Severity
from toolkit.report import counted
from toolkit.sword.constants import GAME_ID, GAME_NAME

if TYPE_CHECKING:
    from toolkit.export.pieces import ExportSet
    from toolkit.kit.component import Component
    from toolkit.kit.options import PrintOptions
    from toolkit.sword.context import SwordDatabase
    from toolkit.web.table import ReplayFrames, Table, TableRequest


@dataclass
class SwordData(GameData):
    """The loaded techniques, draft and builds."""

    database: SwordDatabase

    @property
    def problems(self) -> list[Problem]:  # type: ignore[override]
        return self.database.problems


def _database(data: GameData) -> SwordDatabase:
    assert isinstance(data, SwordData), "a sword-duel command was given another game's data"
    return data.database


FIGURE_ONLY = ("board", "terms", "statuses")  # duelkit.yaml keys a sword-duel kit does not use yet


def _figure_only(project: Project) -> list[Problem]:
    """duelkit.yaml keys that sword-duel does not use: said, rather than silently ignored."""
    from toolkit.schema import locate

    return [project.source.problem("S004", locate(project.data, (key,), key=True),
                                   f"`{key}:` is not used by sword-duel projects (only by duel-protocol and chimera)",
                                   hint=f"remove `{key}:`", severity=Severity.WARNING)
            for key in FIGURE_ONLY if getattr(project.settings, key) is not None]


class SwordGame(Game):
    """Two swordsmen, action and technique cards, range and initiative (spec 002)."""

    id = GAME_ID
    title = GAME_NAME
    commands = Game.commands | {"export", "simulate", "balance", "play", "replay"}
    has_squads = False
    on_purpose_only = frozenset({"balance"})
    # its strongest player against the baseline, against a person, and against itself for the balance table
    default_players: ClassVar[dict[str, str]] = {"simulate": "equilibrium,greedy", "play": "human,equilibrium",
                                                  "balance": "equilibrium,equilibrium"}

    def why_not(self, command: str) -> str:
        reasons = {
            "odds": "it gives a Data Disk battle's odds; sword-duel resolves turns by cards, not spins",
            "board": "sword-duel has no board graph",
            "import": "the spreadsheet importer reads figure-duel units",
        }
        reason = reasons.get(command)
        return f"`{command}` does not apply to {self.id}" + (f": {reason}" if reason else "")

    def found_in(self, root: Path) -> bool:
        from toolkit.sword.data import has_sword_data

        return has_sword_data(root)

    def load(self, where: Where) -> SwordData:
        from toolkit.sword.data import load_sword

        database = load_sword(where.root)
        project = where.settings
        if project is not None:
            database.name = project.settings.name or database.name
            database.problems += _figure_only(project)
            if project.settings.back is not None:
                from toolkit.pictures import read_back

                database.back, found = read_back(project)
                database.problems += found
            if project.settings.fonts:
                from toolkit.kit.glyphs import load_fonts

                database.problems += load_fonts(project)
        return SwordData(database)

    def kit_title(self, data: GameData) -> str:
        return _database(data).name

    def describe(self, data: GameData) -> str:
        db = _database(data)
        draft = f"draft '{db.draft.id}' ({len(db.draft.techniques)} cards)" if db.draft else "no draft"
        return f"{counted(len(db.techniques), 'technique')}, {draft}, {counted(len(db.builds), 'build')}"

    def layout_warnings(self, data: GameData) -> list[Problem]:
        from toolkit.kit.glyphs import glyph_warnings
        from toolkit.sword.context import SwordContext
        from toolkit.sword.kit.build import layout_warnings

        db = _database(data)
        glyphs = [problem for entry in db.sources.values()
                  for problem in glyph_warnings(entry.source, entry.data, frozenset({"id", "kind", "art"}))]
        return layout_warnings(SwordContext(db, "a4")) + glyphs

    def kit_steps(self, data: GameData) -> int:
        del data  # the same generators run for every sword-duel project
        from toolkit.sword.kit.build import SWORD_GENERATORS

        return 2 * (len(SWORD_GENERATORS) + 1)  # and the print test

    def export_set(self, data: GameData) -> ExportSet:
        from toolkit.sword.context import SwordContext
        from toolkit.sword.kit.export_set import sword_export_set

        return sword_export_set(SwordContext(_database(data), "a4"))  # cards and tokens: the same on any paper

    def kit_parts(self) -> tuple[str, ...]:
        from toolkit.sword.kit.build import SWORD_PARTS

        return tuple(SWORD_PARTS)

    def build_kit(self, data: GameData, paper: str, advance: Advance, *, with_balance: bool,
                  squads: tuple[str, ...] = (), options: PrintOptions | None = None,
                  only: Collection[str] = ()) -> list[Component]:
        from toolkit.kit.options import PrintOptions
        from toolkit.sword.context import SwordContext
        from toolkit.sword.kit.build import build_sword_components

        del with_balance  # no balance report: see `balance`
        if squads:
            raise UsageError("sword-duel has no squads: leave out --squads")
        context = SwordContext(_database(data), paper, options or PrintOptions())
        components = []
        for component in build_sword_components(context, only):
            advance(f"{self.id}: {component.name}")
            components.append(component)
        return components

    def reference(self, data: GameData, paper: str, templates: Path | None) -> Output:
        """The quick reference card on its own (it is also part of the kit); the rules manual of spec 002
        is not generated yet, so there is no manual.pdf or manual.html."""
        del templates
        from toolkit.render.pdf import render_pdf
        from toolkit.render.scene import Document
        from toolkit.sword.context import SwordContext
        from toolkit.sword.kit.reference import build_quick_reference

        component = build_quick_reference(SwordContext(_database(data), paper))
        return Output({"quick-reference.pdf": render_pdf(Document(component.title, component.pages))},
                      "quick-reference.pdf")

    def simulate(self, data: GameData, request: SimulateRequest, progress: SimulateProgress) -> SimulateResult:
        from toolkit.sword.simulate import simulate

        return simulate(_database(data), request, progress)

    def play(self, data: GameData, request: PlayRequest, show: Show, choose: Choose,
             handover: Show | None = None) -> str:
        from toolkit.sword.session import play

        return play(_database(data), request, show, choose, handover)

    def replay(self, data: GameData, record: str, turn: int | None) -> ReplayResult:
        from toolkit.sword.session import replay_record

        return replay_record(_database(data), record, turn)

    def balance(self, data: GameData, paper: str, board: SimulateRequest | None = None,
                progress: SimulateProgress | None = None) -> Output:
        """Self-play under the equilibrium player: technique table, ratings, builds, the honor rule."""
        del progress  # the card duel's balance shows no progress bar (yet)
        from toolkit.sword.balance import run_balance
        from toolkit.sword.kit.balance_report import balance_csvs, balance_pdf
        from toolkit.sword.report import balance_lines

        db = _database(data)
        found = run_balance(db, board)
        files = {"balance.pdf": balance_pdf(found, db.name, paper), **balance_csvs(found)}
        return Output(files, "balance.pdf (3 pages), techniques.csv, matchups.csv, builds.csv",
                      balance_lines(found))

    def simulate_folders(self, data: GameData, request: SimulateRequest) -> list[str]:
        from toolkit.sword.simulate import output_folder_name

        del data
        return [output_folder_name(request.players)]

    def project_folders(self) -> list[tuple[str, str]]:
        return [("techniques", "techniques")]

    def web_intro(self, data: GameData) -> str:
        db = _database(data)
        names = ", ".join(t.name for t in db.draft_techniques())
        return (f"The draft deals {len(db.draft_techniques())} technique cards ({names}); one is removed at random, "
                "then each player takes two in turn. Builds and choices are secret; both reveal together.")

    def web_players(self) -> list[str]:
        from toolkit.sword.web.table import COMPUTERS

        return list(COMPUTERS)

    def web_table(self, data: GameData, request: TableRequest) -> Table:
        from toolkit.sword.web.table import SwordTable

        return SwordTable.start(_database(data), request)

    def web_replay(self, data: GameData, record: str) -> ReplayFrames:
        from toolkit.sword.web.replay import replay_frames

        return replay_frames(_database(data), record)

    def edit_hint(self) -> str:
        return "techniques"
