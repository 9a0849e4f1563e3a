"""The game state's fields and the names every part of the turn shares: seats, phases, spin reasons, how a
game ends, the turn's module effects, and the few small steps every part takes (a unit lifted and put, a
spin started, the game finished).

`StateCore` holds the fields (its slots) and is the base of the parts the
state is built from, each in its own module, each calling only what comes before it or a step declared
here: `placement.Placement` (moves, deploys, surrounds, the Repair Bay and Wait), `modules.Modules`
(modules and subroutines), `battles.Battles` (battles, spins, upgrades and Purple placements),
`turns.TurnFlow` (a turn's start and end), and `state.GameState` (the OpenSpiel-shaped public face).
"""

from __future__ import annotations

from typing import NamedTuple, TypeAlias

from toolkit.figure.constants import FIRST_TURN_MP_PENALTY, SQUAD_UNITS
from toolkit.figure.engine import effects
from toolkit.figure.engine.actions import PASS, Action
from toolkit.figure.engine.tables import Form, GameTables, Reach
from toolkit.figure.rules.status import StatusRule
from toolkit.players import Player

A, B = Player.A.seat, Player.B.seat  # seats (see the docstring of state.py)
CHANCE, TERMINAL = -1, -2
DRAW = -1  # the winner seat stored for a drawn game (outcome() reports None)

# Phases of a turn. START allows modules, subroutines and the move; SUB subroutines and the move.
START, SUB, MOVE_PHASE, BATTLE, RESPIN_PHASE, UPGRADE_PHASE, CHOICE_PHASE, SPIN, OVER = range(9)

# Why a chance node spins.
SPIN_CONFUSION, SPIN_BATTLE, SPIN_WAKE, SPIN_POISON = range(4)
SPIN_REASONS = ("confusion", "battle", "wake", "poison")

# Victory reasons (outcome().reason).
GOAL, LOCKOUT, TURN_LIMIT, REPETITION = "goal_capture", "lockout", "turn_limit", "repetition"

MISS = -1  # a battle "segment" for a unit that cannot take part: it counts as a Miss
SELF_HIT = -2  # a battle "segment" for a confused unit that hit itself (independent self-hit spins)
# damage slot, damage, star slot, stars, move-through slot, extra MP, the re-spin module committed this turn
NO_TURN_FX = (-1, 0, -1, 0, -1, 0, -1)
PASS_ACTION = Action(PASS)
DIGEST_MASK = (1 << 64) - 1  # the history digest is a sum of 64-bit digests, modulo 2**64
# StateCore._flags: SHARED, the history is shared with a clone (copied before the next write); LOOSE, a unit may
# stand surrounded without having been removed (see StateCore._loose); LOOKAHEAD, a clone or a state played on from
# one: its turns' moves are listed when asked (a player looking ahead evaluates many positions it never plays on),
# while the state a game is played on lists them at its turn's start, since every player asks for them next
SHARED, LOOSE, LOOKAHEAD = 1, 2, 4
# A unit field (status, wait, ...) in which no unit has a value: `field != ALL_ZERO` asks any(field) with no call,
# a fifth of the instructions, where the hot path asks it every turn
ALL_ZERO = [0] * 2 * SQUAD_UNITS


# What a decision waits on: the slot that may upgrade (UPGRADE_PHASE), or a board effect's (unit, node) options
# and whether passing is allowed (CHOICE_PHASE); None otherwise.
Pending: TypeAlias = int | tuple[tuple[tuple[int, int], ...], bool] | None


class TurnMoves(NamedTuple):
    """The moves of the side to move (phases START to MOVE_PHASE), as actions and as each unit's Reach."""

    actions: list[Action]  # MOVE actions in (unit, node) order, then WAKE actions
    reaches: list[Reach]  # one per unit that may move or deploy, in slot order (its destinations may be none)
    # the side's units a module may apply to, read on the same pass: four bit sets of SQUAD_UNITS bits (bit i:
    # the side's unit i), from the highest: on the field, with a status, waiting in the Hangar, movable
    units: int = 0


NO_MOVES = TurnMoves([], [])

# The fields a history key packs after the player and the positions, in its order (see TurnFlow._history_key):
# status, counter, wait, form, kos, used, subs, bay, segmod
RestFields: TypeAlias = tuple[list[int], list[int], list[int], list[int], list[int], list[int], int,
                              list[tuple[int, ...]], list[tuple[int, ...]]]


# A position in the repetition history: `position_key()` packed as little-endian 64-bit ints in two parts, the
# player and the positions (new every turn), then the rest (statuses, counters, Wait, forms, knock-outs, modules,
# subroutines, the Repair Bays, lasting losses), whose bytes are reused while those fields are unchanged; a tuple of
# the two hashes only the head anew (bytes keep their hash), where the joined bytes would hash all of them each turn
HistoryKey: TypeAlias = tuple[bytes, bytes]


class GameOutcome(NamedTuple):
    winner: Player | None  # None: a draw
    reason: str


_FIELDS = ("pos", "occ", "masks", "status", "counter", "wait", "form", "segmod", "kos", "bay", "used", "subs", "turn",
           "player", "phase", "tfx", "moved", "battled", "blocked", "battle", "spin", "queue", "decider", "pending",
           "result", "seen")
