"""One turn of lookahead for the sword duel: candidate choices, the payoff matrix, the leaf evaluation.

A cell of the matrix is one choice of each player resolved as the engine's `resolve_turn` resolves it (by
`resolver.transition`, the same rules on ints, checked against the engine cell by cell), valued by
`evaluate` at the start of the next turn (or the result, when the duel ends). Cells are remembered per
process by what resolution reads (the played techniques, builds, range, turn, resources, Health and the
choices; not the Insight target nor what either player knows), so a duel's repeated positions and a
simulation's repeated setups cost a dictionary look-up.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from toolkit.players import Player
from toolkit.sword import constants
from toolkit.sword.bots.resolver import Transition
from toolkit.sword.bots.resolver import transition as resolve
from toolkit.sword.engine.duel import Choice, DuelState, legal_choices
from toolkit.sword.model import Technique
from toolkit.sword.rules.positions import Move, Range, can_attack, resolve_position
from toolkit.sword.rules.state import Action, InsightTarget, Knowledge, PlayerState, Reason, Result

# The leaf evaluation: a won duel is 1, a lost one -1, a draw 0; otherwise Health dominates, then
# Momentum (attack bonuses, evades) and Balance (initiative, evades), never reaching a result's value.
HEALTH_WEIGHT = 0.6 / constants.START_HEALTH
MOMENTUM_WEIGHT = 0.04
BALANCE_WEIGHT = 0.04
LEAF_LIMIT = 0.95
# Remembered transitions per process before the memory starts again: about 210 MB of packed ints. Half of
# 1,000 self-play duels (one of 2 jobs) stays under it; 1,000,000 was reached after about 380 duels.
CACHE_LIMIT = 2_000_000
_BEFORE_COMBAT = (Reason.DISHONOR, Reason.DOUBLE_DISHONOR)


@dataclass(frozen=True, slots=True)
class Candidate:
    """A choice worth looking at, and how many legal choices it stands for (Insight targets that resolve
    alike are one candidate)."""

    choice: Choice
    weight: int


def evaluate(state: DuelState, player: Player) -> float:
    """The duel's worth to `player`, from -1 (lost) to 1 (won), 0 for a draw."""
    if state.result is not None:
        if state.result.winner is None:
            return 0.0
        return 1.0 if state.result.winner is player else -1.0
    me, foe = state.players[player.seat], state.players[player.other().seat]
    score = (HEALTH_WEIGHT * (me.health - foe.health) + MOMENTUM_WEIGHT * (me.momentum - foe.momentum)
             + BALANCE_WEIGHT * (me.balance - foe.balance))
    return max(-LEAF_LIMIT, min(LEAF_LIMIT, score))


def insight_target(knows: Knowledge) -> InsightTarget:
    """The Insight a looking-ahead player asks for: an attribute it does not know yet (Strength first: it
    says how hard the opponent hits), else the technique in play."""
    for target in (InsightTarget.STRENGTH, InsightTarget.DEFENSE, InsightTarget.SPEED):
        if getattr(knows, target.value) is None:
            return target
    return InsightTarget.TECHNIQUE


_CANDIDATES: dict[tuple[object, int, int, InsightTarget],
                  tuple[object, object, tuple[Candidate, ...], tuple[Choice, ...]]] = {}


def candidates(state: DuelState, player: Player) -> list[Candidate]:
    """The player's legal choices with the four Insight targets folded into one (they resolve alike but
    for what is learned): the target `insight_target` picks, weighted 4. Listed once per range, hand and
    target (the entry keeps its techniques, so a reused object id is never mistaken for them)."""
    return list(_listed(state, player)[2])


def candidate_choices(state: DuelState, player: Player) -> tuple[Choice, ...]:
    """The choices of `candidates`, as one tuple kept with the listing: the same object for the same range,
    hand and target, so a matrix finds its side ids remembered (`_sides`)."""
    return _listed(state, player)[3]


def _listed(state: DuelState, player: Player) -> tuple[object, object, tuple[Candidate, ...], tuple[Choice, ...]]:
    techniques = state.players[player.seat].techniques
    target = insight_target(state.players[player.seat].knows)
    key = (state.range, id(techniques[0]), id(techniques[1]), target)
    entry = _CANDIDATES.get(key)
    if entry is None or entry[0] is not techniques[0] or entry[1] is not techniques[1]:
        if len(_CANDIDATES) > 4096:
            _CANDIDATES.clear()
        folded = tuple(_fold(state, player, target))
        entry = _CANDIDATES[key] = (techniques[0], techniques[1], folded, tuple(c.choice for c in folded))
    return entry


