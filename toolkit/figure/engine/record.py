"""GameTables records as JSON lines, and replay that re-checks every line against the engine.

Line 1 is the header: game, theme, where the data came from and a hash of it, the squads, the rules
switches, seed, players and who moved first. Then one line per action (`{"turn", "player",
"action"}`) and per chance outcome (`{"turn", "spin"}`), and a closing `{"result"}` line with the
final state hash. Units are named by their slot label ("A:sq-7"), nodes by name, modules by id.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from toolkit.errors import DuelkitError
from toolkit.figure.constants import SQUAD_UNITS
from toolkit.figure.engine.actions import (
    ATTACK,
    CHOOSE,
    KIND_NAMES,
    MODULE,
    MOVE,
    PASS,
    RESPIN,
    SUBROUTINE,
    UPGRADE,
    WAKE,
    Action,
    IllegalAction,
)
from toolkit.figure.engine.render_text import safe
from toolkit.figure.engine.rules import Rules, RulesError
from toolkit.figure.engine.state import CHANCE, SPIN_REASONS, GameState
from toolkit.figure.engine.tables import GameTables
from toolkit.players import PLAYERS, Player

RECORD_KIND = "duelkit-game-record"
# 2: re-spin modules are committed in the Module Phase (a version 1 record re-spun without that), results
# count the turns played (a draw at a 300-turn limit: 300).
RECORD_VERSION = 2
GAME_ID = "figure-duel"
MAX_RECORD_BYTES = 50_000_000
MAX_LINE_CHARS = 100_000


class RecordError(DuelkitError):
    """A record that cannot be read (not JSON lines, missing fields, unknown names), located by line."""


# ---- actions <-> JSON ---------------------------------------------------------------------------------


def action_to_json(state: GameState, action: Action) -> dict[str, Any]:
    game = state.game
    label = _labeller(game)
    kind = action.kind
    data: dict[str, Any] = {"kind": KIND_NAMES[kind]}
    if kind in (MOVE, CHOOSE):
        data |= {"unit": label(action.unit), "to": game.node_names[action.target]}
    elif kind in (ATTACK, SUBROUTINE):
        data["unit"] = label(action.unit)
        if action.target >= 0:
            data["target"] = label(action.target)
    elif kind in (WAKE, UPGRADE):
        data["unit"] = label(action.unit)
    elif kind == MODULE:
        side = state.current_player
        data |= {"module": game.modules[side][action.unit].id,
                 "units": [label(s) for s in (action.target, action.extra) if s >= 0]}
    elif kind == RESPIN:
        side = action.target // SQUAD_UNITS
        data |= {"module": game.modules[side][action.unit].id, "unit": label(action.target)}
    return data


def action_from_json(state: GameState, data: Any) -> Action:
    """The Action a record line names; RecordError when it names nothing in this game."""
    game = state.game
    if not isinstance(data, dict) or data.get("kind") not in KIND_NAMES:
        raise RecordError(f"an action needs a 'kind' (one of {', '.join(KIND_NAMES)})")
    kind = KIND_NAMES.index(data["kind"])
    slot_of = _slot_finder(game)
    if kind == PASS:
        return Action(PASS)
    if kind in (MOVE, CHOOSE):
        return Action(kind, slot_of(data.get("unit")), _node(game, data.get("to")))
    if kind in (ATTACK, SUBROUTINE):
        target = data.get("target")
        return Action(kind, slot_of(data.get("unit")), -1 if target is None else slot_of(target))
    if kind in (WAKE, UPGRADE):
        return Action(kind, slot_of(data.get("unit")))
    if kind == RESPIN:
        slot = slot_of(data.get("unit"))
        return Action(RESPIN, _module_index(game, slot // SQUAD_UNITS, data.get("module")), slot)
    units = data.get("units", [])
    if not isinstance(units, list) or len(units) > 2:
        raise RecordError("a module action names at most two 'units'")
    slots = [slot_of(u) for u in units] + [-1, -1]
    side = state.current_player if state.current_player in (0, 1) else 0
    return Action(MODULE, _module_index(game, side, data.get("module")), slots[0], slots[1])


def _labeller(game: GameTables) -> Callable[[int], str]:
    return lambda slot: game.slots[slot].label


def _slot_finder(game: GameTables) -> Callable[[object], int]:
    labels = {slot.label: slot.index for slot in game.slots}

    def find(label: object) -> int:
        if not isinstance(label, str) or label not in labels:
            raise RecordError(f"no unit {safe(repr(label), 60)} in this game")
        return labels[label]
    return find


def _node(game: GameTables, name: Any) -> int:
    if not isinstance(name, str) or name not in game.node_index:
        raise RecordError(f"no node {safe(repr(name), 60)} on the board")
    return game.node_index[name]


def _module_index(game: GameTables, side: int, module_id: Any) -> int:
    ids = [m.id for m in game.modules[side]]
    if module_id not in ids:
        raise RecordError(f"side {PLAYERS[side].value} has no module {safe(repr(module_id), 60)}")
    return ids.index(module_id)


# ---- writing ----------------------------------------------------------------------------------------------


@dataclass
class Recorder:
    """Collects a game's lines; pass `on_step` to `play_out` and call `finish` at the end."""

    header: dict[str, Any]
    lines: list[dict[str, Any]] = field(default_factory=list)

    def on_step(self, state: GameState, step: Action | int) -> None:
        turn = state.turn + 1
        if state.current_player == CHANCE:
            assert isinstance(step, int)
            reason, slot = state.spin  # type: ignore[misc]
            segment = state._spin_table().segments[step]
            self.lines.append({"turn": turn, "spin": {
                "unit": state.game.slots[slot].label, "segment": step, "move": segment.move,
                "why": SPIN_REASONS[reason]}})
        else:
            assert isinstance(step, Action)
            self.lines.append({"turn": turn, "player": PLAYERS[state.current_player].value,
                               "action": action_to_json(state, step)})

    def finish(self, state: GameState) -> None:
        self.lines.append({"result": result_json(state)})

    def text(self) -> str:
        rows = [self.header, *self.lines]
        return "".join(json.dumps(row, ensure_ascii=True, separators=(", ", ": ")) + "\n" for row in rows)


