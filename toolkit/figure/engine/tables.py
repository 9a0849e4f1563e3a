"""What never changes during a game, compiled once: the board as integer nodes with tuple adjacency,
each unit slot's upgrade forms, the squads' modules, and a cache of spin tables per disk variant.

A `GameState` holds only small lists of ints and points at one `GameTables`; everything derived from the
unit data is looked up here, so cloning a state never copies it.
"""

from __future__ import annotations

import functools
import hashlib
import itertools
import json
import struct
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import NamedTuple, TypeAlias, TypeVar

from toolkit.figure.constants import DEPLOY_COST_MP, FIRST_TURN_MP_PENALTY, SQUAD_UNITS
from toolkit.figure.engine import effects
from toolkit.figure.engine.actions import ATTACK, MODULE, MOVE, WAKE, Action
from toolkit.figure.engine.rules import Rules
from toolkit.figure.model import Color, Module, Segment, SubroutineEffect, TypeDamageBonusEffect, Unit
from toolkit.figure.rules import combat
from toolkit.figure.rules.board import Board
from toolkit.figure.rules.combat import Outcome
from toolkit.figure.rules.disk import Disk, with_upgrade
from toolkit.figure.rules.status import STATUS_IDS, StatusRule
from toolkit.figure.theme import Theme
from toolkit.players import Player

HANGAR, BAY, REMOVED = -1, -2, -3  # positions of units that are not on a board node
REMOVED_FROM_DUEL = "removed_from_duel"
REACH_CACHE_LIMIT = 500_000
WAY_PATTERN_LIMIT = 4096  # shut patterns kept per node and MP (a dense board's long moves meet many)
STEP_TABLE_LIMIT = 64  # entries of one node's step table; past this (a long move, a dense board) a search
ACTIVATED_SUBROUTINES = ("clear_adjacent_status", "clear_hangar_wait")
# Which of its side's units a module may apply to: a unit on the field, one with a status, one waiting in the Hangar.
FIELD_UNITS, UNITS_WITH_STATUS, WAITING_UNITS, MOVABLE_UNITS = range(4)
# A swap moves both units, so it takes only field units their owner may move (not Frozen: spec 000 Table 2.2).
MODULE_TARGETS = {"clear_status": UNITS_WITH_STATUS, "clear_wait": WAITING_UNITS, "swap_units": MOVABLE_UNITS}
# where each of those sets sits in TurnMoves.units (from the highest: field, status, waiting, movable)
UNIT_SET_BITS = tuple(((1 << SQUAD_UNITS) - 1) << (3 - target) * SQUAD_UNITS for target in range(4))
MODULE_KEY_SHIFT = 4 * SQUAD_UNITS  # a module list's key: `used` above the unit sets' bits


@dataclass(frozen=True)
class Form:
    """One form in a slot's upgrade chain, with its upgrade bonus already on the disk."""

    unit: Unit
    stage: int
    disk: Disk

    @property
    def mp(self) -> int:
        return self.unit.mp

    @property
    def sub(self) -> SubroutineEffect | None:
        """The structured subroutine effect of this form (None: none, or text only)."""
        return self.unit.subroutine.effect if self.unit.subroutine is not None else None

    def sub_kind(self) -> str | None:
        return None if self.sub is None else self.sub.kind


@dataclass(frozen=True)
class Slot:
    index: int
    side: int
    label: str  # "A:sq-7": side and the squad's unit id (the base form), unique in a game
    forms: tuple[Form, ...]


_Cached = TypeVar("_Cached")  # what one of the GameTables's bounded caches holds (see GameTables._remember)

# A disk variant: slot, form, status code, damage bonus, star bonus, lasting per-segment losses.
TableKey: TypeAlias = tuple[int, int, int, int, int, tuple[int, ...] | None]


@dataclass(frozen=True)
class SpinTable:
    """A disk variant: its segments (for resolve) and the exact chance of each segment index."""

    segments: Disk
    outcomes: tuple[tuple[int, Fraction], ...]
    cumulative: tuple[int, ...]  # running sum of sizes, for sampling with one randrange


# A node's way for some MP: the nodes a walk must pass, and the nodes reached by which of those are shut.
Way: TypeAlias = tuple[int, dict[int, int]]


class Reach(NamedTuple):
    """One unit's moves this turn, with the masks a thinking player reads instead of walking the actions."""

    slot: int
    actions: tuple[Action, ...]  # MOVE actions in node order
    nodes: int  # their destinations (a node mask)