def _fold(state: DuelState, player: Player, target: InsightTarget) -> list[Candidate]:
    found: dict[Choice, int] = {}
    for choice in legal_choices(state, player):
        if choice.action is Action.INSIGHT:
            key = Choice(choice.move, choice.action, choice.technique, choice.evade, choice.evade_with,
                         choice.special_evade, target, choice.reset)
        else:
            key = choice
        found[key] = found.get(key, 0) + 1
    return [Candidate(choice, weight) for choice, weight in found.items()]


# What a side is doing in a cell, as resolution sees it (its role): 0 neither attacks it nor is attacked, 1 it
# attacks, 2 it is attacked, 3 both attack (no evade declared by either), 4 both attack and an evade is declared.


# Remembered transitions, keyed by one int packing (side id of A, side id of B, range, honor turn reached);
# a side id is a small int standing for a `_side` key (interned; fewer than CACHE_LIMIT, so a packed key fits
# numpy's int64). Both tables start again together (an id must never outlive its key), and only between
# matrices.
_TRANSITIONS: dict[int, int] = {}  # packed transitions (`_pack`)
_SIDE_IDS: dict[tuple[object, ...], int] = {}
# Held while a matrix or a cell reads or fills the tables: the web studio runs computer players of several
# tables in threads, and a side id handed out twice, or tables cleared under another matrix's ids, would
# value cells with another exchange's transition.
_TABLES = threading.Lock()


def _side_ids(player: PlayerState, choice: Choice) -> tuple[int, int, int, int, int]:
    """The side id of a choice in each of the five roles: what of one side resolution can read. The action
    card only when someone attacks, the evade only when attacked (a Defend or an Insight with no attack coming
    changes nothing; nor does an evade); Strength only to attack, Defense only when attacked, Speed only when
    both attack and an evade is declared (initiative orders two evades, or an evade and the other's attack;
    one target needs no order)."""
    base = (_technique_number(player.techniques[choice.technique]), player.momentum, player.balance, choice.move,
            choice.reset)
    acting = (*base, choice.action)
    attributes = player.attributes
    defended = (attributes.defense, choice.evade, choice.evade_with, choice.special_evade)
    attacks = (*acting, attributes.strength)
    both = attacks + defended
    ids = []
    for key in (base, attacks, acting + defended, both, (*both, attributes.speed)):
        found = _SIDE_IDS.get(key)
        if found is None:
            found = _SIDE_IDS[key] = len(_SIDE_IDS)
        ids.append(found)
    return ids[0], ids[1], ids[2], ids[3], ids[4]


_RANGE_BITS = {distance: index << 1 for index, distance in enumerate(Range)}


def _context(state: DuelState) -> int:
    """The low bits of a cell's key: the range and whether the honor turn is reached."""
    return _RANGE_BITS[state.range] | (state.honor and state.turn >= constants.HONOR_TURN)


# A technique's number in the side keys: equal cards share one, and a card edited under the same id (the studio
# and `watch` load a project again after each save) is another, so its cells are never the old card's.
_TECHNIQUE_NUMBERS: dict[str, int] = {}  # by the card's JSON (a card holds dicts, so it cannot be hashed)
_NUMBER_OF_OBJECT: dict[int, tuple[Technique, int]] = {}  # by object id (writing the JSON reads every field)
TECHNIQUES_LIMIT = 4096


def _technique_number(technique: Technique) -> int:
    known = _NUMBER_OF_OBJECT.get(id(technique))
    if known is not None and known[0] is technique:
        return known[1]
    number = _TECHNIQUE_NUMBERS.setdefault(technique.model_dump_json(), len(_TECHNIQUE_NUMBERS))
    _NUMBER_OF_OBJECT[id(technique)] = (technique, number)
    return number


