"""`duelkit play` and `duelkit replay` for the sword duel: the game loop the terminal drives through callbacks.

The terminal reaches this module through `show` (print a line), `choose` (numbered options -> index) and
`handover` (hot-seat: clear the screen and wait until the named player has the seat). A secret choice is
made in steps (technique, movement, card, Insight target, evade, reset) over the legal choices, so no
list runs to 76 lines. With two people at one screen, each secret choice starts with a handover and
nothing of the first choice is shown before the reveal.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any

from toolkit.game import Choose, PlayRequest, ReplayResult, Show
from toolkit.players import PLAYERS, Player
from toolkit.problems import DuelkitError, UsageError
from toolkit.selfplay.stats import derive
from toolkit.sword import constants
from toolkit.sword.bots import RandomBot, SwordBot, make_bot
from toolkit.sword.bots.observation import Observation, revealed_techniques
from toolkit.sword.context import SwordDatabase
from toolkit.sword.engine.draft import DraftState
from toolkit.sword.engine.duel import (
    Attributes,
    Choice,
    DuelState,
    draw_by_time,
    legal_builds,
    legal_choices,
    new_duel,
    resolve_turn,
)
from toolkit.sword.model import Technique
from toolkit.sword.record import Divergence, RecordWriter, data_hash, replay
from toolkit.sword.rules.state import Action
from toolkit.sword.sim.duels import run_draft

Handover = Callable[[str], None]
ROLE = {Player.A: "Challenger", Player.B: "Defender"}


class _Human(RandomBot):
    """A person at the terminal: every decision goes through `choose`."""

    name = "human"

    def __init__(self, seat: Player, db: SwordDatabase, show: Show, choose: Choose, handover: Handover | None) -> None:
        self.seat, self.db, self.show, self.ask, self.handover = seat, db, show, choose, handover

    def _take_seat(self) -> None:
        if self.handover is not None:
            self.handover(f"The {ROLE[self.seat]} ({self.seat.value}) takes the seat; the other player looks away.")

    def build(self, rng: random.Random) -> Attributes:
        del rng  # a person decides
        self._take_seat()
        builds = legal_builds()
        names = {(b.speed, b.strength, b.defense): b.name for b in self.db.builds.values()}
        labels = [f"Speed {b.speed}, Strength {b.strength}, Defense {b.defense}"
                  + (f" ({names[(b.speed, b.strength, b.defense)]})" if (b.speed, b.strength, b.defense) in names
                     else "") for b in builds]
        return builds[self.ask([f"{ROLE[self.seat]}: choose your secret build (Speed + Strength + Defense = 6)."],
                               [("", label) for label in labels])]

    def draft(self, draft: DraftState, techniques: Mapping[str, Technique], rng: random.Random) -> str:
        del techniques, rng
        self._take_seat()
        _, kind, _ = draft.to_act()
        options = draft.options()
        mine = draft.picks[self.seat.seat]
        lines = [f"{ROLE[self.seat]}: the draft. Your techniques so far: {', '.join(mine) or 'none'}.",
                 "Pick a technique to keep." if kind == "pick" else "Discard one technique."]
        labels = [f"{self.db.techniques[card].name}: {' '.join(self.db.techniques[card].rules_text)[:110]}"
                  for card in options]
        return options[self.ask(lines, [("", label) for label in labels])]

    def choose(self, seen: Observation, rng: random.Random) -> Choice:
        del rng
        self._take_seat()
        lines = describe(seen.state, self.seat, seen)
        remaining = legal_choices(seen.state, self.seat)
        me = seen.state.players[self.seat.seat]
        steps: list[tuple[str, Callable[[Choice], Any], Callable[[Any], str]]] = [
            ("Which technique do you play face down?", lambda c: c.technique, lambda v: me.techniques[v].name),
            ("Movement card?", lambda c: c.move, lambda v: {"stay": "none (stay put)"}.get(v.value, v.value)),
            ("Combat or Insight card?", lambda c: c.action, lambda v: "none" if v is None else v.value),
            ("Insight into what?", lambda c: c.insight, lambda v: "-" if v is None else v.value),
            ("Evade if attacked?", lambda c: (c.evade, c.evade_with, c.special_evade), _evade_words),
            ("Reset Momentum and Balance to 0 first?", lambda c: c.reset, lambda v: "yes" if v else "no"),
        ]
        for question, field, words in steps:
            values = list(dict.fromkeys(field(c) for c in remaining))
            if len(values) > 1:
                picked = values[self.ask([*lines, question], [("", words(v)) for v in values])]
                remaining = [c for c in remaining if field(c) == picked]
                lines = []
        return remaining[0]


def _evade_words(value: tuple[bool, str | None, bool]) -> str:
    evade, using, special = value
    if not evade:
        return "no"
    if special:
        return "yes, with the special evade"
    return f"yes, paying {using}" if using else "yes"


def describe(state: DuelState, viewer: Player | None, seen: Observation | None = None) -> list[str]:
    """The table as a player sees it: the public mats, and the viewer's own secrets (None: a spectator)."""
    lines = [f"Turn {state.turn} of at most {constants.TURN_LIMIT}, range {state.range.value}"
             + (" (Retreat now loses by dishonor)" if state.honor and state.turn >= constants.HONOR_TURN else "")]
    for player in PLAYERS:
        p = state.players[player.seat]
        lines.append(f"  {ROLE[player]} ({player.value}): Health {p.health}, Momentum {p.momentum}, Balance "
                     f"{p.balance}")
    if viewer is not None:
        me = state.players[viewer.seat]
        a, k = me.attributes, me.knows
        lines.append(f"  you: Speed {a.speed}, Strength {a.strength}, Defense {a.defense}; techniques "
                     f"{me.techniques[0].name} and {me.techniques[1].name}")
        known = [f"{name} {value}" for name, value in (("Speed", k.speed), ("Strength", k.strength),
                                                       ("Defense", k.defense)) if value is not None]
        if seen is not None and seen.revealed:
            known.append("techniques seen: " + ", ".join(sorted(seen.revealed)))
        lines.append("  you know of the opponent: " + (", ".join(known) or "nothing yet"))
    return lines


