"""The games the toolkit knows, and which of them a folder holds (modelled on python-chess's `VARIANTS` and
`find_variant`). This is the one module outside the games' own packages that names them."""

from __future__ import annotations

import difflib
import os
from functools import cache
from pathlib import Path

from toolkit.errors import DuelkitError, UsageError
from toolkit.figure.game import FigureGame
from toolkit.figure.theme import theme_ids
from toolkit.game import Game, Where
from toolkit.loading import PROJECT_FILE, read_project
from toolkit.paths import bundled_root
from toolkit.problems import Problem
from toolkit.sword.game import SwordGame

DEFAULT_GAME = "duel-protocol"  # what `duelkit new` and `duelkit import` start when no --theme is given


@cache
def games() -> tuple[Game, ...]:
    """Every game, in the order commands run them: each theme of the figure duel, then the sword duel."""
    return (*(FigureGame(theme_id) for theme_id in theme_ids()), SwordGame())


def game_ids() -> list[str]:
    return [game.id for game in games()]


def find_game(game_id: str) -> Game:
    """The game with this id; a UsageError naming the known ones (and the closest) otherwise."""
    for game in games():
        if game.id == game_id:
            return game
    close = difflib.get_close_matches(game_id, game_ids(), n=1)
    hint = f"did you mean '{close[0]}'? " if close else ""
    raise UsageError(f"unknown game '{game_id}'; {hint}known: {', '.join(game_ids())}")


def discover(data_dir: Path | None) -> tuple[list[tuple[Game, Where]], list[Problem]]:
    """The games whose data a folder holds (the bundled data when None), and any problem of its project file.

    A project made by `duelkit new` names its one game in `duelkit.yaml`; the bundled layout holds one
    folder set per game. A folder that is neither is a UsageError.
    """
    root = bundled_root() if data_dir is None else data_dir
    try:
        if not root.is_dir():
            raise UsageError(f"'{root}' is not a folder")
        os.listdir(root)  # a folder that cannot be listed (or entered) is said so here, once
        return _discover(root)
    except OSError as exc:
        raise DuelkitError(f"cannot read '{exc.filename or root}': {exc.strerror or exc}") from None


def _discover(root: Path) -> tuple[list[tuple[Game, Where]], list[Problem]]:
    if os.path.lexists(root / PROJECT_FILE):  # a link or a special file is reported, not taken for "no project"
        project, problems = read_project(root)
        if project is None:
            return [], problems
        if project.game_id not in game_ids():
            known = game_ids()
            close = difflib.get_close_matches(project.game_id, known, n=1)
            problems.append(project.problem_at_game(
                "P002", f"unknown theme '{project.game_id}'",
                hint=f"did you mean '{close[0]}'?" if close else f"themes: {', '.join(known)}",
                expected=" or ".join(known), found=project.game_id))
            return [], problems
        return [(find_game(project.game_id), Where(root, project=True, settings=project))], problems
    found = [(game, Where(root, project=False)) for game in games() if game.found_in(root)]
    if not found:
        raise UsageError(
            f"'{root}' is not a duelkit data folder: it has no {PROJECT_FILE}, no unit_data/<theme>/ folders "
            f"and no techniques/ (games: {', '.join(game_ids())}); `duelkit new DIR` makes one")
    return found, []
