"""One game of the board duel, driven from outside: `duelkit play` and `duelkit replay` without printing.

The command line owns the terminal; this module owns the game. It talks to the command line through two
callbacks (`show` a line, `choose` one of numbered options), so the play loop, the record and the replay
checks live with the engine, and the terminal code stays in `toolkit/cli/`.
"""

from __future__ import annotations

import random

from toolkit.errors import DuelkitError, UsageError
from toolkit.figure.bots import Bot, make_bot
from toolkit.figure.database import Database
from toolkit.figure.engine import CHANCE, GameState, build_game
from toolkit.figure.engine.actions import MODULE, MOVE, SUBROUTINE, Action
from toolkit.figure.engine.narrate import Narrator
from toolkit.figure.engine.play import spin_with_number
from toolkit.figure.engine.record import (
    Record,
    Recorder,
    RecordError,
    make_header,
    parse_record,
    record_rules,
    replay,
)
from toolkit.figure.engine.render_text import (
    coordinate,
    describe_action,
    describe_outcome,
    node_label,
    render_board,
    safe,
    unit_name,
)
from toolkit.figure.engine.rules import Rules
from toolkit.figure.engine.setup import SetupError
from toolkit.figure.engine.tables import HANGAR, GameTables
from toolkit.game import Choose, PlayRequest, ReplayResult, Show
from toolkit.players import PLAYERS, Player
from toolkit.report import summary

HUMAN = "human"
GROUP_FROM = 12  # option lists this long are grouped by unit


def make_players(players: tuple[str, str]) -> tuple[Bot | None, Bot | None]:
    """A bot for each side that is not `human` (None for a person); UsageError names every player."""
    made: list[Bot | None] = []
    for name in players:
        if name.strip().lower() == HUMAN:
            made.append(None)
            continue
        try:
            made.append(make_bot(name))
        except UsageError:
            raise UsageError(f"--players takes two of human, random, greedy, search, search:N (iterations) or "
                             f"search:Nms (milliseconds), separated by a comma, e.g. human,greedy "
                             f"(got '{safe(','.join(players), 60)}')") from None
    return made[0], made[1]


def _playable(database: Database) -> None:
    if database.has_errors:
        raise DuelkitError(f"the {database.theme.id} data has problems ({summary(database.problems)}); "
                           "`duelkit validate` lists them")


def play(database: Database, request: PlayRequest, show: Show, choose: Choose) -> str:
    """Play one game to its end; returns the game record (JSON lines)."""
    _playable(database)
    bots = make_players(request.players)
    rng = random.Random(request.seed)  # the spins (and who moves first); each bot has its own stream
    bot_rngs = [random.Random(f"{request.seed}:bot:{side}") for side in (0, 1)]
    first = PLAYERS[rng.randrange(2)] if request.first is None else Player(request.first)
    try:
        game = build_game(request.squad_a, request.squad_b, database)
    except SetupError as exc:
        raise DuelkitError(str(exc)) from None
    state = GameState.initial(game, first)
    recorder = Recorder(make_header(game, data=request.data, seed=request.seed, players=list(request.players),
                                    first=first))
    watching = None in bots
    narrator = Narrator()
    show(f"{game.theme.terms.game}: {request.squad_a} (A, {_who(request.players[0])}) against {request.squad_b} "
         f"(B, {_who(request.players[1])}), seed {request.seed}; {first.value} moves first")
    while not state.is_terminal():
        player = state.current_player
        step: Action | int
        number = None
        if player == CHANCE:
            step, number = spin_with_number(state, rng)
        else:
            bot = bots[player]
            step = _ask(state, choose) if bot is None else bot.choose(state, bot_rngs[player])
            if watching:
                show(f"{PLAYERS[player].value}: {describe_action(state, step)}")
        recorder.on_step(state, step)
        before = state.clone() if watching else state
        state.apply(step)
        if watching:
            for line in narrator.step(before, step, state, number):
                show(line)
    recorder.finish(state)
    for line in ("", render_board(state), "", describe_outcome(state)):
        show(line)
    return recorder.text()


def _who(name: str) -> str:
    return "you" if name.strip().lower() == HUMAN else safe(name.strip().lower(), 20)


def _ask(state: GameState, choose: Choose) -> Action:
    to_act = PLAYERS[state.current_player].value
    lines = ["", render_board(state), "", f"turn {state.turn + 1}, player {to_act} to act:"]
    listed = options(state, state.decisions())
    return listed[choose(lines, [(group, label) for group, label, _ in listed])][2]


def options(state: GameState, legal: list[Action]) -> list[tuple[str, str, Action]]:
    """(group, label, action) per legal action, in the order shown. A long list is grouped by unit ('A2 sq-7
    (3 MP) in the Hangar: deploy to', then each destination from side A's back row up, left to right), the
    modules and the subroutines each under one heading; a short one is listed as the engine orders it."""
    if len(legal) < GROUP_FROM:
        return [("", describe_action(state, action), action) for action in legal]
    game = state.game
    terms = game.theme.terms
    grouped: list[tuple[str, str, Action]] = []
    for action in legal:
        if action.kind == MOVE:
            where = state.pos[action.unit]
            head = f"{unit_name(state, action.unit)} ({state.form_of(action.unit).mp} {terms.mp})"
            group = (f"{head} in the {terms.hangar}: deploy to" if where == HANGAR
                     else f"{head} at {node_label(game, where)}: move to")
            grouped.append((group, node_label(game, action.target), action))
        elif action.kind == MODULE:
            label = describe_action(state, action).removeprefix(f"{terms.module} ")
            grouped.append((f"{terms.modules} (one per turn, before the move)", label, action))
        elif action.kind == SUBROUTINE:
            grouped.append((f"{terms.subroutine} (before the move)", describe_action(state, action), action))
        else:
            grouped.append(("or", describe_action(state, action), action))
    first_seen = {group: index for index, (group, _, _) in reversed(list(enumerate(grouped)))}
    spot = {node: coordinate(game, node) for node in range(len(game.node_names))}

    def order(item: tuple[str, str, Action]) -> tuple[int, int, str]:
        group, _, action = item
        if action.kind != MOVE:
            return (first_seen[group], 0, "")
        where = spot[action.target]
        return (first_seen[group], int(where[1:]) if where[1:].isdigit() else 0, where)
    return sorted(grouped, key=order)


def game_of_record(database: Database, record: Record, rules: Rules, hint: str = "") -> GameTables:
    """The game a record was played in, rebuilt from this data; refused when the data has changed since (`hint`
    ends that message with what the caller can do about it)."""
    squad_a, squad_b = record.header["squads"]
    try:
        game = build_game(squad_a, squad_b, database, rules)
    except SetupError as exc:
        raise DuelkitError(str(exc)) from None
    if game.data_hash != record.header["data_hash"]:
        raise DuelkitError(f"the unit or module data has changed since this game was recorded "
                           f"(data hash {game.data_hash}, recorded {safe(record.header['data_hash'], 40)}){hint}")
    return game


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
    game = game_of_record(database, record, rules, "; replay it against the data it was played with (--data DIR)")
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