def make_header(game: GameTables, *, data: str | None, seed: int | None, players: list[str], first: Player,
                ) -> dict[str, Any]:
    return {
        "record": RECORD_KIND, "version": RECORD_VERSION, "game": GAME_ID, "theme": game.theme.id,
        "data": data, "data_hash": game.data_hash, "squads": list(game.squad_ids), "rules": game.rules.as_dict(),
        "seed": seed, "players": players, "first": first.value,
    }


def result_json(state: GameState) -> dict[str, Any]:
    outcome = state.outcome()
    winner = None if outcome is None else ("draw" if outcome.winner is None else outcome.winner.value)
    return {"winner": winner, "reason": None if outcome is None else outcome.reason, "turns": state.turns_played(),
            "state_hash": state.state_hash()}


# ---- reading and replaying ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Record:
    """A record's header, checked, and its text: the lines after the header are parsed one at a time by
    `rows()` as the replay reaches them, so a file of millions of short lines costs no more memory than its
    text (the replay stops at the first line that does not fit the game)."""

    header: dict[str, Any]
    text: str = field(repr=False)
    start: int = 0  # where the line after the header starts in `text`
    start_line: int = 2

    def rows(self) -> Iterator[tuple[int, dict[str, Any]]]:
        """(line number, parsed line) for every line after the header that is not blank; RecordError at the
        first line that is not a JSON object (or longer than MAX_LINE_CHARS)."""
        number, position = self.start_line - 1, self.start  # the line `position` is on
        for match in _LINE.finditer(self.text, position):
            number += self.text.count("\n", position, match.start())
            position = match.start()
            if match.group().strip():
                yield number, _parse_line(number, match.group())


_LINE = re.compile(r"[^\n]+")  # a line that is not empty; the line breaks between are counted, not split


def _parse_line(number: int, line: str) -> dict[str, Any]:
    if len(line) > MAX_LINE_CHARS:
        raise RecordError(f"line {number}: longer than {MAX_LINE_CHARS:,} characters; no line of a game record is")
    try:
        row = json.loads(line)
    except (ValueError, RecursionError) as exc:  # ValueError: also an integer of over 4,300 digits
        raise RecordError(f"line {number}: not JSON ({safe(str(exc), 100)})") from None
    if not isinstance(row, dict):
        raise RecordError(f"line {number}: expected a JSON object")
    return row


def parse_record(text: str) -> Record:
    """The header of a JSON-lines record, checked; RecordError names the line that is wrong. The other
    lines are read by `Record.rows()`."""
    if len(text) > MAX_RECORD_BYTES:
        raise RecordError(f"the record is larger than {MAX_RECORD_BYTES // 1_000_000} MB")
    match = _LINE.search(text)
    while match is not None and not match.group().strip():
        match = _LINE.search(text, match.end())
    if match is None:
        raise RecordError("the record is empty")
    number = text.count("\n", 0, match.start()) + 1
    header = _parse_line(number, match.group())
    _check_header(number, header)
    return Record(header, text, match.end(), number + 1)


