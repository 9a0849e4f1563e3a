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
import itertools
import json
import sys
from array import array
from fractions import Fraction
from typing import NamedTuple, TypeAlias, cast

from toolkit.figure.constants import DEPLOY_COST_MP, FIRST_TURN_MP_PENALTY, REPAIR_BAY_CAPACITY, WAIT_TURNS
from toolkit.figure.engine import effects
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
from toolkit.figure.engine.tables import BAY, HANGAR, REMOVED, REMOVED_FROM_DUEL, Form, Game, Reach, SpinTable, bits
from toolkit.figure.model import (
    BoardEffect,
    ClearAdjacentStatusEffect,
    ClearHangarWaitEffect,
    Color,
    MoveAllyEffect,
    MoveSelfEffect,
    PushOpponentEffect,
    Segment,
    SwapWithOpponentEffect,
)
from toolkit.figure.rules.combat import Outcome, resolve
from toolkit.figure.rules.roster import SQUAD_UNITS
from toolkit.figure.rules.status import StatusRule
from toolkit.players import PLAYERS, Player

A, B = Player.A.seat, Player.B.seat  # seats (see the module docstring)
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
_BIG_ENDIAN = sys.byteorder == "big"  # array("q") packs in the machine's byte order
DIGEST_MASK = (1 << 64) - 1  # the history digest is a sum of 64-bit digests, modulo 2**64


# What a decision waits on: the slot that may upgrade (UPGRADE_PHASE), or a board effect's (unit, node) options
# and whether passing is allowed (CHOICE_PHASE); None otherwise.
Pending: TypeAlias = int | tuple[tuple[tuple[int, int], ...], bool] | None


class TurnMoves(NamedTuple):
    """The moves of the side to move (phases START to MOVE_PHASE), as actions and as each unit's Reach."""

    actions: list[Action]  # MOVE actions in (unit, node) order, then WAKE actions
    reaches: list[Reach]  # one per unit that may move or deploy, in slot order (its destinations may be none)


NO_MOVES = TurnMoves([], [])


class GameOutcome(NamedTuple):
    winner: Player | None  # None: a draw
    reason: str


_FIELDS = ("pos", "occ", "masks", "status", "counter", "wait", "form", "segmod", "kos", "bay", "used", "subs", "turn",
           "player", "phase", "tfx", "moved", "battled", "blocked", "battle", "spin", "queue", "decider", "pending",
           "result", "seen")
_PLAY_FIELDS = tuple(name for name in _FIELDS if name != "seen")  # `seen` digests the history, when asked


