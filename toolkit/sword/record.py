"""Sword-duel records: JSON lines that `duelkit replay` re-checks step by step. Pure text in, text out.

Line 1 is the header (game, format, a hash of the technique data, seed, the players as Challenger and
Defender). Then the draft's steps (`{"draft": kind, "by": "A"|"B"|null, "cards": [...]}`) or the fixed
hands (`{"hand": "A", "cards": [...]}`), the builds (`{"build": "A", "speed": 2, ...}`), one line per turn
with both secret choices (`{"turn": 1, "A": {...}, "B": {...}}`) and the result with the final state's
digest. Replay stops at the first line that does not follow the rules and names it.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from toolkit.errors import DuelkitError
from toolkit.players import PLAYERS, Player
from toolkit.sword import constants
from toolkit.sword.engine.draft import STEPS, DraftError, DraftState, new_draft
from toolkit.sword.engine.duel import (
    Attributes,
    Choice,
    DuelState,
    draw_by_time,
    new_duel,
    resolve_turn,
    validate_build,
)
from toolkit.sword.model import Technique
from toolkit.sword.rules.positions import Move
from toolkit.sword.rules.state import Action, InsightTarget, SwordRulesError

FORMAT = 1
GAME = "sword-duel"


def data_hash(techniques: dict[str, Technique], deck: tuple[str, ...]) -> str:
    """What the rules read: every technique's effects and evade (not its art), and the draft deck."""
    text = json.dumps({"techniques": {tid: t.model_dump(mode="json") for tid, t in sorted(techniques.items())},
                       "deck": sorted(deck)}, sort_keys=True)
    return hashlib.blake2b(text.encode(), digest_size=12).hexdigest()


def state_digest(state: DuelState) -> str:
    """A short digest of everything a duel's state holds (the final line checks it)."""
    parts: list[object] = [state.turn, state.range.value, None if state.result is None else
             (state.result.winner and state.result.winner.value, state.result.reason.value)]
    for p in state.players:
        parts.append([p.attributes.speed, p.attributes.strength, p.attributes.defense, p.techniques[0].id,
                      p.techniques[1].id, p.momentum, p.balance, p.health,
                      [p.knows.speed, p.knows.strength, p.knows.defense, p.knows.technique]])
    return hashlib.blake2b(json.dumps(parts).encode(), digest_size=8).hexdigest()


def choice_json(choice: Choice) -> dict[str, Any]:
    out: dict[str, Any] = {"move": choice.move.value, "technique": choice.technique}
    if choice.action is not None:
        out["action"] = choice.action.value
    if choice.insight is not None:
        out["insight"] = choice.insight.value
    if choice.evade:
        out["evade"] = True
    if choice.evade_with is not None:
        out["evade_with"] = choice.evade_with
    if choice.special_evade:
        out["special_evade"] = True
    if choice.reset:
        out["reset"] = True
    return out


def choice_from(data: Any) -> Choice:
    """A Choice from its JSON; ValueError naming what is wrong."""
    if not isinstance(data, dict):
        raise ValueError("a choice is a JSON object")
    known = {"move", "technique", "action", "insight", "evade", "evade_with", "special_evade", "reset"}
    unknown = set(data) - known
    if unknown:
        raise ValueError(f"unknown key(s) {', '.join(sorted(str(k)[:20] for k in unknown))}")
    try:
        technique = data.get("technique", 0)
        if not isinstance(technique, int) or isinstance(technique, bool):
            raise ValueError("technique is 0 or 1")
        flags = [data.get(key, False) for key in ("evade", "special_evade", "reset")]
        if not all(isinstance(flag, bool) for flag in flags):
            raise ValueError("evade, special_evade and reset are true or false")
        evade_with = data.get("evade_with")
        if evade_with not in (None, "momentum", "balance"):
            raise ValueError("evade_with is momentum or balance")
        action = data.get("action")
        insight = data.get("insight")
        return Choice(Move(data.get("move", "stay")), None if action is None else Action(action), technique,
                      flags[0], evade_with, flags[1], None if insight is None else InsightTarget(insight), flags[2])
    except (ValueError, TypeError) as exc:
        raise ValueError(f"not a choice: {str(exc)[:80]}") from None


