"""The game state: a few lists of ints, an OpenSpiel-shaped API, and every core rule of the turn.

Players: inside the engine a player is a seat int (A = `Player.A.seat` = 0, B = 1; CHANCE = -1 and
TERMINAL = -2 are not players), so per-player lists index by it and the hot loop compares ints. The API
edges that name a player speak `toolkit.players.Player`: `initial`/`new_game`'s first player, `arrange`'s
`to_move`, `outcome().winner` (None for a draw) and the records' "A"/"B"; `PLAYERS[seat]` turns a seat
(`current_player`, `Slot.side`, `slot // SQUAD_UNITS`) into its Player.

`current_player` is A, B, CHANCE or TERMINAL. At a chance node `chance_outcomes()` lists
(segment index, exact probability) and `apply(outcome)` takes one; whoever drives the game samples,
the state holds no random generator. `legal_actions()` is sorted and never empty before the end;
`apply` raises IllegalAction before changing anything. `clone()` copies a handful of short lists.
"""

from __future__ import annotations

import hashlib
import json
import operator
import struct
from bisect import bisect_left
from fractions import Fraction
from typing import cast

from toolkit.figure.engine.actions import (
    ATTACK,
    CHOOSE,
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
from toolkit.figure.engine.core import (
    _FIELDS,
    _PLAY_FIELDS,
    BATTLE,
    CHANCE,
    CHOICE_PHASE,
    DIGEST_MASK,
    DRAW,
    GOAL,
    LOCKOUT,
    LOOKAHEAD,
    LOOSE,
    MOVE_PHASE,
    NO_TURN_FX,
    OVER,
    PASS_ACTION,
    REPETITION,
    RESPIN_PHASE,
    SHARED,
    SPIN,
    SPIN_BATTLE,
    SPIN_CONFUSION,
    SPIN_POISON,
    SPIN_REASONS,
    SPIN_WAKE,
    START,
    SUB,
    TERMINAL,
    TURN_LIMIT,
    UPGRADE_PHASE,
    A,
    B,
    GameOutcome,
    TurnMoves,
    _tuplify,
)
from toolkit.figure.engine.tables import HANGAR, GameTables
from toolkit.figure.engine.turns import TurnFlow, unpack_key
from toolkit.players import PLAYERS, Player

# The names other modules read from here (the state's public face); they are defined in `core`.
__all__ = [
    "BATTLE",
    "CHANCE",
    "CHOICE_PHASE",
    "DRAW",
    "GOAL",
    "LOCKOUT",
    "MOVE_PHASE",
    "OVER",
    "REPETITION",
    "RESPIN_PHASE",
    "SPIN",
    "SPIN_BATTLE",
    "SPIN_CONFUSION",
    "SPIN_POISON",
    "SPIN_REASONS",
    "SPIN_WAKE",
    "START",
    "SUB",
    "TERMINAL",
    "TURN_LIMIT",
    "UPGRADE_PHASE",
    "A",
    "B",
    "GameOutcome",
    "GameState",
    "TurnMoves",
]

_new_state = object.__new__  # a GameState with no fields set yet (clone sets every one)
_values, _play_values = operator.attrgetter(*_FIELDS), operator.attrgetter(*_PLAY_FIELDS)  # each field, in order




class GameState(TurnFlow):
    """A game in progress: the OpenSpiel-shaped API over the parts of the turn (see `core`)."""

    __slots__ = ()

    @classmethod
    def initial(cls, game: GameTables, first: Player) -> GameState:
        """Every unit in its Hangar, `first` to move."""
        seat = first.seat
        s = cls.__new__(cls)
        s.game = game
        n = len(game.slots)
        s.pos = [HANGAR] * n
        s.occ = [-1] * len(game.node_names)
        s.masks = [0, 0]
        s.status = [0] * n
        s.counter = [0] * n
        s.wait = [0] * n
        s.form = [0] * n
        s.segmod = [()] * n
        s.kos = [0] * n
        s.bay = [(), ()]
        s.used = [0, 0]
        s.subs = 0
        s.turn = 0
        s.player = seat
        s.phase = START
        s.tfx = NO_TURN_FX
        s.moved = -1
        s.battled = ()
        s.blocked = 0
        s.battle = None
        s.spin = None
        s.queue = ()
        s.decider = seat
        s.pending = None
        s.result = None
        s.seen = 0
        s.history = {}
        s._unhashed = []
        s._flags = 0
        s._legal = None
        s._moves = None
        s._key = None
        s._rest = None
        s._begin_turn()
        return s

    @property
    def current_player(self) -> int:
        phase = self.phase  # in order: the player's phases (to BATTLE), the decider's, SPIN, OVER
        if phase <= BATTLE:
            return self.player
        if phase < SPIN:
            return self.decider
        return CHANCE if phase == SPIN else TERMINAL

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def is_chance_node(self) -> bool:
        return self.phase == SPIN

    def outcome(self) -> GameOutcome | None:
        if self.result is None:
            return None
        winner, reason = self.result
        return GameOutcome(None if winner == DRAW else PLAYERS[winner], reason)

    def turns_played(self) -> int:
        """Turns begun so far: a game that ended at the start of a turn (the turn limit, repetition, System
        Lockout) never began that turn, so 300 at a 300-turn limit."""
        if self.result is not None and self.result[1] in (TURN_LIMIT, REPETITION, LOCKOUT):
            return self.turn
        return self.turn + 1

    def returns(self) -> tuple[int, int]:
        """+1 for the winner, -1 for the loser, 0 each for a draw or an unfinished game."""
        if self.result is None or self.result[0] == DRAW:
            return (0, 0)
        return (1, -1) if self.result[0] == A else (-1, 1)

    def clone(self) -> GameState:
        s = _new_state(GameState)  # lists copied with .copy(), a third cheaper than [:] (no slice object)
        s.game = self.game
        s.pos = self.pos.copy()
        s.occ = self.occ.copy()
        s.masks = self.masks.copy()
        s.status = self.status.copy()
        s.counter = self.counter.copy()
        s.wait = self.wait.copy()
        s.form = self.form.copy()
        s.segmod = self.segmod.copy()
        s.kos = self.kos.copy()
        s.bay = self.bay.copy()
        s.used = self.used.copy()
        s.subs = self.subs
        s.turn = self.turn
        s.player = self.player
        s.phase = self.phase
        s.tfx = self.tfx
        s.moved = self.moved
        s.battled = self.battled
        s.blocked = self.blocked
        s.battle = self.battle
        s.spin = self.spin
        s.queue = self.queue
        s.decider = self.decider
        s.pending = self.pending
        s.result = self.result
        s.seen = self.seen
        s.history = self.history  # both copied on the next write by either state
        s._unhashed = self._unhashed
        flags = self._flags = self._flags | SHARED
        s._flags = flags | LOOKAHEAD
        s._legal = self._legal
        s._moves = self._moves
        s._key = self._key
        s._rest = self._rest  # never changed in place: a new one is made when the values differ
        return s

    def chance_outcomes(self) -> list[tuple[int, Fraction]]:
        """(segment index, probability) for the spin due now; empty when this is not a chance node."""
        if self.phase != SPIN:
            return []
        return list(self._spin_table().outcomes)

    def legal_actions(self) -> list[Action] | list[int]:
        """Sorted legal actions of the player to move; at a chance node, the possible outcomes."""
        legal = self._legal
        if legal is None:
            phase = self.phase
            legal = self._legal = self._turn_actions(phase) if phase <= MOVE_PHASE else self._compute_legal()
        return legal

    def decisions(self) -> list[Action]:
        """`legal_actions()` where a player acts (the players' view; never asked at a chance node)."""
        return cast(list[Action], self.legal_actions())

    def apply(self, action: Action | int) -> None:  # noqa: C901  - one flat branch per action kind, the hot path
        """Play an action (or, at a chance node, an outcome). Illegal: IllegalAction, nothing changes."""
        if self.phase >= SPIN:  # a chance node, or the end (SPIN and OVER are the last phases)
            if self.phase == OVER:
                raise IllegalAction("the game is over")
            _, slot = self.spin  # type: ignore[misc]
            # every variant of a disk keeps its segments (bonuses change numbers, not places): count them on
            # the form's own disk, so a battle spin, which reads no segment here, builds no variant
            if type(action) is not int or not 0 <= action < len(self.game.plain_tables[slot][self.form[slot]].segments):
                raise IllegalAction(f"{action!r} is not an outcome of this spin")
            self._legal = self._moves = self._key = None
            self._apply_spin(action)
            return
        legal = self._legal
        if legal is None:
            legal = self.legal_actions()
        try:  # the list is sorted: a binary search finds a legal action in a few comparisons, not a scan
            found = legal[bisect_left(legal, action)]
        except (IndexError, TypeError):  # past the end, or a value that does not compare with actions
            found = None
        if found is not action and found != action and action not in legal:  # the scan: only for an illegal one
            raise IllegalAction(f"{action!r} is not a legal action here")
        moves = self._moves  # a module that changes no unit's moves keeps them (see `_apply_module`)
        self._legal = self._moves = self._key = None
        act: Action = action  # type: ignore[assignment]  # legal here, so an Action (no cast: a call)
        kind = act[0]
        if kind == MOVE:
            self._apply_move(act[1], act[2])
        elif kind == ATTACK:
            self._start_battle(act[1], act[2])
        elif kind == PASS:
            self._apply_pass()
        elif kind == MODULE:
            self._apply_module(act[1], act[2], act[3], moves)
        elif kind == WAKE:
            self.battled = ()
            self._start_spin(SPIN_WAKE, act[1])
        elif kind == RESPIN:
            self._apply_respin(act[2])
        elif kind == UPGRADE:
            self._apply_upgrade(act[1])
        elif kind == SUBROUTINE:
            self._apply_subroutine(act[1], act[2])
        elif kind == CHOOSE:
            self._apply_choice(act[1], act[2])

    def state_hash(self) -> str:
        """A hash of the whole state, the same in every process and on every machine."""
        text = repr((self.game.data_hash, self._snapshot()))
        return hashlib.blake2b(text.encode("ascii"), digest_size=16).hexdigest()

    def serialize(self) -> str:
        """The state as JSON text (without the GameTables, which `deserialize` is given)."""
        self._hash_history()
        data = {name: getattr(self, name) for name in _FIELDS}
        data["history"] = sorted([list(unpack_key(head + rest)), count] for (head, rest), count in self.history.items())
        return json.dumps(data, separators=(",", ":"), sort_keys=True)

    @classmethod
    def deserialize(cls, game: GameTables, text: str) -> GameState:
        data = json.loads(text)
        s = cls.__new__(cls)
        s.game = game
        for name in _FIELDS:
            value = data[name]
            if name in ("pos", "occ", "masks", "status", "counter", "wait", "form", "kos", "used"):
                value = list(value)
            elif name in ("segmod", "bay"):
                value = [_tuplify(v) for v in value]
            else:
                value = _tuplify(value)
            setattr(s, name, value)
        head = game.key_head.size  # a key's first part: the player and the positions
        packed = [(struct.pack(f"<{len(key)}q", *key), count) for key, count in data["history"]]
        s.history = {(key[:head], key[head:]): count for key, count in packed}
        s._unhashed = []
        s._flags = LOOSE  # the text may hold any position: the next surround check looks at every unit
        s._legal = s._moves = s._key = s._rest = None
        return s

    def play_key(self) -> tuple[object, ...]:
        """Everything that decides how play goes on from here: the fields and the positions seen so far, exactly
        (not their digest). States with equal keys give equal states after any actions and outcomes."""
        return (*[tuple(v) if type(v) is list else v for v in _play_values(self)], frozenset(self.history.items()))

    def _snapshot(self) -> tuple[object, ...]:
        """The fields as `_tuplify` gives them: the lists as tuples (their items, and every other field, are ints,
        None, strings or tuples of those already)."""
        self._hash_history()
        return tuple([tuple(v) if type(v) is list else v for v in _values(self)])

    def _forget_history(self) -> None:
        """No position seen yet (a hand-built position starts its own history)."""
        self.history = {}
        self.seen = 0
        self._unhashed = []
        self._flags &= ~SHARED

    def _hash_history(self) -> None:
        """Bring `seen` up to date. Digests are added only when a hash or a serialisation asks: a simulated
        game never computes one (a digest cost about a tenth of a random game's turn)."""
        keys = self._unhashed  # each key already packed (history_key)
        if keys:
            blake2b = hashlib.blake2b
            digests = b"".join([blake2b(head + rest, digest_size=8).digest() for head, rest in keys])
            self.seen = (self.seen + sum(struct.unpack(f"<{len(keys)}Q", digests))) & DIGEST_MASK  # 64-bit each
            self._unhashed = []  # a new list: a clone may share the old one

    def _compute_legal(self) -> list[Action] | list[int]:
        if self.phase == SPIN:
            return list(range(len(self._spin_table().segments)))
        return self._decisions()

    def _decisions(self) -> list[Action]:
        """The actions of the player to act (not at a chance node)."""
        phase = self.phase
        if phase <= MOVE_PHASE:
            return self._turn_actions(phase)
        if phase == OVER:
            return []
        if phase == BATTLE:
            moved = self.moved
            attacks = self.game.attack_actions[moved]
            legal = []  # a loop: one or two enemies, no comprehension's frame and no list joined to PASS
            for enemy in self.adjacent_enemies(moved):
                legal.append(attacks[enemy])
            legal.append(PASS_ACTION)
            return legal
        if phase == RESPIN_PHASE:
            return [PASS_ACTION, *self._respin_actions()]
        if phase == UPGRADE_PHASE:
            assert isinstance(self.pending, int)  # the slot that may upgrade
            return [PASS_ACTION, Action(UPGRADE, self.pending)]
        assert phase == CHOICE_PHASE
        return self._choice_actions()
