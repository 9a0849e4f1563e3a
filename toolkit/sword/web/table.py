"""The sword duel in the browser, on the engine in `toolkit/sword/engine`: the draft, secret builds, then turns
of secret choices revealed together. Pure: no I/O, seeded randomness only.

The draft follows spec 002: one card removed at random, then Challenger, Defender, Challenger, Defender each
pick one; the Defender's two discards are random as the spec says, the Challenger's one discard is its own
choice (the spec says "randomly" only for the Defender's). What each player sees is what the
rules let them see (`view.py`): their own cards and build, the opponent's revealed cards, and the results
of their own Insight only.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import cast

from toolkit.players import PLAYERS
from toolkit.problems import DuelkitError
from toolkit.sword import constants
from toolkit.sword.context import SwordDatabase
from toolkit.sword.engine.duel import (
    Action,
    Attributes,
    Choice,
    DuelState,
    InsightTarget,
    draw_by_time,
    illegal_reason,
    legal_builds,
    legal_choices,
    new_duel,
    resolve_turn,
)
from toolkit.sword.model import Technique
from toolkit.sword.rules.positions import Move
from toolkit.sword.rules.state import HasAttributes
from toolkit.web.table import HUMAN, Table, TableRequest, TableView

COMPUTERS = ("random",)
# The draft after the first random removal: (seat, what): a pick, the Challenger's own discard, or (None) the
# Defender's two random discards; the Defender's last pick discards the rest.
DRAFT_STEPS: tuple[tuple[int | None, str], ...] = ((0, "pick"), (1, "pick"), (None, "discard 2"), (0, "pick"),
                                                   (0, "discard"), (1, "pick"))


@dataclass
class TurnLog:
    """One revealed turn: the engine's events and the two choices."""

    number: int
    choices: tuple[Choice, Choice]
    events: tuple[str, ...]


