"""What a thinking player knows about one GameTables before the first move: distances, unit values, battle odds.

Everything here is computed once per GameTables from the engine's own tables (the spin tables the state spins,
`rules.combat.resolve` for Table 2.1), so a player's battle odds are the engine's exact odds. A small
cache keyed by the GameTables keeps a process that plays thousands of games from recomputing it.

The evaluation's per-unit terms (a unit's worth where it stands, an attack's expected exchange) are
tabled here too, each computed with the same arithmetic the evaluation used to do inline, so a looked-up
term is the same float and the evaluation reads tables instead of multiplying.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass, field
from typing import TypeAlias

from toolkit.figure.constants import SQUAD_UNITS
from toolkit.figure.engine import effects
from toolkit.figure.engine.state import SPIN_BATTLE, GameState
from toolkit.figure.engine.tables import GameTables, SpinTable
from toolkit.figure.model import Color, Segment
from toolkit.figure.rules.combat import Outcome, resolve

BASE_VALUE = 10.0  # what any unit is worth: it can move, block, surround and capture
STRENGTH_WEIGHT = 6.0  # + this much per point of battle rating (from -1 to +1)
MP_WEIGHT = 1.0  # + this much per MP
EFFECT_WORTH = 0.5  # a landed Purple effect, as a share of a knockout (the balance rating's weight)
CACHE_SIZE = 8
GUARD_STEPS = 2  # nodes this close to a goal guard it
GROUP_CACHE_LIMIT = 50_000
SCORE_CACHE_LIMIT = 100_000  # about 50 MB of keys at most
BOOK_TURNS = 16  # decisions remembered only this early: later positions almost never recur
BOOK_LIMIT = 10_000  # positions remembered (a few kB each)

# A unit's worth where it stands (the evaluation's material), from its value:
HANGAR_SHARE = 0.8
WAIT_COST = 0.5  # per turn of Wait
BAY_SHARE = 0.4
STATUS_SHARE = 0.8  # a unit with a status is worth this share (frozen and asleep ones less)
STUCK_SHARE = 0.6
PROGRESS = 0.3  # per step closer to the enemy goal
ATTACK_SHARE = 0.8  # the side to move's best attack: this share of its expected exchange


# The values a greedy player worked out at one position (action, or (BOOST, module, plain move)) and whether
# the action starts a battle.
Looks: TypeAlias = dict[object, tuple[float, bool]]


@dataclass(frozen=True)
class PairOdds:
    """One battle between two units as the engine spins it: exact chances of what happens."""

    ko: float  # the attacker Deactivates the defender
    ko_back: float  # the defender Deactivates the attacker
    effect: float  # the attacker's Purple effect lands
    effect_back: float


@dataclass(frozen=True)
class BattleGroup:
    """Spin results that leave the same state behind, merged: a knockout by any White or Gold segment, the
    same Purple effect, or nothing at all."""

    probability: float
    attacker_segment: int  # a representative pair of segment indices
    defender_segment: int
    nothing: bool = False  # no knockout, no effect: the board is as if the battle had been declined


def pair_odds(attacker: tuple[Segment, ...], defender: tuple[Segment, ...]) -> PairOdds:
    """Exact odds over every pair of segments, weighed by size."""
    total = sum(s.size for s in attacker) * sum(s.size for s in defender)
    ko = ko_back = eff = eff_back = 0
    for a in attacker:
        for d in defender:
            weight = a.size * d.size
            winner = resolve(a, d)
            if winner is Outcome.DRAW:
                continue
            seg = a if winner is Outcome.ATTACKER else d
            mine = winner is Outcome.ATTACKER
            if seg.color.deals_damage:
                if mine:
                    ko += weight
                else:
                    ko_back += weight
            elif seg.color is Color.PURPLE and (seg.inflicts or seg.board_effect):
                if mine:
                    eff += weight
                else:
                    eff_back += weight
    return PairOdds(ko / total, ko_back / total, eff / total, eff_back / total)


@dataclass
class Knowledge:
    game: GameTables
    dist: tuple[tuple[int, ...], ...] = field(init=False)  # board steps between nodes (occupancy ignored)
    near_goal: tuple[int, int] = field(init=False)  # per side: nodes within GUARD_STEPS of its own goal (mask)
    # per side and node: how many steps closer to the enemy goal than the farthest node
    closeness: tuple[tuple[int, ...], tuple[int, ...]] = field(init=False)
    value: tuple[tuple[float, ...], ...] = field(init=False)  # per slot, per form
    odds: dict[tuple[int, int, int, int], PairOdds] = field(init=False)  # (slot, form, enemy slot, enemy form)
    # material terms, so evaluating a position is one lookup per unit: per slot, form, status code and node
    # (value less the status's share, plus the progress there); per slot and form in the Hangar (before
    # its Wait) and in the Repair Bay
    field_worth: tuple[tuple[tuple[tuple[float, ...], ...], ...], ...] = field(init=False)
    hangar_worth: tuple[tuple[float, ...], ...] = field(init=False)
    bay_worth: tuple[tuple[float, ...], ...] = field(init=False)
    # the evaluation's worth of attacking, keyed like `odds`: one lookup instead of a formula per threat
    attack_gain: dict[tuple[int, int, int, int], float] = field(init=False)
    # battle groups by the ids of the two spin tables (kept beside them, so the ids are not reused)
    _groups: dict[tuple[int, int], tuple[tuple[BattleGroup, ...], tuple[SpinTable | None, SpinTable | None]]] = field(
        init=False, default_factory=dict)
    # evaluations of turn-start positions by what the evaluation reads (evaluate.py builds the key): a greedy
    # turn reaches the same board again after a module, and games repeat their positions; over half are repeats
    scores: dict[tuple[int, ...], float] = field(init=False, default_factory=dict)
    # what a greedy player worked out at a position, by GameState.play_key: games open alike, so early
    # decisions recur exactly (about a quarter of a simulation's decisions); values only, never choices
    _book: dict[tuple[object, ...], Looks] = field(init=False, default_factory=dict)

    def __post_init__(self) -> None:
        game = self.game
        self.dist = _distances(game.adj)
        far = max(max(row) for row in self.dist)
        self.closeness = tuple(tuple(far - self.dist[n][game.goals[1 - side]] for n in range(len(game.adj)))
                               for side in (0, 1))  # type: ignore[assignment]
        near = [sum(1 << n for n in range(len(game.adj)) if self.dist[n][game.goals[side]] <= GUARD_STEPS)
                for side in (0, 1)]
        self.near_goal = (near[0], near[1])
        disks = [[game.spin_table(slot.index, f, 0, 0, 0, None).segments for f in range(len(slot.forms))]
                 for slot in game.slots]
        self.odds = {}
        for a in range(len(game.slots)):
            for b in range(len(game.slots)):
                if a // SQUAD_UNITS == b // SQUAD_UNITS:
                    continue
                for fa, disk_a in enumerate(disks[a]):
                    for fb, disk_b in enumerate(disks[b]):
                        self.odds[(a, fa, b, fb)] = pair_odds(disk_a, disk_b)
        values = []
        for a, slot in enumerate(game.slots):
            enemies = [b for b in range(len(game.slots)) if b // SQUAD_UNITS != a // SQUAD_UNITS]
            row = []
            for fa in range(len(slot.forms)):
                rating = 0.0
                for b in enemies:
                    attack, defend = self.odds[(a, fa, b, 0)], self.odds[(b, 0, a, fa)]
                    rating += (attack.ko + EFFECT_WORTH * attack.effect - attack.ko_back
                               + defend.ko_back + EFFECT_WORTH * defend.effect_back - defend.ko) / 2
                rating /= len(enemies)
                row.append(BASE_VALUE + STRENGTH_WEIGHT * rating + MP_WEIGHT * game.mp[a][fa])
            values.append(tuple(row))
        self.value = tuple(values)
        self._table_material()
        self.attack_gain = {key: self._attack_gain(*key) for key in self.odds}

    def _table_material(self) -> None:
        game = self.game
        nodes = range(len(game.adj))
        shares = [1.0 if code == 0 else STUCK_SHARE if not effects.can_be_selected_to_move(rule) else STATUS_SHARE
                  for code, rule in enumerate(game.status_rules)]
        self.field_worth = tuple(
            tuple(tuple(_field_term(value, shares[code], code, self.closeness[slot // SQUAD_UNITS], nodes)
                        for code in range(len(shares)))
                  for value in self.value[slot])
            for slot in range(len(game.slots)))
        self.hangar_worth = tuple(tuple(value * HANGAR_SHARE for value in row) for row in self.value)
        self.bay_worth = tuple(tuple(value * BAY_SHARE for value in row) for row in self.value)

    def _attack_gain(self, unit: int, form: int, enemy: int, enemy_form: int) -> float:
        """What `unit` attacking `enemy` is worth to the evaluation: knockouts both ways and a landed effect."""
        odds = self.odds[(unit, form, enemy, enemy_form)]
        mine, theirs = self.value[unit][form], self.value[enemy][enemy_form]
        return (odds.ko * theirs * (1 - BAY_SHARE) + EFFECT_WORTH * odds.effect * theirs * 0.2
                - odds.ko_back * mine * (1 - BAY_SHARE)) * ATTACK_SHARE

    def remember_score(self, key: tuple[int, ...], score: float) -> None:
        if len(self.scores) >= SCORE_CACHE_LIMIT:
            self.scores.clear()
        self.scores[key] = score

    def forget(self) -> None:
        """Drop the remembered scores and decisions (tens of MB in a long run; the tables stay)."""
        self.scores = {}
        self._book = {}

    def looks_at(self, state: GameState) -> Looks:
        """The values already worked out at this exact position (a new, empty dict late in a game)."""
        if state.turn >= BOOK_TURNS:
            return {}
        key = state.play_key()
        looks = self._book.get(key)
        if looks is None:
            if len(self._book) >= BOOK_LIMIT:
                self._book.clear()
            looks = self._book[key] = {}
        return looks

    def battle_groups(self, state: GameState, attacker: int, defender: int) -> tuple[BattleGroup, ...] | None:
        """The battle `attacker` would start now, as groups of spin results; None when the battle has steps
        the groups do not model (a confusion self-hit spin, or a sleeper cured before it spins)."""
        rule_a, rule_d = state.status_rule(attacker), state.status_rule(defender)
        if effects.confused(rule_a) or effects.confused(rule_d):
            return None
        if state.game.rules.attacked_sleeper_spins and effects.cured_when_attacked(rule_d):
            return None
        takes_a, takes_d = effects.spins_when_attacked(rule_a), effects.spins_when_attacked(rule_d)
        table_a = state._battle_table(attacker) if takes_a else None
        table_d = state._battle_table(defender) if takes_d else None
        key = (id(table_a), id(table_d))
        cached = self._groups.get(key)
        if cached is not None:
            return cached[0]
        groups = _groups(table_a, table_d, state.game.miss_segment)
        if len(self._groups) > GROUP_CACHE_LIMIT:
            self._groups.clear()
        self._groups[key] = (groups, (table_a, table_d))  # the tables keep their ids from being reused
        return groups


def _field_term(value: float, share: float, code: int, closeness: tuple[int, ...], nodes: range) -> tuple[float, ...]:
    """A field unit's material term on each node (the status share applied as the evaluation applied it)."""
    worth = value * share if code else value
    return tuple(worth + PROGRESS * closeness[node] for node in nodes)


