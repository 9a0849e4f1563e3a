"""The sword duel in the browser, on the engine in `toolkit/sword/engine`: the draft (`engine/draft.py`, the
spec's state machine), secret builds, then turns of secret choices revealed together. Computer seats are the
command line's players (`toolkit.sword.bots.make_bot`: random, greedy, equilibrium), seeing only what an
`Observation` lets them see. Pure: no I/O, seeded randomness only.

The seeds are `duelkit play`'s: the draft's chance steps from `derive(seed, "dice")`, each player's own
stream from `derive(seed, "player", seat)`; so the same seed and the same human decisions give the same duel
and the same record as `duelkit play --record`, and the record replays under `duelkit replay`. What each
player sees is what the rules let them see (`view.py`).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from toolkit.players import PLAYERS, Player
from toolkit.problems import DuelkitError
from toolkit.selfplay.stats import derive
from toolkit.sword import constants
from toolkit.sword.bots import BOT_NAMES, SwordBot, make_bot
from toolkit.sword.bots.observation import Observation, revealed_techniques
from toolkit.sword.context import SwordDatabase
from toolkit.sword.engine.draft import DraftState, StepKind, new_draft, opponent_hands
from toolkit.sword.engine.duel import (
    Action,
    Attributes,
    Choice,
    DuelState,
    InsightTarget,
    draw_by_time,
    illegal_reason,
    legal_builds,
    new_duel,
    resolve_turn,
)
from toolkit.sword.model import Technique
from toolkit.sword.record import RecordWriter, data_hash
from toolkit.sword.rules.positions import Move
from toolkit.web.table import HUMAN, Table, TableRequest, TableView

COMPUTERS = BOT_NAMES
MIN_DRAFT = 7  # the spec's draft removes 1, takes 4 and discards at least 2


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
    draft: DraftState
    writer: RecordWriter
    bots: tuple[SwordBot | None, SwordBot | None]
    rngs: tuple[random.Random, random.Random]  # each player's own stream (`play`'s)
    dice: random.Random  # the draft's chance steps
    builds: list[Attributes | None] = field(default_factory=lambda: [None, None])
    duel: DuelState | None = None
    chosen: list[Choice | None] = field(default_factory=lambda: [None, None])
    turns: list[TurnLog] = field(default_factory=list)
    beliefs: tuple[tuple[tuple[str, str], ...], ...] = ((), ())  # the hands each player knows the other may hold
    revealed: tuple[set[str], set[str]] = field(default_factory=lambda: (set(), set()))
    facing: int | None = None  # hot-seat: the seat whose secrets the device shows now (None: the curtain)
    version: int = 0
    writes_record = True

    @classmethod
    def start(cls, database: SwordDatabase, request: TableRequest) -> SwordTable:
        if database.has_errors:
            raise DuelkitError("the sword-duel data has problems: fix them first")
        deck = tuple(t.id for t in database.draft_techniques())
        if len(deck) < MIN_DRAFT:
            raise DuelkitError(f"the draft needs at least {MIN_DRAFT} technique cards, the data has {len(deck)}")
        bots = tuple(None if name == HUMAN else make_bot(name) for name in request.players)
        rngs = tuple(random.Random(derive(request.seed, "player", seat)) for seat in (0, 1))
        writer = RecordWriter(data_hash(database.techniques, deck), request.data, request.seed,
                              list(request.players))
        table = cls(database, request.players, request.seed, new_draft(deck), writer, (bots[0], bots[1]),
                    (rngs[0], rngs[1]), random.Random(derive(request.seed, "dice")))
        table._chance()
        return table

    # ---- phases -------------------------------------------------------------------------------------------

    @property
    def phase(self) -> str:
        if not self.draft.done:
            return "draft"
        if self.duel is None:
            return "build"
        return "over" if self.duel.result is not None else "turn"

    def drafting(self) -> StepKind:
        """What the draft's next decision is: "pick" or "discard"."""
        return self.draft.to_act()[1]

    @property
    def pool(self) -> tuple[str, ...]:
        """The deck the drafting player holds now."""
        return self.draft.options() if not self.draft.done else ()

    @property
    def picks(self) -> tuple[tuple[str, ...], tuple[str, ...]]:
        return self.draft.picks

    def discarded(self) -> int:
        """Cards out of the draft so far (removed or discarded face down)."""
        return len(self.draft.full) - len(self.draft.deck) - sum(len(p) for p in self.draft.picks)

    def waiting_for(self) -> list[int]:
        """The seats whose decision the table waits on now."""
        phase = self.phase
        if phase == "draft":
            who = self.draft.to_act()[0]
            return [] if who is None else [who.seat]
        if phase == "build":
            return [seat for seat in (0, 1) if self.builds[seat] is None]
        if phase == "turn":
            return [seat for seat in (0, 1) if self.chosen[seat] is None]
        return []

    def technique(self, technique_id: str) -> Technique:
        return self.database.techniques[technique_id]

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
            self._draft(seat, form.get("card", ""))
        elif phase == "build":
            self._build(seat, _build_from_form(form))
        else:
            self._choose(seat, choice_from_form(form))
        self.facing = seat if self.waiting_for() == [seat] else None  # the same player decides again: no curtain
        self.version += 1

    def _draft(self, seat: int, card: str) -> None:
        """The draft's next step for `seat`: take the card, or (the Challenger's) discard it."""
        if card not in self.pool:
            raise DuelkitError("that card is not in the deck you were passed")
        who, kind, _ = self.draft.to_act()
        assert who is not None
        assert who.seat == seat
        self.writer.draft(who, kind, (card,))
        self.draft = self.draft.apply((card,))
        self._chance()

    def _chance(self) -> None:
        """The draft's chance steps (the random removal, the Defender's two random discards), as `play` takes
        them; at the draft's end, what each player can tell of the other's hand."""
        while not self.draft.done and self.draft.to_act()[0] is None:
            _, kind, count = self.draft.to_act()
            cards = tuple(sorted(self.dice.sample(self.draft.options(), count)))
            self.writer.draft(None, kind, cards)
            self.draft = self.draft.apply(cards)
        if self.draft.done and not self.beliefs[0]:
            self.beliefs = (opponent_hands(self.draft, Player.A), opponent_hands(self.draft, Player.B))

    def _build(self, seat: int, build: Attributes) -> None:
        if build not in legal_builds():
            raise DuelkitError(f"Speed + Strength + Defense must be {constants.BUILD_TOTAL}, each "
                               f"{constants.ATTRIBUTE_MIN}..{constants.ATTRIBUTE_MAX}")
        self.builds[seat] = build
        a, b = self.builds
        if a is not None and b is not None:
            self.writer.build(Player.A, a)
            self.writer.build(Player.B, b)
            hands = [[self.technique(t) for t in self.picks[s]] for s in (0, 1)]
            self.duel = new_duel(a, hands[0], b, hands[1])

    def _choose(self, seat: int, choice: Choice) -> None:
        assert self.duel is not None
        reason = illegal_reason(self.duel, PLAYERS[seat], choice)
        if reason:
            raise DuelkitError(reason)
        self.chosen[seat] = choice
        self._reveal_if_both()

    def _reveal_if_both(self) -> None:
        a, b = self.chosen
        if a is None or b is None or self.duel is None:
            return
        self.writer.turn(self.duel.turn, (a, b))
        result = resolve_turn(self.duel, a, b)
        self.turns.append(TurnLog(self.duel.turn, (a, b), result.events))
        state = result.state
        for seat, shown in enumerate(revealed_techniques(state, (a, b))):
            if shown is not None:
                self.revealed[1 - seat].add(shown)
        if state.result is None and state.turn > constants.TURN_LIMIT:
            state = draw_by_time(state)
            self.turns[-1].events += (f"The duel is a draw (time: {constants.TURN_LIMIT} turns).",)
        self.duel = state
        self.chosen = [None, None]
        if state.result is not None:
            self.writer.finish(state)

    def computer_next(self) -> bool:
        """Whether a computer seat has a decision to make now."""
        return any(self.bots[seat] is not None for seat in self.waiting_for())

    def computer_turn(self) -> bool:
        """Every computer seat with a decision to make decides (its choice stays hidden until the reveal)."""
        changed = False
        for _ in range(20):  # draft steps come one at a time; a human's decision stops the loop
            bots = [seat for seat in self.waiting_for() if self.bots[seat] is not None]
            if not bots:
                break
            for seat in bots:
                self._bot_decides(seat)
            changed = True
        if changed:
            self.version += 1
        return changed

    def _bot_decides(self, seat: int) -> None:
        bot, rng = self.bots[seat], self.rngs[seat]
        assert bot is not None
        phase = self.phase
        if phase == "draft":
            self._draft(seat, bot.draft(self.draft, self.database.techniques, rng))
        elif phase == "build":
            self._build(seat, bot.build(rng))
        else:
            assert self.duel is not None
            player = PLAYERS[seat]
            seen = Observation(player, self.duel, self.beliefs[seat], frozenset(self.revealed[seat]),
                               dict(self.database.techniques))
            self._choose(seat, bot.choose(seen, rng))

    def record(self) -> str:
        """The duel so far as `duelkit play --record` writes it (complete once the duel is over)."""
        return self.writer.text()

    def view(self, seats: frozenset[int], hotseat: bool) -> TableView:
        from toolkit.sword.web.view import render

        return render(self, seats, hotseat)


def _build_from_form(form: dict[str, str]) -> Attributes:
    try:
        return Attributes(*(int(form.get(name, "")) for name in ("speed", "strength", "defense")))
    except ValueError:
        raise DuelkitError("a build is three whole numbers: Speed, Strength, Defense") from None


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