@dataclass
class SwordTable(Table):
    database: SwordDatabase
    players: tuple[str, str]
    seed: int
    pool: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    picks: tuple[list[str], list[str]] = field(default_factory=lambda: ([], []))
    step: int = 0  # the next step of DRAFT_STEPS
    builds: list[Attributes | None] = field(default_factory=lambda: [None, None])
    duel: DuelState | None = None
    chosen: list[Choice | None] = field(default_factory=lambda: [None, None])
    turns: list[TurnLog] = field(default_factory=list)
    facing: int | None = None  # hot-seat: the seat whose secrets the device shows now (None: the curtain)
    version: int = 0

    @classmethod
    def start(cls, database: SwordDatabase, request: TableRequest) -> SwordTable:
        if database.has_errors:
            raise DuelkitError("the sword-duel data has problems: fix them first")
        deck = [t.id for t in database.draft_techniques()]
        if len(deck) < 5:
            raise DuelkitError(f"the draft needs at least 5 technique cards, the data has {len(deck)}")
        table = cls(database, request.players, request.seed, pool=deck)
        table.removed.append(table._draw("remove"))
        table._computers()
        return table

    # ---- phases -------------------------------------------------------------------------------------------

    @property
    def phase(self) -> str:
        if self.step < len(DRAFT_STEPS):
            return "draft"
        if None in self.builds:
            return "build"
        assert self.duel is not None
        return "over" if self.duel.result is not None else "turn"

    def picker(self) -> int:
        seat = DRAFT_STEPS[self.step][0]
        assert seat is not None, "chance steps are taken at once"
        return seat

    def drafting(self) -> str:
        """What the draft's next decision is: "pick" or "discard"."""
        return DRAFT_STEPS[self.step][1]

    def waiting_for(self) -> list[int]:
        """The seats whose decision the table waits on now."""
        phase = self.phase
        if phase == "draft":
            return [self.picker()]
        if phase == "build":
            return [seat for seat in (0, 1) if self.builds[seat] is None]
        if phase == "turn":
            return [seat for seat in (0, 1) if self.chosen[seat] is None]
        return []

    def technique(self, technique_id: str) -> Technique:
        return self.database.techniques[technique_id]

    def _rng(self, what: str) -> random.Random:
        return random.Random(f"{self.seed}:{what}:{len(self.turns)}:{self.step}")

    def _draw(self, why: str) -> str:
        card = self._rng(why + str(len(self.removed))).choice(self.pool)
        self.pool.remove(card)
        return card

    # ---- decisions -------------------------------------------------------------------------------------------

    def act(self, seats: frozenset[int], form: dict[str, str]) -> None:
        if form.get("action") == "show":  # hot-seat: the next player has the device
            wanted = form.get("seat", "")
            if not wanted.isdigit() or int(wanted) not in seats or int(wanted) not in self.waiting_for():
                raise DuelkitError("that player has nothing to choose now")
            self.facing = int(wanted)
            self.version += 1
            return
        humans = [s for s in self.waiting_for() if s in seats and self.players[s] == HUMAN]
        if not humans:
            raise DuelkitError("it is not your turn to choose")
        seat = self.facing if self.facing in humans else humans[0]
        if len(seats) == 2 and self.facing != seat:
            raise DuelkitError("pass the device first: the other player's choice is hidden")
        phase = self.phase
        if phase == "draft":
            self._pick(seat, form.get("card", ""))
        elif phase == "build":
            self._build(seat, form)
        else:
            self._choose(seat, form)
        self.facing = seat if self.waiting_for() == [seat] else None  # the same player decides again: no curtain
        self.version += 1
        self._computers()

    def _pick(self, seat: int, card: str) -> None:
        """The draft's next step for `seat`: take the card, or (the Challenger's) discard it."""
        if card not in self.pool:
            raise DuelkitError("that card is not in the deck you were passed")
        self.pool.remove(card)
        (self.picks[seat] if self.drafting() == "pick" else self.removed).append(card)
        self.step += 1
        while self.step < len(DRAFT_STEPS) and DRAFT_STEPS[self.step][0] is None:  # the Defender's random discards
            self.removed += [self._draw("discard"), self._draw("discard")]
            self.step += 1
        if self.step == len(DRAFT_STEPS):
            self.removed += self.pool
            self.pool = []

    def _build(self, seat: int, form: dict[str, str]) -> None:
        try:
            values = [int(form.get(name, "")) for name in ("speed", "strength", "defense")]
        except ValueError:
            raise DuelkitError("a build is three whole numbers: Speed, Strength, Defense") from None
        build = Attributes(*values)
        if build not in legal_builds():
            raise DuelkitError(f"Speed + Strength + Defense must be {constants.BUILD_TOTAL}, each "
                               f"{constants.ATTRIBUTE_MIN}..{constants.ATTRIBUTE_MAX}")
        self.builds[seat] = build
        if None not in self.builds:
            a, b = (cast(HasAttributes, build) for build in self.builds)  # frozen Attributes are read-only
            self.duel = new_duel(a, [self.technique(t) for t in self.picks[0]],
                                 b, [self.technique(t) for t in self.picks[1]])

    def _choose(self, seat: int, form: dict[str, str]) -> None:
        assert self.duel is not None
        choice = choice_from_form(form)
        reason = illegal_reason(self.duel, PLAYERS[seat], choice)
        if reason:
            raise DuelkitError(reason)
        self.chosen[seat] = choice
        self._reveal_if_both()

    def _reveal_if_both(self) -> None:
        if None in self.chosen or self.duel is None:
            return
        a, b = self.chosen
        assert a is not None
        assert b is not None
        result = resolve_turn(self.duel, a, b)
        self.turns.append(TurnLog(self.duel.turn, (a, b), result.events))
        state = result.state
        if state.result is None and state.turn > constants.TURN_LIMIT:
            state = draw_by_time(state)
            self.turns[-1].events += (f"The duel is a draw (time: {constants.TURN_LIMIT} turns).",)
        self.duel = state
        self.chosen = [None, None]

    def _computers(self) -> None:
        """Computer seats decide at once (their choices stay hidden until the reveal like anyone's)."""
        for _ in range(100):
            bots = [s for s in self.waiting_for() if self.players[s] != HUMAN]
            if not bots:
                return
            seat = bots[0]
            rng = self._rng(f"player{seat}")
            phase = self.phase
            if phase == "draft":
                self._pick(seat, rng.choice(self.pool))
            elif phase == "build":
                build = rng.choice(legal_builds())
                self._build(seat, {"speed": str(build.speed), "strength": str(build.strength),
                                   "defense": str(build.defense)})
            else:
                assert self.duel is not None
                self.chosen[seat] = rng.choice(legal_choices(self.duel, PLAYERS[seat]))
                self._reveal_if_both()
            self.version += 1

    def computer_turn(self) -> bool:
        return False  # computers decide as soon as they may (see `_computers`)

    def view(self, seats: frozenset[int], hotseat: bool) -> TableView:
        from toolkit.sword.web.view import render

        return render(self, seats, hotseat)


def choice_from_form(form: dict[str, str]) -> Choice:
    """A Choice from the form's fields; DuelkitError naming a field that holds no such value."""
    try:
        move = Move(form.get("move", "stay"))
        action_text = form.get("card", "none")
        action = None if action_text == "none" else Action(action_text)
        insight = InsightTarget(form["insight"]) if action is Action.INSIGHT else None
        technique = int(form.get("technique", "0"))
    except (ValueError, KeyError):
        raise DuelkitError("the choice names a card, move or insight that does not exist") from None
    evade = form.get("evade", "none")
    if evade not in ("none", "evade", "momentum", "balance", "special"):
        raise DuelkitError("no such evade declaration")
    return Choice(move=move, action=action, technique=technique, evade=evade != "none",
                  evade_with=evade if evade in ("momentum", "balance") else None,  # type: ignore[arg-type]
                  special_evade=evade == "special", insight=insight, reset=form.get("reset") == "on")