def _groups(table_a: SpinTable | None, table_d: SpinTable | None, miss: Segment) -> tuple[BattleGroup, ...]:
    a_segs = table_a.segments if table_a is not None else (miss,)
    d_segs = table_d.segments if table_d is not None else (miss,)
    a_total = sum(s.size for s in a_segs)
    d_total = sum(s.size for s in d_segs)
    merged: dict[tuple[object, ...], list[int]] = {}
    for i, a in enumerate(a_segs):
        for j, d in enumerate(d_segs):
            winner = resolve(a, d)
            key: tuple[object, ...] = NOTHING
            if winner is not Outcome.DRAW:
                side, segment = ("a", a) if winner is Outcome.ATTACKER else ("d", d)
                result = _result(segment)
                key = NOTHING if result == NOTHING else (side, *result)
            weight = a.size * d.size
            if key in merged:
                merged[key][0] += weight
            else:
                merged[key] = [weight, i, j]
    total = a_total * d_total
    return tuple(BattleGroup(w / total, i, j, key == NOTHING) for key, (w, i, j) in merged.items())


NOTHING: tuple[object, ...] = ("nothing",)


def _result(segment: Segment) -> tuple[object, ...]:
    """What a winning segment does to the board: every White/Gold win Deactivates the loser alike, a Purple
    win applies its effect, anything else changes nothing."""
    if segment.color.deals_damage:
        return ("ko",)
    if segment.color is Color.PURPLE and (segment.inflicts or segment.board_effect):
        return ("effect", segment.inflicts, repr(segment.board_effect))
    return NOTHING