_PLAY_FIELDS = tuple(name for name in _FIELDS if name != "seen")  # `seen` digests the history, when asked


class StateCore:
    """The fields of a game state, and the steps every part of the turn takes."""

    __slots__ = (*_FIELDS, "game", "history", "_unhashed", "_flags", "_legal", "_moves", "_key", "_rest")

    game: GameTables
    pos: list[int]  # node index, or HANGAR / BAY / REMOVED
    occ: list[int]  # the slot on each node, or -1
    masks: list[int]  # nodes held by side A, by side B (bit sets)
    status: list[int]  # 0, or 1 + index in STATUS_IDS
    counter: list[int]  # own turns spent Frozen (chimera's thaw)
    wait: list[int]
    form: list[int]  # index in the slot's upgrade chain
    segmod: list[tuple[int, ...]]  # lasting per-segment damage losses (chimera Poison), () for none
    kos: list[int]  # enemies this unit Deactivated in battle
    bay: list[tuple[int, ...]]  # each side's Repair Bay, oldest first
    used: list[int]  # each side's spent modules (bit sets of module indices)
    subs: int  # once-per-duel subroutines spent (bit set of slots)
    turn: int
    player: int
    phase: int
    tfx: tuple[int, int, int, int, int, int, int]
    moved: int
    battled: tuple[int, ...]
    blocked: int
    battle: tuple[int, int, int, int, int] | None
    spin: tuple[int, int] | None
    queue: tuple[int, ...]
    decider: int
    pending: Pending
    result: tuple[int, str] | None
    seen: int  # an order-free digest of the positions in `history` but not in `_unhashed` (state_hash never walks it)
    history: dict[HistoryKey, int]  # history_key() (position_key() packed) -> times seen
    _unhashed: list[HistoryKey]  # keys entered in `history` since `seen` was brought up to date
    _flags: int  # SHARED | LOOSE | LOOKAHEAD: flags in one slot, so a clone copies one field for all
    _legal: list[Action] | list[int] | None
    _moves: TurnMoves | None  # the turn's moves, listed once when first asked (lockout, a decision, a player's threat)
    _key: HistoryKey | None  # history_key() of the turn's start, computed there anyway for repetition
    _rest: tuple[RestFields, bytes] | None  # the fields after the positions in a history key, and their bytes

    @property
    def _loose(self) -> bool:
        """Whether a unit may stand surrounded without having been removed (a hand-built or read position, a
        placement under surround_after=move_only): the next surround check then looks at every unit."""
        return bool(self._flags & LOOSE)

    def status_rule(self, slot: int) -> StatusRule | None:
        return self.game.status_rules[self.status[slot]]

    def units_of(self, side: int) -> range:
        return self.game.side_units[side]

    def form_of(self, slot: int) -> Form:
        return self.game.slots[slot].forms[self.form[slot]]

    def effective_mp(self, slot: int) -> int:
        """MP for this turn's move: the form's MP, the first-turn penalty, module bonuses, never below min_mp
        (0 by default: a 1 MP unit moving first cannot pay the deploy's 1 MP)."""
        mp = self.game.mp[slot][self.form[slot]] + self.tfx[5]
        if self.turn == 0:
            mp -= FIRST_TURN_MP_PENALTY
        return max(self.game.rules.min_mp, mp)

    def _finish(self, winner: int, reason: str) -> None:
        self.result = (winner, reason)
        self.phase = OVER
        self.spin = None
        self.queue = ()

    def _lift(self, slot: int) -> None:
        node = self.pos[slot]
        if node >= 0:
            self.occ[node] = -1
            self.masks[slot // SQUAD_UNITS] &= ~(1 << node)

    def _put(self, slot: int, node: int) -> None:
        self.pos[slot] = node
        self.occ[node] = slot
        self.masks[slot // SQUAD_UNITS] |= 1 << node

    def _start_spin(self, reason: int, slot: int) -> None:
        self.spin = (reason, slot)
        self.phase = SPIN

    def _immovable(self, slot: int) -> bool:
        return self.game.sub_kinds[slot][self.form[slot]] == "immovable"

    def _owner_may_move(self, slot: int) -> bool:
        """Whether its owner's swap module or Purple move may move this unit: not Frozen (spec 000 Table 2.2 'cannot
        ... be moved by the operator'; chimera's Frozen and Sleep 'cannot be selected to move')."""
        return effects.can_be_selected_to_move(self.status_rule(slot))  # 'immovable' is against the opponent only

    def _end_turn(self) -> None:
        """End the turn (chimera Poison's spins first): `turns.TurnFlow` plays it; declared here because
        every part of the turn ends it."""
        raise NotImplementedError("a GameState ends its turns in TurnFlow")

    def _next_queued(self) -> None:
        """The next end-of-turn spin, or the turn's end: `turns.TurnFlow`."""
        raise NotImplementedError("a GameState ends its turns in TurnFlow")


def _tuplify(value: object) -> object:
    """Lists (JSON's arrays) and tuples as tuples all the way down: hashable, and the same either way."""
    if isinstance(value, list | tuple):
        if all(type(v) is int for v in value):  # most fields: a flat list of ints
            return tuple(value)
        return tuple(_tuplify(v) for v in value)
    return value
