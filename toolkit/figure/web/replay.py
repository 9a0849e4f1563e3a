"""A game record in the browser, step by step, checked as `duelkit replay` checks it: the record's theme and
data hash must match the project's data, and every line is re-played against the rules (the first line
that does not agree stops the replay and is reported with its number)."""

from __future__ import annotations

import json

from toolkit.figure.database import Database
from toolkit.figure.engine import CHANCE, Action, GameState
from toolkit.figure.engine.narrate import Narrator
from toolkit.figure.engine.record import (
    Record,
    RecordError,
    action_from_json,
    parse_record,
    record_rules,
    replay_line,
    result_json,
)
from toolkit.figure.engine.render_text import describe_outcome, safe
from toolkit.figure.session import game_of_record
from toolkit.figure.web.narrate import log_entry
from toolkit.figure.web.view import LogEntry, board_svg, entry_html, status_line, zones_html
from toolkit.players import Player
from toolkit.problems import DuelkitError, UsageError
from toolkit.web.html import h
from toolkit.web.table import ReplayFrames

MAX_FRAMES = 20_000


def replay_frames(database: Database, text: str) -> ReplayFrames:
    """Every step of the record as a board (frame k: after k steps) and a log line."""
    if database.has_errors:
        raise DuelkitError(f"the {database.theme.id} data has problems: fix them first")
    try:
        record = parse_record(text)
        rules = record_rules(record)
    except RecordError as exc:
        if _another_games(text):  # the server asks the game that wrote it
            raise UsageError(str(exc)) from None
        raise DuelkitError(str(exc)) from None
    header = record.header
    if header["theme"] != database.theme.id:  # another theme's record: the server asks the other games
        raise UsageError(f"the record is for theme '{safe(str(header['theme']), 40)}', not '{database.theme.id}'")
    game = game_of_record(database, record, rules)
    return _walk(record, GameState.initial(game, Player(header["first"])))


def _another_games(text: str) -> bool:
    """Whether the record's header is another game's (it names its "game", as a sword-duel record does)."""
    try:
        header = json.loads(text.lstrip().split("\n", 1)[0])
    except (ValueError, RecursionError):
        return False
    return isinstance(header, dict) and "record" not in header and "game" in header


def _walk(record: Record, state: GameState) -> ReplayFrames:
    players = record.header.get("players")
    names = [str(p) for p in players] if isinstance(players, list) and len(players) == 2 else ["?", "?"]
    terms = state.game.theme.terms
    title = f"{terms.game}: {state.game.squad_ids[0]} (A) against {state.game.squad_ids[1]} (B)"
    states = [state.clone()]
    log: list[LogEntry] = []
    try:
        problem = _steps(record, state, states, log)
    except RecordError as exc:  # a line that is not JSON: the steps before it are shown
        problem = str(exc).removeprefix("line ")
    notes = [] if problem or state.is_terminal() else ["the record has no result line: an unfinished game"]
    return ReplayFrames(title, len(states) - 1, lambda k: _frame(states[k], names),
                        [entry_html(entry, k) for k, entry in enumerate(log, start=1)], problem, notes)


def _steps(record: Record, state: GameState, states: list[GameState], log: list[LogEntry]) -> str | None:
    """Replay line by line, keeping each state and log line; the problem ("LINE: message") where it stops."""
    narrator = Narrator()
    for number, row in record.rows():
        if len(states) > MAX_FRAMES:
            return f"{number}: the record is longer than {MAX_FRAMES} steps; the rest is not shown"
        before = state.clone()
        if "result" in row:
            return None if row["result"] == result_json(state) else \
                f"{number}: the recorded result differs from the replay's"
        step = _step_of(before, row)
        wrong = replay_line(state, row)
        if wrong is not None or step is None:
            return f"{number}: the record diverges: {wrong or 'not a step of this game'}"
        log.append(LogEntry(*log_entry(narrator, before, step, state)))
        states.append(state.clone())
    return None


def _step_of(before: GameState, row: dict[str, object]) -> Action | int | None:
    """The action or spin outcome a record line names, if it is one the state allows."""
    if "spin" in row and before.current_player == CHANCE and isinstance(row["spin"], dict):
        segment = row["spin"].get("segment")
        return segment if type(segment) is int and 0 <= segment < len(before.chance_outcomes()) else None
    if "action" in row and before.current_player in (0, 1):
        try:
            action = action_from_json(before, row["action"])
        except RecordError:
            return None
        return action if action in before.decisions() else None
    return None


def _frame(state: GameState, players: list[str]) -> str:
    status = describe_outcome(state) if state.is_terminal() else status_line(state, players)
    return (f'<div class="status" data-status>{h(status)}</div><div class="play-grid"><div class="board-wrap">'
            f'{board_svg(state)}</div><div class="panel"><div class="zones">{zones_html(state)}</div></div></div>')