@dataclass
class GameTables:
    theme: Theme
    rules: Rules
    board: Board
    node_names: tuple[str, ...]
    adj: tuple[tuple[int, ...], ...]
    goals: tuple[int, int]
    entries: tuple[tuple[int, ...], tuple[int, ...]]
    slots: tuple[Slot, ...]
    modules: tuple[tuple[Module, ...], tuple[Module, ...]]
    squad_ids: tuple[str, str]
    data_hash: str
    status_rules: tuple[StatusRule | None, ...]  # index 0: no status; i: STATUS_IDS[i - 1]
    miss_segment: Segment = field(init=False)
    move_actions: tuple[tuple[Action, ...], ...] = field(init=False)
    _tables: dict[TableKey, SpinTable] = field(default_factory=dict, init=False, repr=False)
    _outcomes: dict[tuple[object, ...], Outcome] = field(default_factory=dict, init=False, repr=False)

    def __post_init__(self) -> None:
        self.miss_segment = Segment(move=self.theme.colors[Color.RED], color=Color.RED, size=1)
        moves = [_slot_moves(s, len(self.node_names)) for s in range(len(self.slots))]
        self.move_actions = tuple(row for row, _ in moves)
        # each slot's MOVE actions to the nodes of a mask's byte, by (shift, the 256 tuples of that byte): a Reach's
        # actions are joined from them
        self._action_bytes = tuple(chunks for _, chunks in moves)
        # the other actions of one unit on another, built once (a NamedTuple costs a Python call to make)
        self.attack_actions = tuple(tuple(Action(ATTACK, s, t) for t in range(len(self.slots)))
                                    for s in range(len(self.slots)))
        self.wake_actions = tuple(Action(WAKE, s) for s in range(len(self.slots)))
        self.node_index = {name: i for i, name in enumerate(self.node_names)}
        self.status_codes = {sid: i + 1 for i, sid in enumerate(STATUS_IDS)}
        self.full_mask = (1 << len(self.node_names)) - 1
        self.nbr_mask = tuple(sum(1 << m for m in near) for near in self.adj)
        self.min_degree = min((len(near) for near in self.adj), default=0)  # fewer opposing units surround nobody
        # the nodes next to any node of a mask, a byte of the mask at a time: (shift, the 256 halos of that byte)
        self.halo_bytes = tuple((shift, tuple(_or(self.nbr_mask[shift + i] for i in bits(byte)
                                                  if shift + i < len(self.nbr_mask)) for byte in range(256)))
                                for shift in range(0, len(self.node_names), 8))
        # per node, per number of steps: (nodes that must be passable, nodes then reached), see `steps_from`
        self._steps: list[list[tuple[tuple[int, int], ...] | None]] = [[((0, 0),)] for _ in self.node_names]
        # per node, per number of steps: the nodes a walk must pass and, by which of them are shut, the nodes
        # reached (see `way`): a move is one mask AND and one lookup
        self._ways: list[list[Way | None]] = [[(0, {0: 0})] for _ in self.node_names]
        self._deploy_ways: tuple[list[Way], list[Way]] = ([], [])  # per side, per steps after the entry
        # by MP bonus: per slot, per form, per node, the way of that form's move (see `make_slot_ways`)
        self.slot_ways: dict[int, tuple[tuple[tuple[Way | None, ...], ...], ...]] = {}
        # per slot, its Reach by destination mask: a unit's destination sets recur all game
        self._reaches: tuple[dict[int, Reach], ...] = tuple({} for _ in self.slots)
        self.node_bits = len(self.node_names) + 1
        # a history key's head: the player to move and each unit's position, as little-endian 64-bit ints
        self.key_head = struct.Struct(f"<{1 + len(self.slots)}q")
        # the nodes next to a mask's nodes, by mask: a player asks for the same reaches' neighbours all game
        self._halos: dict[int, int] = {}
        self.balls = tuple(_balls(self.nbr_mask, start) for start in range(len(self.node_names)))
        # per side, the nodes within k steps of any entry (k = 0, 1, ...): what a deploy can depend on
        self.entry_balls = tuple(_union_of_balls([self.balls[e] for e in entries]) for entries in self.entries)
        self.mp = tuple(tuple(form.mp for form in slot.forms) for slot in self.slots)
        self.lowest_mp = min((mp for forms in self.mp for mp in forms), default=0)
        self.move_mp_floor = max(self.rules.min_mp, 0)  # a move's MP is never below this (none reaches nothing)
        # whether every unit surely has the MP for a step and a deploy, later turns and the first turn (no module)
        self.surely_mp = tuple(max(self.rules.min_mp, self.lowest_mp - penalty) >= max(1, DEPLOY_COST_MP)
                               for penalty in (0, FIRST_TURN_MP_PENALTY))
        self.module_kinds = tuple(tuple(m.effect.kind for m in side) for side in self.modules)
        self.module_amounts = tuple(tuple(int(getattr(m.effect, "amount", 0)) for m in side) for side in self.modules)
        self.form_types = tuple(tuple(frozenset(f.unit.types) for f in slot.forms) for slot in self.slots)
        self.sub_kinds = tuple(tuple(f.sub_kind() for f in slot.forms) for slot in self.slots)
        # (slot, form, effect) of every damage aura, per side; empty tuples keep the battle path fast
        self.auras = tuple(tuple((slot.index, i, form.sub) for slot in self.slots if slot.side == side
                                 for i, form in enumerate(slot.forms) if isinstance(form.sub, TypeDamageBonusEffect))
                           for side in (0, 1))
        self.activated = tuple(any(k in ACTIVATED_SUBROUTINES for k in kinds) for kinds in self.sub_kinds)
        self.side_units = tuple(range(side * SQUAD_UNITS, side * SQUAD_UNITS + SQUAD_UNITS) for side in (0, 1))
        self.unit_bits = tuple(tuple((1 << i, slot) for i, slot in enumerate(units)) for units in self.side_units)
        self.activated_slots = tuple(tuple(s for s in units if self.activated[s]) for units in self.side_units)
        self.activated_bits = tuple(_or(1 << s for s in slots) for slots in self.activated_slots)
        self.all_used = tuple((1 << len(kinds)) - 1 for kinds in self.module_kinds)  # `used` when all are spent
        self.module_targets = tuple(tuple(MODULE_TARGETS.get(kind, FIELD_UNITS) for kind in kinds)
                                    for kinds in self.module_kinds)
        # each side's module actions by (spent modules, unit sets) packed in one int: the same few recur all game
        self.module_lists: tuple[dict[int, tuple[Action, ...]], ...] = ({}, {})
        self.module_choices = tuple(tuple(_module_choices(side, index, kind) for index, kind in enumerate(kinds))
                                    for side, kinds in enumerate(self.module_kinds))
        # per side, per `used`: the bits of the unit sets (TurnMoves.units) its unspent modules' actions depend on;
        # the module lists are keyed by those bits alone (a re-spin's or extra MP's action depends on no unit, and
        # a side with no clear-status module need not tell lists apart by which units have a status)
        self.module_units = tuple(
            tuple(_or(UNIT_SET_BITS[target] for index, target in enumerate(self.module_targets[side])
                      if not used >> index & 1 and len(set(self.module_choices[side][index])) > 1)
                  for used in range(1 << len(kinds)))
            for side, kinds in enumerate(self.module_kinds))
        # status codes asked about every turn: opposing units may move through them (the sleeper_passable ruling
        # applied), they thaw after some own turns, they spin at the end of the owner's turn (chimera Poison)
        ruling = self.rules.sleeper_passable
        self.passable_codes = self._status_codes(lambda rule: effects.passable_by_enemy(rule, ruling))
        self.thawing_codes = self._status_codes(lambda rule: effects.thaw_turns(rule) is not None)
        self.end_spin_codes = self._status_codes(lambda rule: bool(effects.end_of_turn_spin_modifier(rule)))
        # each form's own disk (no status, bonus or loss): the table most spins use
        self.plain_tables = tuple(tuple(self.spin_table(slot.index, form, 0, 0, 0, ())
                                        for form in range(len(slot.forms))) for slot in self.slots)
        # and asked in every battle: who spins nothing (a Miss), who spins for a self-hit first
        self.sitting_out_codes = self._status_codes(lambda rule: not effects.spins_when_attacked(rule))
        self.confused_codes = self._status_codes(
            lambda rule: effects.spins_when_attacked(rule) and effects.confused(rule))

    def resolve(self, attacker: Segment, defender: Segment) -> Outcome:
        """`rules.combat.resolve`, kept per pair of colours and numbers (all it reads): the same few pairs
        meet in every game."""
        key = (attacker.color, attacker.damage, attacker.stars, defender.color, defender.damage, defender.stars)
        outcome = self._outcomes.get(key)
        if outcome is None:
            outcome = self._outcomes[key] = combat.resolve(attacker, defender)
        return outcome

    def _status_codes(self, question: Callable[[StatusRule | None], bool]) -> frozenset[int]:
        return frozenset(code for code, rule in enumerate(self.status_rules) if question(rule))

    def reach_of(self, slot: int, nodes: int) -> Reach:
        """The Reach of `slot` to the nodes of a mask: its MOVE actions in node order (kept per slot and
        mask, the mask itself being the key: a unit's destination sets recur all game)."""
        reaches = self._reaches[slot]
        reach = reaches.get(nodes)
        if reach is None:
            chunks = self._action_bytes[slot]
            actions = chunks[0][nodes & 255]
            rest, byte = nodes >> 8, 1
            while rest:  # a mask never holds a node past the board, so never a byte past the last chunk
                actions += chunks[byte][rest & 255]
                rest >>= 8
                byte += 1
            reach = tuple.__new__(Reach, (slot, actions, nodes))  # Reach(...) without its Python-level __new__
            if len(reaches) > REACH_CACHE_LIMIT:
                reaches.clear()
            reaches[nodes] = reach
        return reach

    def steps_from(self, start: int, mp: int) -> tuple[tuple[int, int], ...] | None:
        """`start`'s step table for `mp` steps: pairs (need, reached) such that the nodes within `mp` steps,
        moving only through passable nodes, are the union of `reached` over the pairs whose `need` nodes
        are all passable. One pair per set of nodes a shortest walk passes through, built once per game,
        so a move is a short loop of mask tests instead of a search. None: too many pairs (search instead)."""
        tables = self._steps[start]
        if mp <= 0:
            return tables[0]  # no step: nothing reached
        while len(tables) <= mp:
            tables.append(self._step_table(start, len(tables)))
        return tables[mp]

    def way(self, start: int, mp: int) -> Way | None:
        """`start`'s way for `mp` steps: (need, reached) where `need` holds every node a walk of up to `mp`
        steps must pass and `reached` gives, by the nodes of `need` that are shut (`need & ~passable`), the
        nodes within `mp` steps (filled in as patterns are met: `learn`). None: too long a move for a table
        (search instead)."""
        ways = self._ways[start]
        if mp <= 0:
            return ways[0]
        while len(ways) <= mp:
            table = self.steps_from(start, len(ways))
            ways.append(None if table is None else (_or(need for need, _ in table), {}))
        return ways[mp]

    def make_slot_ways(self, bonus: int) -> tuple[tuple[tuple[Way | None, ...], ...], ...]:
        """Per slot, per form, per node: the way of the form's move with `bonus` MP (never below the rules' floor),
        so a turn's move listing reads a unit's way with three index operations (kept in `slot_ways`)."""
        floor = self.move_mp_floor
        table = tuple(tuple(tuple(self.way(node, max(floor, mp + bonus)) for node in range(len(self.node_names)))
                            for mp in forms) for forms in self.mp)
        self.slot_ways[bonus] = table
        return table

    def deploy_way(self, side: int, steps: int) -> Way:
        """The way of a deploy of `side` with `steps` steps after the entry, when only free nodes may be passed:
        its `need` holds the entries (a deploy needs a free one) and every node their ways must pass, so the
        shut nodes among them decide where a Hangar unit may go (filled in by the state as patterns are met)."""
        ways = self._deploy_ways[side]
        while len(ways) <= steps:
            need = 0
            for entry in self.entries[side]:
                way = self.way(entry, len(ways))
                need |= 1 << entry | (self.balls[entry][-1] if way is None else way[0])
            ways.append((need, {}))
        return ways[steps]  # the state clears its patterns past WAY_PATTERN_LIMIT as it adds one

    def learn(self, start: int, mp: int, shut: int) -> int:
        """The nodes within `mp` steps of `start` when the nodes `shut` (of its way's `need`) cannot be passed:
        read from the step table once, then kept in the way."""
        found = 0
        for need, got in self.steps_from(start, mp) or ():
            if not need & shut:
                found |= got
        way = self.way(start, mp)
        assert way is not None  # a way exists wherever a step table does
        if len(way[1]) > WAY_PATTERN_LIMIT:
            way[1].clear()
        way[1][shut] = found
        return found

    def _step_table(self, start: int, mp: int) -> tuple[tuple[int, int], ...] | None:
        """Every walk without repeated nodes of fewer than `mp` steps from `start`, grouped by the nodes it
        passes (its body): one more step reaches any unvisited neighbour of its last node."""
        if self._steps[start][mp - 1] is None:
            return None
        nbr = self.nbr_mask
        walks = [(0, start, 1 << start)]  # (body: its nodes but `start`, last node, every node on it)
        reached: dict[int, int] = {}
        for step in range(mp):
            longer = []
            for body, last, seen in walks:
                ahead = nbr[last] & ~seen
                reached[body] = reached.get(body, 0) | ahead
                if step + 1 < mp:
                    longer += [(body | 1 << node, node, seen | 1 << node) for node in bits(ahead)]
            walks = longer
            if len(reached) > STEP_TABLE_LIMIT:
                return None
        return tuple(sorted(reached.items(), key=lambda pair: (pair[0].bit_count(), pair[0])))

    def halo(self, nodes: int) -> int:
        """The nodes next to any node of a mask (for a Reach: where the unit could start a battle after moving)."""
        found = self._halos.get(nodes)
        if found is None:
            nbr = self.nbr_mask
            found = 0
            for node in bits(nodes):
                found |= nbr[node]
            if len(self._halos) > REACH_CACHE_LIMIT:
                self._halos.clear()
            self._halos[nodes] = found
        return found

    @staticmethod
    def _remember(cache: dict[tuple[int, ...], _Cached], key: tuple[int, ...], value: _Cached) -> None:
        if len(cache) > REACH_CACHE_LIMIT:
            cache.clear()
        cache[key] = value

    def reach_mask(self, start: int, mp: int, passable: int) -> int:
        """Nodes within `mp` steps of `start` (not `start`), expanding only through `passable` nodes.

        The caller keeps the free ones. Read from the node's step table (a search when it has none).
        """
        if mp <= 0:
            return 0
        way = self._ways[start][mp] if mp < len(self._ways[start]) else self.way(start, mp)
        if way is None:
            return self._search(start, mp, passable)
        shut = way[0] & ~passable
        found = way[1].get(shut)
        return self.learn(start, mp, shut) if found is None else found

    def _search(self, start: int, mp: int, passable: int) -> int:
        """`reach_mask` by breadth-first search over node masks (long moves on dense boards)."""
        nbr = self.nbr_mask
        seen = frontier = 1 << start
        for _ in range(mp):
            nxt = 0
            while frontier:
                low = frontier & -frontier
                nxt |= nbr[low.bit_length() - 1]
                frontier ^= low
            nxt &= ~seen
            seen |= nxt
            frontier = nxt & passable
            if not frontier:
                break
        return seen & ~(1 << start)

    @property
    def variant(self) -> str:
        return self.theme.status_variant

    def spin_table(self, slot: int, form: int, status: int, damage: int, stars: int,
                   segment_damage: tuple[int, ...] | None) -> SpinTable:
        """The segments and exact chances of one disk variant, computed once per variant."""
        key = (slot, form, status, damage, stars, segment_damage)
        table = self._tables.get(key)
        if table is None:
            disk = effects.battle_disk(self.slots[slot].forms[form].disk, self.status_rules[status], damage, stars,
                                       segment_damage, self.miss_segment.move)
            total = sum(s.size for s in disk)
            running = list(itertools.accumulate(s.size for s in disk))
            table = SpinTable(disk, tuple((i, Fraction(s.size, total)) for i, s in enumerate(disk)), tuple(running))
            self._tables[key] = table
        return table