def _check_header(number: int, header: dict[str, Any]) -> None:
    """RecordError unless the header names a record of this version, its theme, squads, rules and first player."""
    if header.get("record") != RECORD_KIND:
        raise RecordError(f"line {number}: not a duelkit game record (the header lacks \"record\": \"{RECORD_KIND}\")")
    if header.get("version") != RECORD_VERSION:
        raise RecordError(f"line {number}: record version {safe(repr(header.get('version')), 20)} is not supported "
                          f"(this duelkit reads version {RECORD_VERSION})")
    for key, kind in (("theme", str), ("squads", list), ("rules", dict), ("data_hash", str)):
        if not isinstance(header.get(key), kind):
            raise RecordError(f"line {number}: the header needs '{key}'")
    squads = header["squads"]
    if len(squads) != 2 or not all(isinstance(s, str) for s in squads):
        raise RecordError(f"line {number}: 'squads' names two squads")
    if header.get("first") not in PLAYERS:  # "A" or "B" (Player is a str enum)
        raise RecordError(f"line {number}: 'first' is \"A\" or \"B\"")


def record_rules(record: Record) -> Rules:
    try:
        return Rules.from_dict(record.header["rules"])
    except (RulesError, TypeError) as exc:
        raise RecordError(f"line {record.start_line - 1}: {safe(str(exc), 300)}") from None


@dataclass
class Divergence:
    line: int
    message: str


@dataclass
class Replay:
    state: GameState
    checked: int  # lines checked after the header
    divergence: Divergence | None = None
    at_turn: GameState | None = None  # the state at the start of the requested turn
    result_matches: bool | None = None  # None: the record has no result line


def replay(record: Record, game: GameTables, until_turn: int | None = None) -> Replay:
    """Re-play every line against `legal_actions` / `chance_outcomes`; stop at the first divergence."""
    state = GameState.initial(game, Player(record.header["first"]))
    result = Replay(state, 0)
    for number, row in record.rows():
        if until_turn is not None and result.at_turn is None and state.turn + 1 >= until_turn:
            result.at_turn = state.clone()
        problem = replay_line(state, row)
        if problem == "result":
            expected = row["result"]
            result.result_matches = isinstance(expected, dict) and expected == result_json(state)
            if not result.result_matches:
                result.divergence = Divergence(number, "the recorded result differs from the replay's: "
                                                       f"recorded {safe(json.dumps(expected), 200)}, replayed "
                                                       f"{json.dumps(result_json(state))}")
            result.checked += 1
            return result
        if problem:
            result.divergence = Divergence(number, problem)
            return result
        result.checked += 1
    return result


def replay_line(state: GameState, row: dict[str, Any]) -> str | None:
    """None when the line replays; "result" for the closing line; otherwise what is wrong with it."""
    if "result" in row:
        return "result"
    turn = row.get("turn")
    if turn != state.turn + 1:
        return f"the line is for turn {safe(repr(turn), 20)} but the game is at turn {state.turn + 1}"
    if state.is_terminal():
        return "the game was already over"
    if "spin" in row:
        return _replay_spin(state, row["spin"])
    if "action" in row:
        return _replay_action(state, row)
    return "the line is neither an action, a spin nor the result"


def _replay_spin(state: GameState, spin: object) -> str | None:
    """Apply a recorded chance outcome; what is wrong with it, if anything."""
    if state.current_player != CHANCE:
        return f"a spin is recorded but player {PLAYERS[state.current_player].value} is to act"
    if not isinstance(spin, dict) or type(spin.get("segment")) is not int:
        return "a spin line needs a whole-number 'segment'"
    _, slot = state.spin  # type: ignore[misc]
    if spin.get("unit") != state.game.slots[slot].label:
        return (f"the spin is recorded for {safe(repr(spin.get('unit')), 60)} but "
                f"{state.game.slots[slot].label} spins here")
    try:
        state.apply(spin["segment"])
    except IllegalAction:
        return f"segment {safe(str(spin['segment']), 20)} is not an outcome of this spin"
    return None


def _replay_action(state: GameState, row: dict[str, Any]) -> str | None:
    """Apply a recorded player action; what is wrong with it, if anything."""
    player = row.get("player")
    if state.current_player == CHANCE:
        return "an action is recorded but a spin is due"
    if player != PLAYERS[state.current_player].value:
        return f"the action is recorded for player {safe(repr(player), 20)} but " \
               f"{PLAYERS[state.current_player].value} is to act"
    try:
        action = action_from_json(state, row["action"])
        state.apply(action)
    except RecordError as exc:
        return str(exc)
    except IllegalAction:
        return f"{safe(json.dumps(row['action']), 200)} is not a legal action here"
    return None