def _make_room() -> None:
    """Start the memory again when it is full; the tables go together, as a side id or a technique number
    must never outlive what it stands for."""
    if (len(_TRANSITIONS) >= CACHE_LIMIT or len(_SIDE_IDS) >= CACHE_LIMIT
            or len(_NUMBER_OF_OBJECT) >= TECHNIQUES_LIMIT):
        _TRANSITIONS.clear()
        _SIDE_IDS.clear()
        _SIDES.clear()
        _TECHNIQUE_NUMBERS.clear()
        _NUMBER_OF_OBJECT.clear()


def _roles(distance: object, choice_a: Choice, choice_b: Choice) -> tuple[int, int]:
    """Each side's role in the cell of these two choices from `distance`."""
    in_range = can_attack(resolve_position(distance, choice_a.move, choice_b.move))  # type: ignore[arg-type]
    hit_b = in_range and choice_a.action is Action.ATTACK
    hit_a = in_range and choice_b.action is Action.ATTACK
    if hit_a and hit_b:
        both = 4 if choice_a.evade or choice_b.evade else 3
        return both, both
    return (1 if hit_b else 2 if hit_a else 0), (1 if hit_a else 2 if hit_b else 0)


# A remembered transition is one int: Momentum, Balance and damage taken of A then of B, 8 bits each (caps
# and amounts are at most 10, damage at most the starting Health), the range, then how a dishonor ended the
# turn (0: it did not; 1 a draw, 2 A won, 3 B won). An int costs a third of the tuple's memory, and a matrix's
# transitions are valued together with numpy.
_FIELD = 8
_RANGES = tuple(Range)
_RANGE_INDEX = {distance: index for index, distance in enumerate(_RANGES)}
_ENDED_SHIFT = 6 * _FIELD + 2
_WINNERS = (None, Player.A, Player.B)


def _pack(found: Transition) -> int:
    distance, ma, ba, hurt_a, mb, bb, hurt_b, ended = found
    end = 0 if ended is None else 1 + _WINNERS.index(ended.winner)
    return (ma | ba << _FIELD | hurt_a << 2 * _FIELD | mb << 3 * _FIELD | bb << 4 * _FIELD | hurt_b << 5 * _FIELD
            | _RANGE_INDEX[distance] << 6 * _FIELD | end << _ENDED_SHIFT)


def _unpack(code: int) -> Transition:
    ma, ba, hurt_a, mb, bb, hurt_b = ((code >> (_FIELD * i)) & 255 for i in range(6))
    end = code >> _ENDED_SHIFT
    winner = _WINNERS[end - 1]
    ended = None if end == 0 else Result(winner, Reason.DOUBLE_DISHONOR if winner is None else Reason.DISHONOR)
    return (_RANGES[(code >> 6 * _FIELD) & 3], ma, ba, hurt_a, mb, bb, hurt_b, ended)


def transition(state: DuelState, choice_a: Choice, choice_b: Choice) -> Transition:
    """What the turn does apart from Health: the range, each side's Momentum, Balance and damage taken (at
    most the starting Health), and a result reached before combat (dishonor). Remembered by what it reads:
    the same exchange at another Health or turn (before or after the honor turn) is looked up."""
    role_a, role_b = _roles(state.range, choice_a, choice_b)
    with _TABLES:
        _make_room()
        key = ((_side_ids(state.players[0], choice_a)[role_a] << 32
                | _side_ids(state.players[1], choice_b)[role_b]) << 3 | _context(state))
        found = _TRANSITIONS.get(key)
        if found is None:
            found = _TRANSITIONS[key] = _pack(resolve(state, choice_a, choice_b))
    return _unpack(found)


def cell_value(state: DuelState, choice_a: Choice, choice_b: Choice) -> float:
    """Player A's value after both choices resolve."""
    return _value(state, transition(state, choice_a, choice_b))


def _value(state: DuelState, found: Transition) -> float:
    """Player A's value of a transition from this state (its Health and turn)."""
    _, ma, ba, hurt_a, mb, bb, hurt_b, ended = found
    if ended is not None:
        return _result_value(ended.winner)
    ha, hb = max(0, state.players[0].health - hurt_a), max(0, state.players[1].health - hurt_b)
    if ha == 0 or hb == 0:
        return 0.0 if ha == hb else (1.0 if hb == 0 else -1.0)
    if state.turn >= constants.TURN_LIMIT:
        return 0.0  # a draw by time
    score = HEALTH_WEIGHT * (ha - hb) + MOMENTUM_WEIGHT * (ma - mb) + BALANCE_WEIGHT * (ba - bb)
    return max(-LEAF_LIMIT, min(LEAF_LIMIT, score))