def _module_choices(side: int, index: int, kind: str) -> tuple[tuple[Action, ...], ...]:
    """A module's actions for every set of the side's units it may apply to (bit i: the side's unit i)."""
    base = side * SQUAD_UNITS
    choices = []
    for units in range(1 << SQUAD_UNITS):
        slots = [base + i for i in bits(units)]
        if kind in ("damage_bonus", "star_bonus", "move_through", "clear_status", "clear_wait"):
            choices.append(tuple(Action(MODULE, index, s) for s in slots))
        elif kind == "swap_units":
            choices.append(tuple(Action(MODULE, index, a, b) for i, a in enumerate(slots) for b in slots[i + 1:]))
        elif kind in ("extra_mp", "respin"):  # the whole turn: a re-spin is committed now, spun in the battle
            choices.append((Action(MODULE, index),))
        else:
            choices.append(())
    return tuple(choices)


@functools.cache
def _slot_moves(slot: int, nodes: int) -> tuple[tuple[Action, ...], tuple[tuple[tuple[Action, ...], ...], ...]]:
    """A slot's MOVE action to each node, and their tuples per byte of a node mask (`_byte_tuples`): the same for
    every game on a board of that size, so built once per process (actions are immutable)."""
    row = tuple(Action(MOVE, slot, node) for node in range(nodes))
    return row, tuple(_byte_tuples(row))