class GameState:
    __slots__ = (*_FIELDS, "game", "history", "_unhashed", "_shared", "_legal", "_moves", "_key")

    game: Game
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
    history: dict[tuple[int, ...], int]  # position_key() -> times seen
    _unhashed: list[tuple[int, ...]]  # keys entered in `history` since `seen` was brought up to date
    _shared: bool
    _legal: list[Action] | list[int] | None
    _moves: TurnMoves | None  # the turn's moves, listed once when first asked (lockout, a decision, a player's threat)
    _key: tuple[int, ...] | None  # position_key() of the turn's start, computed there anyway for repetition

    @classmethod
    def initial(cls, game: Game, first: Player) -> GameState:
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
        s._shared = False
        s._legal = None
        s._moves = None
        s._key = None
        s._begin_turn()
        return s

    # ---- the OpenSpiel-shaped API -------------------------------------------------------------

    @property
    def current_player(self) -> int:
        phase = self.phase
        if phase == OVER:
            return TERMINAL
        if phase == SPIN:
            return CHANCE
        if phase in (RESPIN_PHASE, UPGRADE_PHASE, CHOICE_PHASE):
            return self.decider
        return self.player

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
        s = GameState.__new__(GameState)
        s.game = self.game
        s.pos = self.pos[:]
        s.occ = self.occ[:]
        s.masks = self.masks[:]
        s.status = self.status[:]
        s.counter = self.counter[:]
        s.wait = self.wait[:]
        s.form = self.form[:]
        s.segmod = self.segmod[:]
        s.kos = self.kos[:]
        s.bay = self.bay[:]
        s.used = self.used[:]
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
        self._shared = s._shared = True
        s._legal = self._legal
        s._moves = self._moves
        s._key = self._key
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
            legal = self._legal = self._compute_legal()
        return legal

    def decisions(self) -> list[Action]:
        """`legal_actions()` where a player acts (the players' view; never asked at a chance node)."""
        return cast(list[Action], self.legal_actions())

    def apply(self, action: Action | int) -> None:  # noqa: C901  - one flat branch per action kind, the hot path
        """Play an action (or, at a chance node, an outcome). Illegal: IllegalAction, nothing changes."""
        phase = self.phase
        if phase == OVER:
            raise IllegalAction("the game is over")
        if phase == SPIN:
            table = self._spin_table()
            if type(action) is not int or not 0 <= action < len(table.segments):
                raise IllegalAction(f"{action!r} is not an outcome of this spin")
            self._legal = self._moves = self._key = None
            self._apply_spin(action, table)
            return
        if action not in self.legal_actions():
            raise IllegalAction(f"{action!r} is not a legal action here")
        self._legal = self._moves = self._key = None
        action = cast(Action, action)
        kind = action[0]
        if kind == MOVE:
            self._apply_move(action[1], action[2])
        elif kind == ATTACK:
            self._start_battle(action[1], action[2])
        elif kind == PASS:
            self._apply_pass()
        elif kind == MODULE:
            self._apply_module(action[1], action[2], action[3])
        elif kind == WAKE:
            self.battled = ()
            self._start_spin(SPIN_WAKE, action[1])
        elif kind == RESPIN:
            self._apply_respin(action[2])
        elif kind == UPGRADE:
            self._apply_upgrade(action[1])
        elif kind == SUBROUTINE:
            self._apply_subroutine(action[1], action[2])
        elif kind == CHOOSE:
            self._apply_choice(action[1], action[2])

    def state_hash(self) -> str:
        """A hash of the whole state, the same in every process and on every machine."""
        text = repr((self.game.data_hash, self._snapshot()))
        return hashlib.blake2b(text.encode("ascii"), digest_size=16).hexdigest()

    def serialize(self) -> str:
        """The state as JSON text (without the Game, which `deserialize` is given)."""
        self._hash_history()
        data = {name: getattr(self, name) for name in _FIELDS}
        data["history"] = sorted([list(key), count] for key, count in self.history.items())
        return json.dumps(data, separators=(",", ":"), sort_keys=True)

    @classmethod
    def deserialize(cls, game: Game, text: str) -> GameState:
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
        s.history = {tuple(key): count for key, count in data["history"]}
        s._unhashed = []
        s._shared = False
        s._legal = s._moves = s._key = None
        return s

    def play_key(self) -> tuple[object, ...]:
        """Everything that decides how play goes on from here: the fields and the positions seen so far, exactly
        (not their digest). States with equal keys give equal states after any actions and outcomes."""
        return (*(_tuplify(getattr(self, name)) for name in _PLAY_FIELDS), frozenset(self.history.items()))

    # ---- derived facts ----------------------------------------------------------------------

    def _snapshot(self) -> tuple[object, ...]:
        self._hash_history()
        return tuple(_tuplify(getattr(self, name)) for name in _FIELDS)

    def _forget_history(self) -> None:
        """No position seen yet (a hand-built position starts its own history)."""
        self.history = {}
        self.seen = 0
        self._unhashed = []
        self._shared = False

    def _hash_history(self) -> None:
        """Bring `seen` up to date. Digests are added only when a hash or a serialisation asks: a simulated
        game never computes one (a digest cost about a tenth of a random game's turn)."""
        seen = self.seen
        for key in self._unhashed:
            packed = array("q", key)
            if _BIG_ENDIAN:
                packed.byteswap()  # digest the same little-endian bytes on every machine
            digest = int.from_bytes(hashlib.blake2b(packed.tobytes(), digest_size=8).digest(), "little")
            seen = (seen + digest) & DIGEST_MASK
        self.seen = seen
        self._unhashed = []  # a new list: a clone may share the old one

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

    def destinations(self, slot: int) -> list[int]:
        """Sorted nodes this unit may move to (or deploy to) now, ignoring whose turn it is."""
        found = self._destination_mask(slot, self._passable_mask(slot // SQUAD_UNITS))
        return [n for n in range(len(self.occ)) if found >> n & 1]

    def _passable_mask(self, side: int) -> int:
        """Nodes a unit of `side` may move through: free nodes and passable opposing units (Standby Mode)."""
        masks = self.masks
        free = self.game.full_mask & ~(masks[0] | masks[1])
        passable_codes = self.game.passable_codes
        if passable_codes and masks[1 - side] and any(self.status):
            status, pos = self.status, self.pos
            for s in self.units_of(1 - side):
                if status[s] in passable_codes and pos[s] >= 0:
                    free |= 1 << pos[s]
        return free

    def _destination_mask(self, slot: int, passable: int) -> int:
        pos = self.pos[slot]
        game = self.game
        masks = self.masks
        free = game.full_mask & ~(masks[0] | masks[1])
        if pos == HANGAR:
            if self.wait[slot] > 0:
                return 0
            mp = self.effective_mp(slot) - DEPLOY_COST_MP
            if mp < 0:
                return 0
            found = 0
            for entry in game.entries[slot // SQUAD_UNITS]:
                bit = 1 << entry
                if free & bit:
                    found |= bit
                    if mp > 0:
                        found |= game.reach_mask(entry, mp, passable)
            return found & free
        if pos < 0 or not effects.can_be_selected_to_move(game.status_rules[self.status[slot]]):
            return 0
        if self.tfx[4] == slot:
            passable = game.full_mask  # a move-through module: every node may be passed
        return game.reach_mask(pos, self.effective_mp(slot), passable) & free

    def surrounded(self, slot: int) -> bool:
        """Every node next to this unit holds an opposing unit."""
        return not self.game.nbr_mask[self.pos[slot]] & ~self.masks[1 - slot // SQUAD_UNITS]

    def adjacent_enemies(self, slot: int) -> list[int]:
        enemy = 1 - slot // SQUAD_UNITS
        return sorted(o for o in (self.occ[n] for n in self.game.adj[self.pos[slot]])
                      if o >= 0 and o // SQUAD_UNITS == enemy)

    def position_key(self) -> tuple[int, ...]:
        """What makes two positions the same for repetition (with the same player to move): a flat tuple of ints."""
        key = self._key
        return key if key is not None else self._position_key()

    def turn_moves(self) -> TurnMoves:
        """The moves of the side to move as actions and per unit (none outside the phases START to MOVE_PHASE)."""
        moves = self._moves
        if moves is None:
            moves = self._moves = self._compute_moves() if self.phase <= MOVE_PHASE else NO_MOVES
        return moves

    def _position_key(self) -> tuple[int, ...]:
        bay_a, bay_b = self.bay
        key = (self.player, *self.pos, *self.status, *self.counter, *self.wait, *self.form, *self.kos, *self.used,
               self.subs, len(bay_a), *bay_a, len(bay_b), *bay_b)
        if any(self.segmod):
            key += tuple(itertools.chain.from_iterable((len(m), *m) for m in self.segmod))
        return key

    # ---- legal actions ------------------------------------------------------------------------

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
            return [Action(ATTACK, moved, enemy) for enemy in self.adjacent_enemies(moved)] + [PASS_ACTION]
        if phase == RESPIN_PHASE:
            return [PASS_ACTION, *self._respin_actions()]
        if phase == UPGRADE_PHASE:
            assert isinstance(self.pending, int)  # the slot that may upgrade
            return [PASS_ACTION, Action(UPGRADE, self.pending)]
        assert phase == CHOICE_PHASE
        return self._choice_actions()

    def _turn_actions(self, phase: int) -> list[Action]:
        """Modules (START), subroutines (START, SUB) and the move, or PASS when nothing can move."""
        actions: list[Action] = []
        if phase == START:
            actions += self._module_actions()
        if phase <= SUB:
            actions += self._subroutine_actions()
        moves = self.turn_moves().actions
        actions += moves
        if not moves:
            actions.append(PASS_ACTION)  # no move is possible (only after a module or subroutine)
        return actions

    def _compute_moves(self) -> TurnMoves:
        """MOVE actions in (unit, node) order, then WAKE actions (the hot path of every turn)."""
        side = self.player
        game = self.game
        rules = game.status_rules
        masks = self.masks
        free = game.full_mask & ~(masks[0] | masks[1])
        passable = self._passable_mask(side)
        pos, status, wait, form, mp_table = self.pos, self.status, self.wait, self.form, game.mp
        bonus = self.tfx[5] - (FIRST_TURN_MP_PENALTY if self.turn == 0 else 0)
        min_mp = game.rules.min_mp
        through = self.tfx[4]
        actions: list[Action] = []
        wakes: list[Action] = []
        reaches: list[Reach] = []
        for slot in game.side_units[side]:
            where = pos[slot]
            if where >= 0:
                code = status[slot]
                if code:
                    rule = rules[code]
                    if effects.wakes_by_spin(rule):
                        wakes.append(Action(WAKE, slot))
                    if not effects.can_be_selected_to_move(rule):
                        continue
                mp = max(min_mp, mp_table[slot][form[slot]] + bonus)
                reach = game.unit_moves(slot, where, mp, game.full_mask if through == slot else passable, free)
            elif where == HANGAR and wait[slot] <= 0:
                mp = max(min_mp, mp_table[slot][form[slot]] + bonus)
                reach = game.deploy_moves(slot, mp - DEPLOY_COST_MP, passable, free)
            else:
                continue
            actions += reach.actions
            reaches.append(reach)
        return TurnMoves(actions + wakes if wakes else actions, reaches)

    def _surely_moves(self) -> bool:
        """A quick test that is True only when the side to move has a move: a unit that may move next to a free
        node, or a ready Hangar unit and a free entry (False: list the moves to know)."""
        game = self.game
        free = game.full_mask & ~(self.masks[0] | self.masks[1])
        side = self.player
        pos, status, nbr = self.pos, self.status, game.nbr_mask
        any_mp = game.rules.min_mp >= 1  # every unit has a step (the usual ruling): no MP to work out
        for slot in game.side_units[side]:
            where = pos[slot]
            if where >= 0:
                if (nbr[where] & free
                        and (not status[slot] or effects.can_be_selected_to_move(game.status_rules[status[slot]]))
                        and (any_mp or self.effective_mp(slot) >= 1)):
                    return True
            elif (where == HANGAR and self.wait[slot] <= 0 and free & game.entry_balls[side][0]
                  and (any_mp or self.effective_mp(slot) >= DEPLOY_COST_MP)):
                return True
        return False

    def _module_actions(self) -> list[Action]:
        side = self.player
        kinds = self.game.module_kinds[side]
        used = self.used[side]
        if used == (1 << len(kinds)) - 1:
            return []
        actions: list[Action] = []
        targets = self._module_target_sets(side)
        choices = self.game.module_choices[side]
        for index, target in enumerate(self.game.module_targets[side]):
            if not used >> index & 1:
                actions += choices[index][targets[target]]  # the actions for those units, built once per game
        return actions

    def _module_target_sets(self, side: int) -> tuple[int, int, int, int]:
        """The side's units a module may apply to, as bit sets (bit i: the side's unit i): on the field, on the
        field with a status, waiting in the Hangar, on the field and movable by their owner (the order of
        tables.FIELD_UNITS, ...)."""
        pos, status, wait = self.pos, self.status, self.wait
        field = statused = waiting = movable = 0
        for i, slot in enumerate(self.game.side_units[side]):
            where = pos[slot]
            if where >= 0:
                field |= 1 << i
                if status[slot]:
                    statused |= 1 << i
                if self._owner_may_move(slot):
                    movable |= 1 << i
            elif where == HANGAR and wait[slot] > 0:
                waiting |= 1 << i
        return field, statused, waiting, movable

    def _subroutine_actions(self) -> list[Action]:
        """Activated subroutines (once per duel) of own field units: clear an adjacent ally's status, or
        clear a Hangar unit's Wait."""
        game = self.game
        side = self.player
        actions: list[Action] = []
        pos = self.pos
        for slot in game.activated_slots[side]:
            if pos[slot] < 0 or self.subs >> slot & 1:
                continue
            kind = game.sub_kinds[slot][self.form[slot]]
            if kind == "clear_adjacent_status":
                near = game.nbr_mask[pos[slot]]
                actions += [Action(SUBROUTINE, slot, s) for s in self.units_of(side)
                            if self.status[s] and pos[s] >= 0 and near >> pos[s] & 1]
            elif kind == "clear_hangar_wait":
                actions += [Action(SUBROUTINE, slot, s) for s in self.units_of(side)
                            if self.wait[s] > 0 and pos[s] == HANGAR]
        return actions

    def _choice_actions(self) -> list[Action]:
        assert isinstance(self.pending, tuple)  # (the (unit, node) options, whether passing is allowed)
        options, optional = self.pending
        choices = [Action(CHOOSE, s, n) for s, n in options]
        return [PASS_ACTION, *choices] if optional else choices

    def _respin_actions(self) -> list[Action]:
        """The re-spin of the module committed in this turn's Module Phase, for the attacker."""
        return [Action(RESPIN, self.tfx[6], self.battle[0])]  # type: ignore[index]

    # ---- the turn -------------------------------------------------------------------------------

    def _begin_turn(self) -> None:
        """Start of a turn: Wait bookkeeping, Frozen's turn count, repetition, then System Lockout."""
        player = self.player
        rules = self.game.rules
        wait, status, pos = self.wait, self.status, self.pos
        blocked = 0
        if any(wait):
            counted = self.units_of(player) if rules.wait_counts == "owner_turns" else range(len(pos))
            for slot in counted:
                if wait[slot] > 0:
                    blocked |= 1 << slot
        self.blocked = blocked
        thawing = self.game.thawing_codes
        if thawing and any(status):  # most turns no unit has a status: skip the loop
            for slot in self.units_of(player):
                if status[slot] in thawing and pos[slot] >= 0:
                    self.counter[slot] += 1
        self.phase = START
        self.tfx = NO_TURN_FX
        self.moved = -1
        self.battled = ()
        self.battle = None
        self.spin = None
        self._legal = self._moves = None  # derived from the position, which changed (or was arranged by hand)
        key = self._key = self._position_key()
        if self._shared:
            self.history = dict(self.history)
            self._unhashed = self._unhashed[:]
            self._shared = False
        seen = self.history.get(key, 0) + 1
        self.history[key] = seen
        self._unhashed.append(key)
        if seen >= rules.repetition_limit:
            self._finish(DRAW, REPETITION)
            return
        # the turn's actions wait until someone asks: a position a player only evaluates may never need them
        if rules.lockout != "off" and not self._surely_moves() and not self.turn_moves().actions:
            self._finish(1 - player, LOCKOUT)  # modules are not counted

    def _end_turn(self) -> None:
        """End of the turn: chimera Poison spins for units that did not battle, then the next turn."""
        if self.result is not None:
            return
        status = self.status
        spinning = self.game.end_spin_codes
        units = self.units_of(self.player) if spinning and any(status) else ()  # most turns: no status to spin
        self.queue = tuple(slot for slot in units if status[slot] in spinning and self.pos[slot] >= 0
                           and slot not in self.battled)
        self._next_queued()

    def _next_queued(self) -> None:
        if self.queue:
            slot, self.queue = self.queue[0], self.queue[1:]
            if self.pos[slot] >= 0:
                self._start_spin(SPIN_POISON, slot)
                return
            self._next_queued()
            return
        self._finish_turn()

    def _finish_turn(self) -> None:
        player = self.player
        rules = self.game.rules
        status = self.status
        thawing = self.game.thawing_codes
        for slot in self.units_of(player) if thawing and any(status) else ():  # most turns no unit has a status
            if status[slot] not in thawing:
                continue
            turns = effects.thaw_turns(self.status_rule(slot))
            if turns is not None and self.pos[slot] >= 0 and self.counter[slot] >= turns:
                status[slot] = 0
                self.counter[slot] = 0
        for slot in bits(self.blocked):
            if self.wait[slot] > 0:
                self.wait[slot] -= 1
        self.turn += 1
        self.player = 1 - player
        self.decider = self.player
        if self.turn >= rules.turn_limit:
            self._finish(self._turn_limit_winner(), TURN_LIMIT)
            return
        self._begin_turn()

    def _turn_limit_winner(self) -> int:
        if self.game.rules.turn_limit_result == "draw":
            return DRAW
        left = [sum(1 for s in self.units_of(side) if self.pos[s] not in (BAY, REMOVED)) for side in (A, B)]
        return DRAW if left[0] == left[1] else (A if left[0] > left[1] else B)

    def _finish(self, winner: int, reason: str) -> None:
        self.result = (winner, reason)
        self.phase = OVER
        self.spin = None
        self.queue = ()

    # ---- moves, placement, surround ---------------------------------------------------------------

    def _apply_move(self, slot: int, dest: int) -> None:
        side = slot // SQUAD_UNITS
        self._lift(slot)
        self._put(slot, dest)
        self.moved = slot
        self.phase = MOVE_PHASE
        if dest == self.game.goals[1 - side]:
            self._finish(side, GOAL)
            return
        self._after_placement(side)
        if self.result is not None:
            return
        if (self.pos[slot] >= 0 and self.game.nbr_mask[dest] & self.masks[1 - side]
                and effects.can_initiate_attack(self.status_rule(slot))):
            self.phase = BATTLE
        else:
            self._end_turn()

    def _lift(self, slot: int) -> None:
        node = self.pos[slot]
        if node >= 0:
            self.occ[node] = -1
            self.masks[slot // SQUAD_UNITS] &= ~(1 << node)

    def _put(self, slot: int, node: int) -> None:
        self.pos[slot] = node
        self.occ[node] = slot
        self.masks[slot // SQUAD_UNITS] |= 1 << node

    def _after_placement(self, actor: int) -> None:
        """Goal capture by placement when the switch `goal_capture_by` allows it (the game ends at once, before
        any surround), then surrounds (the switch `surround_order`)."""
        self._goal_by_placement(actor)
        if self.result is not None:
            return
        if self.game.rules.surround_order == "enemies_first":
            for side in (1 - actor, actor):
                for slot in self._surrounded_units(side):
                    self._deactivate(slot)
        else:
            for slot in self._surrounded_units(1 - actor) + self._surrounded_units(actor):
                self._deactivate(slot)

    def _goal_by_placement(self, actor: int) -> None:
        """A unit placed on the enemy goal by a swap or a Purple move: by default (owner_action) it wins when
        `actor`, whose action placed it, owns it; with any_placement, whoever placed it."""
        ruling = self.game.rules.goal_capture_by
        if ruling == "owner_action":
            occupant = self.occ[self.game.goals[1 - actor]]
            if occupant >= 0 and occupant // SQUAD_UNITS == actor:
                self._finish(actor, GOAL)
        elif ruling == "any_placement":
            for side in (actor, 1 - actor):
                occupant = self.occ[self.game.goals[1 - side]]
                if occupant >= 0 and occupant // SQUAD_UNITS == side:
                    self._finish(side, GOAL)
                    return

    def _surrounded_units(self, side: int) -> list[int]:
        """Units of `side` whose every neighbour node holds an opposing unit (one snapshot), in slot order."""
        nbr = self.game.nbr_mask
        open_nodes = ~self.masks[1 - side]  # nodes not held by an opposing unit
        pos = self.pos
        return [slot for slot in self.game.side_units[side] if pos[slot] >= 0 and not nbr[pos[slot]] & open_nodes]

    def _deactivate(self, slot: int) -> None:
        """To the Repair Bay (first in, first out; a push-out returns to the Hangar with Wait), or out of the duel."""
        self._lift(slot)
        removed = self.game.sub_kinds[slot][self.form[slot]] == REMOVED_FROM_DUEL
        self.status[slot] = 0
        self.counter[slot] = 0
        self.segmod[slot] = ()
        if self.game.rules.reset_form_on_deactivation:
            self.form[slot] = 0
        if removed:
            self.pos[slot] = REMOVED
            return
        side = slot // SQUAD_UNITS
        bay = self.bay[side] + (slot,)
        while len(bay) > REPAIR_BAY_CAPACITY:
            out, bay = bay[0], bay[1:]
            self.pos[out] = HANGAR
            self.wait[out] = WAIT_TURNS
        self.bay[side] = bay
        self.pos[slot] = BAY

    # ---- modules and the pass ---------------------------------------------------------------------

    def _apply_module(self, index: int, first: int, second: int) -> None:
        side = self.player
        self.used[side] |= 1 << index
        self.phase = SUB
        effect = self.game.modules[side][index].effect
        kind = effect.kind
        amount = int(getattr(effect, "amount", 0))
        dmg_slot, dmg, star_slot, stars, through, extra, respin = self.tfx
        if kind == "damage_bonus":
            self.tfx = (first, amount, star_slot, stars, through, extra, respin)
        elif kind == "star_bonus":
            self.tfx = (dmg_slot, dmg, first, amount, through, extra, respin)
        elif kind == "move_through":
            self.tfx = (dmg_slot, dmg, star_slot, stars, first, extra, respin)
        elif kind == "extra_mp":
            self.tfx = (dmg_slot, dmg, star_slot, stars, through, amount, respin)
        elif kind == "respin":  # committed now (specs 000 2.3, 001 1.3): spun after this turn's battle spins
            self.tfx = (dmg_slot, dmg, star_slot, stars, through, extra, index)
        elif kind == "clear_status":
            self.status[first] = 0
            self.counter[first] = 0
        elif kind == "clear_wait":
            self.wait[first] = 0
            self.blocked &= ~(1 << first)
        elif kind == "swap_units":
            a, b = self.pos[first], self.pos[second]
            self._put(first, b)
            self._put(second, a)
            if self.game.rules.surround_after == "any_position_change":
                self._after_placement(side)

    def _apply_pass(self) -> None:
        phase = self.phase
        if phase == RESPIN_PHASE:
            self._battle_continue()
        elif phase in (UPGRADE_PHASE, CHOICE_PHASE):
            self.pending = None
            self.decider = self.player
            self._end_turn()
        else:
            self._end_turn()

    def _apply_subroutine(self, slot: int, target: int) -> None:
        self.subs |= 1 << slot
        effect = self.game.slots[slot].forms[self.form[slot]].sub
        assert isinstance(effect, ClearAdjacentStatusEffect | ClearHangarWaitEffect)  # only these are activated
        if effect.kind == "clear_adjacent_status":
            self.status[target] = 0
            self.counter[target] = 0
        else:  # clear_hangar_wait
            self.wait[target] = 0
            self.blocked &= ~(1 << target)
        if effect.ends_turn:
            self._end_turn()
        else:
            self.phase = MOVE_PHASE

    def _apply_choice(self, slot: int, node: int) -> None:
        """A Purple move's placement: the chosen unit goes to the chosen free node."""
        actor = self.decider
        self.pending = None
        self._lift(slot)
        self._put(slot, node)
        if self.game.rules.surround_after == "any_position_change":
            self._after_placement(actor)
        else:
            self._goal_by_placement(actor)
        self.decider = self.player
        self._end_turn()

    # ---- battles and spins ------------------------------------------------------------------------

    def _start_spin(self, reason: int, slot: int) -> None:
        self.spin = (reason, slot)
        self.phase = SPIN

    def _spin_table(self) -> SpinTable:
        reason, slot = self.spin  # type: ignore[misc]
        if reason in (SPIN_CONFUSION, SPIN_BATTLE):
            return self._battle_table(slot)
        return self.game.spin_table(slot, self.form[slot], self.status[slot], 0, 0, self.segmod[slot])

    def _battle_table(self, slot: int) -> SpinTable:
        """The disk this unit spins in this battle: status, this turn's module bonuses, lasting losses."""
        dmg_slot, dmg, star_slot, stars = self.tfx[:4]
        damage = (dmg if dmg_slot == slot else 0) + self._subroutine_damage(slot)
        return self.game.spin_table(slot, self.form[slot], self.status[slot], damage,
                                    stars if star_slot == slot else 0, self.segmod[slot])

    def _subroutine_damage(self, slot: int) -> int:
        """Damage auras of own field units (type_damage_bonus) on this unit: they depend on the unit's types and
        place, never on the opponent (the spin-table cache is keyed without it)."""
        auras = self.game.auras[slot // SQUAD_UNITS]
        if not auras:
            return 0
        total = 0
        types = self.game.form_types[slot][self.form[slot]]
        for source, form, effect in auras:
            if self.form[source] != form or self.pos[source] < 0 or (effect.others_only and source == slot):
                continue
            if not types.intersection(effect.types):
                continue
            adjacent = self.game.nbr_mask[self.pos[source]] >> self.pos[slot] & 1
            total += effect.adjacent_amount if adjacent and effect.adjacent_amount else effect.amount
        return total

    def _takes_part(self, slot: int) -> bool:
        return effects.spins_when_attacked(self.status_rule(slot))

    def _start_battle(self, attacker: int, defender: int) -> None:
        self.battled = (attacker, defender)
        if self.game.rules.attacked_sleeper_spins and effects.cured_when_attacked(self.status_rule(defender)):
            self.status[defender] = 0  # the switch: cured as the attack starts, so it spins normally
            self.counter[defender] = 0
        # (attacker, defender, attacker segment, defender segment, step)
        self.battle = (attacker, defender, MISS, MISS, 0)
        self._battle_continue()

    def _battle_continue(self) -> None:
        """Walk the battle's steps: self-hit spins, the two battle spins, re-spin offers, resolution."""
        att, dfn, aseg, dseg, step = self.battle  # type: ignore[misc]
        order = (dfn, att) if self.game.rules.both_confused == "defender_first" else (att, dfn)
        while True:
            if step == 2 and SELF_HIT in (aseg, dseg):  # independent self-hit spins: both are in
                self._end_by_self_hits(((att, aseg), (dfn, dseg)))
                return
            if step < 2:
                who = order[step]
                step += 1
                if self._takes_part(who) and effects.confused(self.status_rule(who)):
                    self.battle = (att, dfn, aseg, dseg, step)
                    self._start_spin(SPIN_CONFUSION, who)
                    return
            elif step == 2:
                step = 3
                if self._takes_part(att):
                    self.battle = (att, dfn, aseg, dseg, step)
                    self._start_spin(SPIN_BATTLE, att)
                    return
            elif step == 3:
                step = 4
                if self._takes_part(dfn):
                    self.battle = (att, dfn, aseg, dseg, step)
                    self._start_spin(SPIN_BATTLE, dfn)
                    return
            elif step == 4:
                step = 5
                if self.tfx[6] >= 0 and self._takes_part(att):  # a re-spin committed in the Module Phase
                    self.battle = (att, dfn, aseg, dseg, step)
                    self.decider = att // SQUAD_UNITS
                    self.phase = RESPIN_PHASE
                    return
            else:
                self.battle = (att, dfn, aseg, dseg, step)
                self.decider = self.player
                self._resolve_battle()
                return

    def _end_by_self_hits(self, spun: tuple[tuple[int, int], ...]) -> None:
        """The battle is cancelled: every confused unit that hit itself is Deactivated."""
        for slot, segment in spun:
            if segment == SELF_HIT:
                self._deactivate(slot)
        self._end_turn()

    def _apply_respin(self, slot: int) -> None:
        """The committed module's one re-spin (already spent when committed); the second result is final."""
        self.tfx = (*self.tfx[:6], -1)
        self.decider = self.player
        self._start_spin(SPIN_BATTLE, slot)

    def _apply_spin(self, outcome: int, table: SpinTable) -> None:
        reason, slot = self.spin  # type: ignore[misc]
        segment = table.segments[outcome]
        self.spin = None
        if reason == SPIN_BATTLE:
            att, dfn, aseg, dseg, step = self.battle  # type: ignore[misc]
            if slot == att:
                aseg = outcome
            else:
                dseg = outcome
            self.battle = (att, dfn, aseg, dseg, step)
            self._battle_continue()
        elif reason == SPIN_CONFUSION:
            if not effects.self_hit(segment):
                self._battle_continue()
            elif self.game.rules.both_confused == "independent":
                att, dfn, aseg, dseg, step = self.battle  # type: ignore[misc]
                self.battle = (att, dfn, SELF_HIT if slot == att else aseg, SELF_HIT if slot == dfn else dseg, step)
                self._battle_continue()
            else:
                self._deactivate(slot)
                self._end_turn()
        elif reason == SPIN_WAKE:
            if effects.wake_spin_succeeds(segment):
                self.status[slot] = 0
            self._end_turn()
        else:  # SPIN_POISON
            modifier = effects.end_of_turn_spin_modifier(self.status_rule(slot))
            if segment.color in effects.DAMAGE_COLORS and modifier:
                mods = list(self.segmod[slot] or (0,) * len(table.segments))
                mods[outcome] = max(-1000, mods[outcome] + modifier)
                self.segmod[slot] = tuple(mods)
            self._next_queued()

    def _segment(self, slot: int, index: int) -> Segment:
        if index == MISS:
            return self.game.miss_segment
        return self._battle_table(slot).segments[index]

    def _resolve_battle(self) -> None:
        """Table 2.1 through `toolkit.figure.rules.combat.resolve`, then what the winning colour does."""
        att, dfn, aseg, dseg, _ = self.battle  # type: ignore[misc]
        a_seg, d_seg = self._segment(att, aseg), self._segment(dfn, dseg)
        winner = resolve(a_seg, d_seg)
        if effects.cured_when_attacked(self.status_rule(dfn)):
            self.status[dfn] = 0  # 'the effect is cured if the unit is attacked' (after counting as a Miss)
            self.counter[dfn] = 0
        self.battle = None
        if winner is Outcome.ATTACKER:
            self._winning_move(att, dfn, a_seg)
        elif winner is Outcome.DEFENDER:
            self._winning_move(dfn, att, d_seg)
        else:
            self._end_turn()

    def _winning_move(self, winner: int, loser: int, segment: Segment) -> None:
        color = segment.color
        if color in effects.DAMAGE_COLORS:
            self._deactivate(loser)
            self.kos[winner] += 1
            if self._upgrade_offered(winner):
                self.pending = winner
                self.decider = winner // SQUAD_UNITS
                self.phase = UPGRADE_PHASE
                return
        elif color is Color.PURPLE:
            if segment.inflicts and self.pos[loser] >= 0:
                self.status[loser] = self.game.status_codes[segment.inflicts]
                self.counter[loser] = 0
            if segment.board_effect is not None and self.pos[winner] >= 0:
                self._board_effect(segment.board_effect, winner, loser)
                return
        self._end_turn()

    def _immovable(self, slot: int) -> bool:
        return self.game.sub_kinds[slot][self.form[slot]] == "immovable"

    def _owner_may_move(self, slot: int) -> bool:
        """Whether its owner's swap module or Purple move may move this unit: not Frozen (spec 000 Table 2.2 'cannot
        ... be moved by the operator'; chimera's Frozen and Sleep 'cannot be selected to move')."""
        return effects.can_be_selected_to_move(self.status_rule(slot))  # 'immovable' is against the opponent only

    def _board_effect(self, effect: BoardEffect, winner: int, loser: int) -> None:
        """A winning Purple move that moves units: swap at once, or offer the winner's owner the choices."""
        side = winner // SQUAD_UNITS
        if isinstance(effect, SwapWithOpponentEffect):
            if self.pos[loser] >= 0 and not self._immovable(loser):
                a, b = self.pos[winner], self.pos[loser]
                self._put(winner, b)
                self._put(loser, a)
                if self.game.rules.surround_after == "any_position_change":
                    self._after_placement(side)
                else:
                    self._goal_by_placement(side)
            self._end_turn()
            return
        options = self._placement_options(effect, winner, loser)
        if not options:
            self._end_turn()
            return
        self.pending = (tuple(sorted(options)), isinstance(effect, MoveAllyEffect))  # moving an ally is optional
        self.decider = side
        self.phase = CHOICE_PHASE

    def _placement_options(self, effect: PushOpponentEffect | MoveSelfEffect | MoveAllyEffect, winner: int,
                           loser: int) -> list[tuple[int, int]]:
        """(unit, free node) pairs a push, a move of the winner or a move of an ally may choose from."""
        game = self.game
        free = game.full_mask & ~(self.masks[0] | self.masks[1])
        options: list[tuple[int, int]] = []
        if isinstance(effect, PushOpponentEffect):
            targets = self.adjacent_enemies(winner) if effect.any_adjacent else [loser]
            for target in targets:
                if self.pos[target] >= 0 and not self._immovable(target):
                    options += [(target, n) for n in bits(game.nbr_mask[self.pos[target]] & free)]
        elif isinstance(effect, MoveSelfEffect):
            if not self._owner_may_move(winner):
                return []
            if effect.beside_opponent:
                if self.pos[loser] >= 0:
                    options = [(winner, n) for n in bits(game.nbr_mask[self.pos[loser]] & free)]
            else:
                start = self.pos[winner]
                found = game.reach_mask(start, effect.steps, free) & free
                if effect.exact:
                    found &= ~game.reach_mask(start, effect.steps - 1, free)
                options = [(winner, n) for n in bits(found)]
        else:
            for ally in self.units_of(winner // SQUAD_UNITS):
                if ally == winner or self.pos[ally] < 0 or not self._owner_may_move(ally):
                    continue
                if effect.types and not game.form_types[ally][self.form[ally]].intersection(effect.types):
                    continue
                options += [(ally, n) for n in bits(game.reach_mask(self.pos[ally], effect.steps, free) & free)]
        return options

    def _upgrade_offered(self, slot: int) -> bool:
        return (self.game.rules.upgrade_offer != "never" and self.pos[slot] >= 0
                and self.form[slot] + 1 < len(self.game.slots[slot].forms))

    def _apply_upgrade(self, slot: int) -> None:
        self.form[slot] += 1
        self.segmod[slot] = ()  # lasting per-segment losses belonged to the old disk
        self.pending = None
        self.decider = self.player
        self._end_turn()


def _tuplify(value: object) -> object:
    """Lists (JSON's arrays) and tuples as tuples all the way down: hashable, and the same either way."""
    if isinstance(value, list | tuple):
        return tuple(_tuplify(v) for v in value)
    return value