def play(db: SwordDatabase, request: PlayRequest, show: Show, choose: Choose, handover: Handover | None) -> str:
    """One duel between the request's players (A: the Challenger); returns its record."""
    if db.has_errors:
        raise DuelkitError("the sword-duel data has problems; `duelkit validate` lists them")
    humans = sum(1 for name in request.players if name == "human")
    players: list[SwordBot] = [
        _Human(seat, db, show, choose, handover if humans == 2 else None) if name == "human" else make_bot(name)
        for seat, name in zip(PLAYERS, request.players, strict=True)]
    deck = tuple(t.id for t in db.draft_techniques())
    if len(deck) < 7:
        raise UsageError(f"the draft needs at least 7 techniques; this project has {len(deck)}")
    rngs = [random.Random(derive(request.seed, "player", seat)) for seat in (0, 1)]
    dice = random.Random(derive(request.seed, "dice"))
    writer = RecordWriter(data_hash(db.techniques, deck), request.data, request.seed, list(request.players))
    show(f"{db.name}: {request.players[0]} is the Challenger (A), {request.players[1]} the Defender (B); "
         f"seed {request.seed}")
    draft = run_draft(deck, db.techniques, players, rngs, dice, writer)
    hands = [[db.techniques[c] for c in draft.picks[seat]] for seat in (0, 1)]
    builds = []
    for seat, player in zip(PLAYERS, players, strict=True):
        builds.append(player.build(rngs[seat.seat]))
        writer.build(seat, builds[-1])
    from toolkit.sword.engine.draft import opponent_hands

    beliefs = [opponent_hands(draft, Player.A), opponent_hands(draft, Player.B)]
    state = new_duel(builds[0], hands[0], builds[1], hands[1])
    revealed: list[set[str]] = [set(), set()]
    while state.result is None:
        if state.turn > constants.TURN_LIMIT:
            state = draw_by_time(state)
            break
        choices = [player.choose(Observation(seat, state, beliefs[seat.seat], frozenset(revealed[seat.seat]),
                                             dict(db.techniques)), rngs[seat.seat])
                   for seat, player in zip(PLAYERS, players, strict=True)]
        pair = (choices[0], choices[1])
        writer.turn(state.turn, pair)
        turn = resolve_turn(state, *pair)
        state = turn.state
        if humans == 2 and handover is not None:
            handover("Both choices are in: reveal them together.")
        for line in turn.events:
            show(line)
        for index, shown in enumerate(revealed_techniques(state, pair)):
            if shown is not None:
                revealed[1 - index].add(shown)
    writer.finish(state)
    result = state.result
    assert result is not None
    show(f"Result: {'a draw' if result.winner is None else ROLE[result.winner] + ' wins'} "
         f"({result.reason.value.replace('_', ' ')}) after turn {state.turn}.")
    return writer.text()


def replay_record(db: SwordDatabase, text: str, turn: int | None) -> ReplayResult:
    deck = tuple(t.id for t in db.draft_techniques())
    result = ReplayResult()
    try:
        done = replay(text, dict(db.techniques), deck, turn)
    except Divergence as exc:
        result.divergence = str(exc)
        return result
    expected = data_hash(db.techniques, deck)
    if done.header.get("data_hash") != expected:
        result.lines.append("note: the record was played with other technique data than this project's "
                            "(it still follows the rules with this data)")
    result.lines += done.events
    if done.state is not None:
        result.lines += describe(done.state, None)
        if done.state.result is not None:
            r = done.state.result
            result.lines.append(f"result: {'a draw' if r.winner is None else ROLE[r.winner] + ' wins'} "
                                f"({r.reason.value.replace('_', ' ')}) after turn {done.state.turn}")
    result.lines.append("the record replays: every line follows the rules")
    return result


__all__ = ["Action", "describe", "play", "replay_record"]