def _byte_tuples(row: tuple[Action, ...]) -> list[tuple[tuple[Action, ...], ...]]:
    """For each byte of a node mask, the actions of `row` at the nodes of each of its 256 values, lowest node
    first: each value's tuple is its lowest node's action before the tuple of the value without that node."""
    chunks = []
    for shift in range(0, len(row), 8):
        chunk: list[tuple[Action, ...]] = [()]
        for byte in range(1, 256):
            low = byte & -byte
            node = shift + low.bit_length() - 1
            chunk.append(((row[node],) if node < len(row) else ()) + chunk[byte ^ low])
        chunks.append(tuple(chunk))
    return chunks


def bits(mask: int) -> list[int]:
    """The set bits of a mask, lowest first (node indices, or a side's unit indices)."""
    found = []
    while mask:
        low = mask & -mask
        found.append(low.bit_length() - 1)
        mask ^= low
    return found


def _union_of_balls(balls: list[tuple[int, ...]]) -> tuple[int, ...]:
    """Masks of the nodes within distance 0, 1, 2, ... of any of several starts (none: no node)."""
    longest = max((len(b) for b in balls), default=1)
    return tuple(_or(b[min(k, len(b) - 1)] for b in balls) for k in range(longest))


def _or(masks: Iterable[int]) -> int:
    found = 0
    for mask in masks:
        found |= mask
    return found