class RecordWriter:
    """Collects a duel's lines as it is played."""

    def __init__(self, data_hash_: str, data: str | None, seed: int, players: list[str], honor: bool = True) -> None:
        self.lines = [json.dumps({"game": GAME, "format": FORMAT, "data_hash": data_hash_, "data": data,
                                  "seed": seed, "players": players, "turn_limit": constants.TURN_LIMIT,
                                  "honor": honor})]

    def draft(self, who: Player | None, kind: str, cards: tuple[str, ...]) -> None:
        self.lines.append(json.dumps({"draft": kind, "by": None if who is None else who.value, "cards": list(cards)}))

    def hand(self, who: Player, cards: tuple[str, str]) -> None:
        self.lines.append(json.dumps({"hand": who.value, "cards": list(cards)}))

    def build(self, who: Player, build: Attributes) -> None:
        self.lines.append(json.dumps({"build": who.value, "speed": build.speed, "strength": build.strength,
                                      "defense": build.defense}))

    def turn(self, number: int, choices: tuple[Choice, Choice]) -> None:
        self.lines.append(json.dumps({"turn": number, "A": choice_json(choices[0]), "B": choice_json(choices[1])}))

    def finish(self, state: DuelState) -> None:
        result = state.result
        assert result is not None
        self.lines.append(json.dumps({"result": {"winner": None if result.winner is None else result.winner.value,
                                                 "reason": result.reason.value, "turn": state.turn},
                                      "state": state_digest(state)}))

    def text(self) -> str:
        return "\n".join(self.lines) + "\n"


class Divergence(DuelkitError):
    """A record line that does not replay: its number (from 1) and why."""

    def __init__(self, line: int, message: str) -> None:
        super().__init__(f"{line}: {message}")
        self.line = line


@dataclass
class Replayed:
    header: dict[str, Any]
    state: DuelState | None  # None when the record stops before the duel starts
    events: list[str]  # the turn log, with the turn numbers


@dataclass(frozen=True)
class Step:
    """One checked record line and the duel after it (the studio's replay page draws these)."""

    line: int
    item: dict[str, Any]
    draft: DraftState | None
    hands: dict[Player, tuple[str, str]]
    builds: dict[Player, Attributes]
    state: DuelState | None
    events: tuple[str, ...]  # what this line's turn did


def replay(text: str, techniques: dict[str, Technique], deck: tuple[str, ...],
           upto_turn: int | None = None, visit: Callable[[Step], None] | None = None) -> Replayed:
    """Re-check every line; raise Divergence at the first that does not follow the rules. `visit` sees each
    line that follows them."""
    lines = text.splitlines()
    try:
        header = json.loads(lines[0]) if lines else None
    except (ValueError, RecursionError):
        header = None
    if not isinstance(header, dict) or header.get("game") != GAME:
        raise Divergence(1, "not a sword-duel record (the first line must be its JSON header with \"game\": "
                            "\"sword-duel\")")
    if header.get("format") != FORMAT:
        raise Divergence(1, f"record format {str(header.get('format'))[:10]} is not {FORMAT}")
    honor = header.get("honor", True)
    if not isinstance(honor, bool):
        raise Divergence(1, "honor is true or false")
    checker = _Checker(techniques, deck, honor)
    for number, line in enumerate(lines[1:], start=2):
        if not line.strip():
            continue
        try:
            item = json.loads(line)
            if not isinstance(item, dict):
                raise ValueError("not a JSON object")
            before = len(checker.events)
            checker.step(item, upto_turn)
        except Divergence:
            raise
        except (ValueError, KeyError, TypeError, RecursionError, SwordRulesError, DraftError) as exc:
            raise Divergence(number, str(exc)[:300]) from None
        if checker.stopped:
            break
        if visit is not None:
            visit(Step(number, item, checker.draft, dict(checker.hands), dict(checker.builds), checker.state,
                       tuple(checker.events[before:])))
    if not checker.stopped and checker.finished is False:
        raise Divergence(len(lines), "the record ends before the duel does")
    return Replayed(header, checker.state, checker.events)