def apply_battle_spins(state: GameState, attacker: int, group: BattleGroup) -> None:
    """Feed a started battle the group's representative spins (units that do not take part spin nothing)."""
    while state.is_chance_node() and state.spin is not None and state.spin[0] == SPIN_BATTLE:
        slot = state.spin[1]
        state.apply(group.attacker_segment if slot == attacker else group.defender_segment)


def _distances(adj: tuple[tuple[int, ...], ...]) -> tuple[tuple[int, ...], ...]:
    rows = []
    for start in range(len(adj)):
        dist = [len(adj)] * len(adj)
        dist[start] = 0
        frontier = [start]
        while frontier:
            nxt = []
            for node in frontier:
                for near in adj[node]:
                    if dist[near] > dist[node] + 1:
                        dist[near] = dist[node] + 1
                        nxt.append(near)
            frontier = nxt
        rows.append(tuple(dist))
    return tuple(rows)


_CACHE: OrderedDict[int, Knowledge] = OrderedDict()


def knowledge(game: GameTables) -> Knowledge:
    """The Knowledge of a GameTables, computed once per process (a few most recent games are kept; only the one in use
    keeps its remembered scores and decisions, so a round robin's memory stays that of one game)."""
    last = next(reversed(_CACHE.values()), None)
    if last is not None and last.game is not game:
        last.forget()
    known = _CACHE.get(id(game))
    if known is not None and known.game is game:
        _CACHE.move_to_end(id(game))
        return known
    known = Knowledge(game)
    _CACHE[id(game)] = known
    while len(_CACHE) > CACHE_SIZE:
        _CACHE.popitem(last=False)
    return known