def _balls(nbr_mask: tuple[int, ...], start: int) -> tuple[int, ...]:
    """Masks of the nodes within distance 0, 1, 2, ... of `start`, up to the whole component."""
    balls = [1 << start]
    while True:
        current = balls[-1]
        grown = current
        rest = current
        while rest:
            low = rest & -rest
            grown |= nbr_mask[low.bit_length() - 1]
            rest ^= low
        if grown == current:
            return tuple(balls)
        balls.append(grown)


def compile_board(board: Board) -> tuple[tuple[str, ...], tuple[tuple[int, ...], ...], tuple[int, int],
                                         tuple[tuple[int, ...], tuple[int, ...]]]:
    """Node names sorted, adjacency as sorted tuples of indices, goals and entries per side."""
    names = tuple(sorted(board.nodes))
    index = {name: i for i, name in enumerate(names)}
    neighbours: list[set[int]] = [set() for _ in names]
    for a, b in board.routes:
        neighbours[index[a]].add(index[b])
        neighbours[index[b]].add(index[a])
    adj = tuple(tuple(sorted(n)) for n in neighbours)
    goals = (index[board.goal(Player.A)], index[board.goal(Player.B)])
    entries = (tuple(index[e] for e in board.entries(Player.A)), tuple(index[e] for e in board.entries(Player.B)))
    return names, adj, goals, entries


def upgrade_chain(units: dict[str, Unit], base_id: str) -> tuple[Unit, ...]:
    chain = [units[base_id]]
    while chain[-1].upgrades_to in units and len(chain) <= len(units):
        chain.append(units[chain[-1].upgrades_to])
    return tuple(chain)


def data_hash(theme_id: str, board: Board, slots: tuple[Slot, ...],
              modules: tuple[tuple[Module, ...], tuple[Module, ...]]) -> str:
    """A hash of everything the game was played with: board, every form of every unit, every module."""
    payload = {
        "theme": theme_id,
        "board": board.model_dump(mode="json"),
        "units": [[form.unit.model_dump(mode="json", by_alias=True) for form in slot.forms] for slot in slots],
        "modules": [[m.model_dump(mode="json") for m in side] for side in modules],
    }
    text = json.dumps(payload, sort_keys=True, ensure_ascii=True, separators=(",", ":"))
    return hashlib.blake2b(text.encode("ascii"), digest_size=16).hexdigest()


def side_of(slot: int) -> int:
    return slot // SQUAD_UNITS


def form_for(unit: Unit, stage: int) -> Form:
    return Form(unit, stage, with_upgrade(unit.disk, stage))