def _result_value(winner: Player | None) -> float:
    return 0.0 if winner is None else (1.0 if winner is Player.A else -1.0)


def payoff(state: DuelState, player: Player, rows: Sequence[Choice], cols: Sequence[Choice]) -> list[list[float]]:
    """rows x cols values for `player` (rows are its choices, columns the opponent's): `cell_value` of
    every cell, worked out for the whole matrix at once (each distinct transition is looked up once)."""
    return payoff_array(state, player, rows, cols).tolist()  # type: ignore[no-any-return]


def payoff_array(state: DuelState, player: Player, rows: Sequence[Choice], cols: Sequence[Choice]) -> np.ndarray:
    """`payoff` as a numpy array (the equilibrium player keeps it one: no conversions per decision)."""
    with _TABLES:
        if player is Player.A:
            return _values(state, rows, cols)
        return -_values(state, cols, rows).T  # type: ignore[no-any-return]


_MOVES = tuple(Move)
_RETREAT = _MOVES.index(Move.RETREAT)
_AFTER = {distance: np.array([[can_attack(resolve_position(distance, a, b)) for b in _MOVES] for a in _MOVES])
          for distance in Range}  # in range after the two movements, by (A's, B's) move index


Sides = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]  # moves, attacks, evades, side ids (n x 5)
# Side ids of a choice list, by the list's object id and what `_side_ids` reads of the player (its techniques'
# numbers, Momentum, Balance, attributes); the entry keeps the list, so a reused object id is never mistaken for
# it. Listings from `candidate_choices` are the same objects from decision to decision: 7 in 10 look-ups are
# found here over 80 pairs of self-play (1 in 3 before, a decision's own rows). Cleared with the side ids.
_SIDES: dict[tuple[object, ...], tuple[Sequence[Choice], Sides]] = {}
SIDES_LIMIT = 8192


def _sides(player: PlayerState, choices: Sequence[Choice]) -> Sides:
    """Each choice's move index, attack, evade and side ids."""
    key = (id(choices), *map(_technique_number, player.techniques), player.momentum, player.balance,
           player.attributes)
    entry = _SIDES.get(key)
    if entry is not None and entry[0] is choices:
        return entry[1]
    found = (np.array([_MOVES.index(c.move) for c in choices]), np.array([c.action is Action.ATTACK for c in choices]),
             np.array([c.evade for c in choices]),
             np.array([_side_ids(player, c) for c in choices], dtype=np.int64).reshape(len(choices), 5))
    if len(_SIDES) >= SIDES_LIMIT:
        _SIDES.clear()
    _SIDES[key] = (choices, found)
    return found


# Whole matrices, by the two listings' object ids and everything else `_values` reads of the state: the range,
# the honor turn reached, the turn limit reached, and per player its techniques, Momentum, Balance, Health and
# build. The entry keeps the listings and techniques, so a reused object id is never mistaken for them. Self-play
# meets the same imagined world again in 1 matrix in 10 over 100 pairs (first turns of duels with the same hands).
_MATRICES: dict[tuple[object, ...], tuple[tuple[object, ...], np.ndarray]] = {}
MATRIX_LIMIT = 2048  # matrices remembered (about 20 kB each) before the memory starts again


def _values(state: DuelState, choices_a: Sequence[Choice], choices_b: Sequence[Choice]) -> np.ndarray:
    """Player A's value of every (A choice, B choice) cell, as a read-only array, remembered whole."""
    pa, pb = state.players
    kept = (choices_a, choices_b, *pa.techniques, *pb.techniques)
    key = (*map(id, kept), state.range, state.honor and state.turn >= constants.HONOR_TURN,
           state.turn >= constants.TURN_LIMIT, pa.momentum, pa.balance, pa.health, pa.attributes,
           pb.momentum, pb.balance, pb.health, pb.attributes)
    entry = _MATRICES.get(key)
    if entry is not None and all(one is other for one, other in zip(entry[0], kept, strict=True)):
        return entry[1]
    found = _worked_out(state, choices_a, choices_b)
    found.flags.writeable = False
    if len(_MATRICES) >= MATRIX_LIMIT:
        _MATRICES.clear()
    _MATRICES[key] = (kept, found)
    return found