class _Checker:
    """Applies record lines one at a time."""

    def __init__(self, techniques: dict[str, Technique], deck: tuple[str, ...], honor: bool) -> None:
        self.techniques = techniques
        self.honor = honor
        self.draft: DraftState | None = None
        self.deck = deck
        self.hands: dict[Player, tuple[str, str]] = {}
        self.builds: dict[Player, Attributes] = {}
        self.state: DuelState | None = None
        self.events: list[str] = []
        self.finished = False
        self.stopped = False

    def step(self, item: dict[str, Any], upto_turn: int | None) -> None:
        if self.finished:
            raise ValueError("a line after the result")
        if "draft" in item:
            self._draft(item)
        elif "hand" in item:
            who = Player(item["hand"])
            cards = item["cards"]
            if not (isinstance(cards, list) and len(cards) == 2 and all(c in self.techniques for c in cards)):
                raise ValueError("a hand is two technique ids of this project")
            self.hands[who] = (cards[0], cards[1])
        elif "build" in item:
            who = Player(item["build"])
            self.builds[who] = validate_build(Attributes(item["speed"], item["strength"], item["defense"]))
        elif "turn" in item:
            self._turn(item, upto_turn)
        elif "result" in item:
            self._result(item)
        else:
            raise ValueError("a line that is none of draft, hand, build, turn, result")

    def _draft(self, item: dict[str, Any]) -> None:
        if self.draft is None:
            self.draft = new_draft(self.deck)
        who, kind, _ = self.draft.to_act()
        by = item.get("by")
        if item["draft"] != kind or by != (None if who is None else who.value):
            raise ValueError(f"the draft's next step is {kind} by {'chance' if who is None else who.value}")
        cards = item["cards"]
        if not isinstance(cards, list) or not all(isinstance(c, str) for c in cards):
            raise ValueError("cards is a list of technique ids")
        self.draft = self.draft.apply(tuple(cards))
        if self.draft.done:
            self.hands = {p: (self.draft.picks[p.seat][0], self.draft.picks[p.seat][1]) for p in PLAYERS}

    def _start(self) -> DuelState:
        if self.state is None:
            if len(self.hands) != 2 or len(self.builds) != 2:
                raise ValueError("a turn before both hands and both builds are set")
            techs = {p: [self.techniques[c] for c in self.hands[p]] for p in PLAYERS}
            self.state = new_duel(self.builds[Player.A], techs[Player.A], self.builds[Player.B], techs[Player.B],
                                  self.honor)
        return self.state

    def _turn(self, item: dict[str, Any], upto_turn: int | None) -> None:
        state = self._start()
        if item["turn"] != state.turn:
            raise ValueError(f"turn {str(item['turn'])[:10]} where turn {state.turn} was due")
        if state.turn > constants.TURN_LIMIT:
            raise ValueError(f"turn {state.turn}: the duel ended by time after turn {constants.TURN_LIMIT}")
        if upto_turn is not None and state.turn >= upto_turn:
            self.stopped = True
            return
        turn = resolve_turn(state, choice_from(item["A"]), choice_from(item["B"]))
        self.state = turn.state
        self.events += turn.events

    def _result(self, item: dict[str, Any]) -> None:
        state = self._start()
        if state.result is None and state.turn > constants.TURN_LIMIT:
            state = self.state = draw_by_time(state)
        result = state.result
        if result is None:
            raise ValueError("a result before the duel ended")
        expected = {"winner": None if result.winner is None else result.winner.value, "reason": result.reason.value,
                    "turn": state.turn}
        if item["result"] != expected:
            raise ValueError(f"the record says {json.dumps(item['result'])[:120]}; the rules give "
                             f"{json.dumps(expected)}")
        if item.get("state") != state_digest(state):
            raise ValueError("the final state differs from the recorded one")
        self.finished = True


__all__ = ["FORMAT", "GAME", "STEPS", "Divergence", "RecordWriter", "Replayed", "Step", "choice_from", "choice_json",
           "data_hash", "replay", "state_digest"]
