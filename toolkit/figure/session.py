"""One game of the board duel, driven from outside: `duelkit play` and `duelkit replay` without printing.

The command line owns the terminal; this module owns the game. It talks to the command line through two
callbacks (`show` a line, `choose` one of numbered options), so the play loop, the record and the replay
checks live with the engine, and the terminal code stays in `toolkit/cli/`.
"""

from __future__ import annotations

import random

from toolkit.errors import DuelkitError, UsageError
from toolkit.figure.database import Database
from toolkit.figure.engine import CHANCE, GameState, build_game
from toolkit.figure.engine.actions import Action
from toolkit.figure.engine.play import random_bot, sample_outcome
from toolkit.figure.engine.record import (
    Recorder,
    RecordError,
    make_header,
    parse_record,
    record_rules,
    replay,
)
from toolkit.figure.engine.render_text import (
    describe_action,
    describe_outcome,
    describe_spin,
    render_board,
    safe,
)
from toolkit.figure.engine.setup import SetupError
from toolkit.game import Choose, PlayRequest, ReplayResult, Show
from toolkit.players import PLAYERS, Player
from toolkit.report import summary

PLAYER_KINDS = ("human", "random")


def check_players(players: tuple[str, str]) -> None:
    if any(name not in PLAYER_KINDS for name in players):
        raise UsageError(f"--players takes two of {', '.join(PLAYER_KINDS)} separated by a comma, "
                         f"e.g. human,random (got '{safe(','.join(players), 60)}')")


def _playable(database: Database) -> None:
    if database.has_errors:
        raise DuelkitError(f"the {database.theme.id} data has problems ({summary(database.problems)}); "
                           "`duelkit validate` lists them")


def play(database: Database, request: PlayRequest, show: Show, choose: Choose) -> str:
    """Play one game to its end; returns the game record (JSON lines)."""
    _playable(database)
    check_players(request.players)
    rng = random.Random(request.seed)
    first = PLAYERS[rng.randrange(2)] if request.first is None else Player(request.first)
    try:
        game = build_game(request.squad_a, request.squad_b, database)
    except SetupError as exc:
        raise DuelkitError(str(exc)) from None
    state = GameState.initial(game, first)
    recorder = Recorder(make_header(game, data=request.data, seed=request.seed, players=list(request.players),
                                    first=first))
    watching = "human" in request.players
    show(f"{game.theme.terms.game}: {request.squad_a} (A) against {request.squad_b} (B), seed {request.seed}; "
         f"{first.value} moves first")
    while not state.is_terminal():
        player = state.current_player
        step: Action | int
        if player == CHANCE:
            step = sample_outcome(state, rng)
            if watching:
                show("  " + describe_spin(state, step))
        elif request.players[player] == "human":
            step = _ask(state, choose)
        else:
            step = random_bot(state, rng)
            if watching:
                show(f"{PLAYERS[player].value}: {describe_action(state, step)}")
        recorder.on_step(state, step)
        state.apply(step)
    recorder.finish(state)
    for line in ("", render_board(state), "", describe_outcome(state)):
        show(line)
    return recorder.text()


def _ask(state: GameState, choose: Choose) -> Action:
    # a player acts here, so every legal action is an Action (chance outcomes are ints); the filter tells mypy
    legal = [action for action in state.legal_actions() if isinstance(action, Action)]
    to_act = PLAYERS[state.current_player].value
    lines = ["", render_board(state), "", f"turn {state.turn + 1}, player {to_act} to act:"]
    return legal[choose(lines, [describe_action(state, action) for action in legal])]


def replay_record(database: Database, text: str, turn: int | None) -> ReplayResult:
    """Re-check every line of a record against the rules; the board at turn N or at the end."""
    _playable(database)
    try:
        record = parse_record(text)
        rules = record_rules(record)
    except RecordError as exc:
        raise DuelkitError(str(exc)) from None
    header = record.header
    if header["theme"] != database.theme.id:
        raise DuelkitError(f"the record is for theme '{safe(str(header['theme']), 40)}', "
                           f"but its squads are found in '{database.theme.id}'")
    squad_a, squad_b = header["squads"]
    try:
        game = build_game(squad_a, squad_b, database, rules)
    except SetupError as exc:
        raise DuelkitError(str(exc)) from None
    if game.data_hash != header["data_hash"]:
        raise DuelkitError(f"the unit or module data has changed since this game was recorded "
                           f"(data hash {game.data_hash}, recorded {safe(header['data_hash'], 40)}); "
                           "replay it against the data it was played with (--data DIR)")
    result = replay(record, game, turn)
    shown = result.at_turn if turn is not None and result.at_turn is not None else result.state
    where = f"at the start of turn {turn}" if shown is result.at_turn else "at the end"
    report = ReplayResult([f"{game.theme.terms.game}: {squad_a} (A) against {squad_b} (B); "
                           f"{result.checked} lines re-checked", "", f"the board {where}:", render_board(shown), ""])
    if result.divergence is not None:
        report.lines.append(describe_outcome(result.state) if result.state.is_terminal()
                            else f"replayed up to turn {result.state.turn + 1}")
        report.divergence = f"{result.divergence.line}: the record diverges: {result.divergence.message}"
        return report
    if turn is not None and result.at_turn is None:
        report.lines.append(f"(the game ended before turn {turn})")
    report.lines.append(describe_outcome(result.state))
    if result.result_matches is None:
        report.lines.append("(the record has no result line: an unfinished game)")
    else:
        report.lines.append(f"state hash {result.state.state_hash()} matches the record")
    return report