def _worked_out(state: DuelState, choices_a: Sequence[Choice], choices_b: Sequence[Choice]) -> np.ndarray:
    """`_values` afresh. The side ids of each choice in each role are worked out once per choice; numpy finds
    each cell's pair of ids, and only the distinct pairs are looked up (and resolved when new)."""
    _make_room()
    (move_a, attack_a, evade_a, ids_a), (move_b, attack_b, evade_b, ids_b) = (
        _sides(state.players[0], choices_a), _sides(state.players[1], choices_b))
    in_range = _AFTER[state.range][move_a[:, None], move_b[None, :]]
    hit_b = in_range & attack_a[:, None]  # A's attack lands in range
    hit_a = in_range & attack_b[None, :]
    both = hit_a & hit_b
    evading = both & (evade_a[:, None] | evade_b[None, :])
    role_a = np.where(both, 3 + evading, np.where(hit_b, 1, np.where(hit_a, 2, 0)))
    role_b = np.where(both, 3 + evading, np.where(hit_a, 1, np.where(hit_b, 2, 0)))
    side_a = np.take_along_axis(ids_a, role_a, axis=1)  # rows: A's choices
    side_b = np.take_along_axis(ids_b, role_b.T, axis=1).T
    keys = (side_a << 32 | side_b) << 3 | _context(state)
    if not (state.honor and state.turn >= constants.HONOR_TURN):
        return _looked_up(state, choices_a, choices_b, keys)
    # a Retreat from the honor turn on loses before anything else is resolved (both: a draw)
    retreat_a, retreat_b = move_a == _RETREAT, move_b == _RETREAT
    out = np.where(retreat_a[:, None], np.where(retreat_b[None, :], 0.0, -1.0),
                   np.where(retreat_b[None, :], 1.0, np.nan))
    rest = np.isnan(out)
    out[rest] = _looked_up(state, choices_a, choices_b, np.where(rest, keys, -1))[rest]
    return out


def _looked_up(state: DuelState, choices_a: Sequence[Choice], choices_b: Sequence[Choice],
               keys: np.ndarray) -> np.ndarray:
    """Player A's value of each cell from its remembered transition (resolved when new), each distinct key
    once; cells keyed -1 are skipped (valued 0). The values are `_value`'s, worked out with numpy (the same
    float operations in the same order, so the same bits)."""
    keys, first, where = np.unique(keys.ravel(), return_index=True, return_inverse=True)
    n_b = len(choices_b)
    table = _TRANSITIONS
    get = table.get
    codes = np.array([get(key, -1) for key in keys.tolist()], dtype=np.int64)
    new = np.flatnonzero((codes < 0) & (keys >= 0))
    if new.size:
        found = [_pack(resolve(state, choices_a[cell // n_b], choices_b[cell % n_b])) for cell in first[new].tolist()]
        codes[new] = found
        table.update(zip(keys[new].tolist(), found, strict=True))
    ma, ba, hurt_a, mb, bb, hurt_b = ((codes >> (_FIELD * i)) & 255 for i in range(6))
    end = codes >> _ENDED_SHIFT  # -1 for a skipped cell
    ha = np.maximum(0, state.players[0].health - hurt_a)
    hb = np.maximum(0, state.players[1].health - hurt_b)
    score = HEALTH_WEIGHT * (ha - hb) + MOMENTUM_WEIGHT * (ma - mb) + BALANCE_WEIGHT * (ba - bb)
    values = np.clip(score, -LEAF_LIMIT, LEAF_LIMIT)
    if state.turn >= constants.TURN_LIMIT:
        values[:] = 0.0  # a draw by time
    knocked = (ha == 0) | (hb == 0)
    values[knocked] = np.where(ha == hb, 0.0, np.where(hb == 0, 1.0, -1.0))[knocked]
    values[end > 0] = np.array([0.0, 0.0, 1.0, -1.0])[end[end > 0]]  # a dishonor before combat
    values[end < 0] = 0.0
    matrix: np.ndarray = values[where.reshape(len(choices_a), n_b)]
    return matrix
