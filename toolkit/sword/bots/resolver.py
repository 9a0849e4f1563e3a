"""The lookahead's own resolution of one turn: what `resolve_turn` does to the range, both players' Momentum,
Balance and Health, and a dishonor, worked out on plain ints.

Why a second resolution: a looking-ahead player resolves about 700 cells it has never seen per decision, and
the engine's turn (players, views and combatants as objects, effects interpreted kind by kind, a log to
write) costs about 30 us of Python calls each. Here each technique is compiled once into flat tuples (its
effects by kind with their conditions), and a turn is one function over ints: the same rules, in the engine's
order (the engine's docstring lists the rulings), several times faster. It knows nothing of Insight (what a
player learns changes no resource) and trusts its choices to be legal. `tests/sword/test_resolver.py` checks
it against the engine cell by cell, over every sample technique and random states.
"""

from __future__ import annotations

from typing import Any

from toolkit.players import Player
from toolkit.sword import constants
from toolkit.sword.model import Condition, Technique
from toolkit.sword.rules.effects import cap, is_comparison, is_momentum_based, of_kind
from toolkit.sword.rules.positions import Move, Range, resolve_position
from toolkit.sword.rules.state import Action, Choice, DuelState, Reason, Result

# A transition: the range, (Momentum, Balance, damage taken) of A then of B, and a dishonor ending the turn.
Transition = tuple[Range, int, int, int, int, int, int, Result | None]

_RES = {"momentum": 0, "balance": 1}
_MOVE_DELTAS = {move: (constants.MOVE_RESOURCES[move.value].get("momentum", 0),
                       constants.MOVE_RESOURCES[move.value].get("balance", 0)) for move in Move}
_START = constants.START_HEALTH
_HONOR_TURN = constants.HONOR_TURN
_ADVANCE, _RETREAT = Move.ADVANCE, Move.RETREAT
_ATTACK, _DEFEND, _INSIGHT = Action.ATTACK, Action.DEFEND, Action.INSIGHT
_APART, _CLOSE = Range.APART, Range.CLOSE
# The range after both movements, by range, A's move, B's move (`resolve_position`, looked up without a call)
_POSITION = {distance: {a: {b: resolve_position(distance, a, b) for b in Move} for a in Move} for distance in Range}

# A compiled condition: None (always holds) or (ranges, moved, entered_close, momentum_at_least,
# balance_at_least, momentum_exactly, balance_exactly, balance_exceeds_opponent_momentum_by,
# opponent_attack_at_least), with None for a field the condition does not set.
Cond = tuple[Any, ...] | None


def _cond(when: Condition | None) -> Cond:
    if when is None or when == Condition():
        return None
    ranges = None if when.range is None else frozenset(Range(name) for name in when.range)
    moved = None if when.moved is None else Move(when.moved)
    return (ranges, moved, when.entered_close, when.momentum_at_least, when.balance_at_least,
            when.momentum_exactly, when.balance_exactly, when.balance_exceeds_opponent_momentum_by,
            when.opponent_attack_at_least)


def _holds(c: tuple[Any, ...], m: int, b: int, foe_m: int, dist: Range, moved: Move, entered: bool,
           foe_attack: int) -> bool:
    """`rules.effects.holds` on ints: every field the condition sets is met."""
    ranges, cmoved, centered, m_least, b_least, m_exact, b_exact, exceeds, attack_least = c
    return ((ranges is None or dist in ranges) and (cmoved is None or moved is cmoved)
            and (centered is None or centered == entered) and (m_least is None or m >= m_least)
            and (b_least is None or b >= b_least) and (m_exact is None or m == m_exact)
            and (b_exact is None or b == b_exact) and (exceeds is None or b >= foe_m + exceeds)
            and (attack_least is None or foe_attack >= attack_least))


# What a per-unit bonus counts: (owner is the opponent, resource index).
_PER = {"momentum": (False, 0), "balance": (False, 1), "opponent_momentum": (True, 0), "opponent_balance": (True, 1)}


class Compiled:
    """One technique's rules as flat tuples (effects with their compiled conditions), built once."""

    __slots__ = (
        "attack_bonus",
        "bypass_defense",
        "bypass_evade",
        "cannot_defend",
        "caps",
        "counter_on_defend",
        "defense_bonus",
        "evade",
        "gain_prevented",
        "gains",
        "halve",
        "immune",
        "protect_comparison",
        "protect_momentum",
        "retreat_loss",
        "special_evade",
        "steals",
        "surcharge",
        "technique",
    )

    def __init__(self, t: Technique) -> None:
        self.technique = t
        self.caps = (cap(t, "momentum"), cap(t, "balance"))
        self.retreat_loss = tuple((_cond(e.when), e.amount) for e in of_kind(t, "retreat_momentum_loss"))
        self.gains = tuple((_cond(e.when), _RES[e.resource], e.amount) for e in of_kind(t, "gain"))
        self.attack_bonus = tuple(_bonus(e) for e in of_kind(t, "attack_bonus"))
        self.defense_bonus = tuple(_bonus(e) for e in of_kind(t, "defense_bonus"))
        self.bypass_defense = tuple((_cond(e.when), is_comparison(e), is_momentum_based(e))
                                    for e in of_kind(t, "bypass_defense"))
        self.bypass_evade = tuple((_cond(e.when), None if e.paid_with is None else _RES[e.paid_with],
                                   is_comparison(e), is_momentum_based(e)) for e in of_kind(t, "bypass_evade"))
        self.cannot_defend = tuple(_cond(e.when) for e in of_kind(t, "cannot_defend"))
        self.halve = tuple(_cond(e.when) for e in of_kind(t, "halve_opponent_momentum_bonus"))
        self.counter_on_defend = tuple((_cond(e.when), e.amount, e.defense_divisor)
                                       for e in of_kind(t, "counter_on_defend"))
        specials = of_kind(t, "special_evade")
        self.special_evade = None if not specials else (_cond(specials[0].when), _RES[specials[0].resource],
                                                        specials[0].amount, specials[0].counter)
        rule = t.evade
        resource = None if rule.resource is None else -1 if rule.resource == "either" else _RES[rule.resource]
        self.evade = (rule.cannot, _cond(rule.when), rule.free_when is not None, _cond(rule.free_when), resource,
                      rule.amount, rule.counter, tuple((_RES[r], amount) for r, amount in rule.gain.items()))
        self.surcharge = sum(e.amount for e in of_kind(t, "evade_surcharge"))
        against = {e.against for e in of_kind(t, "evade_protection")}
        self.protect_comparison, self.protect_momentum = "comparison" in against, "momentum" in against
        self.immune = frozenset(_RES[e.resource] for e in of_kind(t, "immune_to_steal"))
        self.steals = tuple((_cond(e.when), _RES[e.resource], e.amount) for e in of_kind(t, "steal_on_hit"))
        self.gain_prevented = tuple((_cond(e.when), _RES[e.resource], e.max) for e in of_kind(t, "gain_prevented"))

    def protects(self, is_cmp: bool, is_mom: bool) -> bool:
        """`rules.effects.protected`: this technique shields its player from a bypass of that kind."""
        return (self.protect_comparison and is_cmp) or (self.protect_momentum and is_mom)


def _bonus(e: Any) -> tuple[Any, ...]:
    per = None if e.per is None else _PER[e.per]
    spends = _RES[e.per] if e.spend and e.per in _RES else None
    return (_cond(e.when), e.amount, per, e.max, spends, is_momentum_based(e))


_COMPILED: dict[int, Compiled] = {}


def compiled(technique: Technique) -> Compiled:
    """The technique compiled (once per technique object; the entry keeps it, so an id is never reused)."""
    entry = _COMPILED.get(id(technique))
    if entry is None or entry.technique is not technique:
        if len(_COMPILED) > 4096:
            _COMPILED.clear()
        entry = _COMPILED[id(technique)] = Compiled(technique)
    return entry


class _Turn:
    """The working ints of one turn, indexed by seat (slots: attribute access is most of what it does)."""

    __slots__ = ("atk", "attacking", "attrs", "bypass", "caps", "choices", "counters", "defending", "defense",
                 "dist", "entered", "evaded", "moves", "r", "techs")

    def __init__(self, state: DuelState, choices: tuple[Choice, Choice], techs: tuple[Compiled, Compiled],
                 r: list[int], dist: Range) -> None:
        self.r = r  # Momentum and Balance: [A's M, A's B, B's M, B's B]
        self.techs = techs
        self.choices = choices
        self.caps = (techs[0].caps, techs[1].caps)
        self.attrs = (state.players[0].attributes, state.players[1].attributes)
        self.dist = dist
        self.moves = (choices[0].move, choices[1].move)
        self.entered = dist is _CLOSE and state.range is not _CLOSE
        in_range = dist is not _APART
        actions = (choices[0].action, choices[1].action)
        self.attacking = (in_range and actions[0] is _ATTACK, in_range and actions[1] is _ATTACK)
        self.defending = (in_range and actions[0] is _DEFEND, in_range and actions[1] is _DEFEND)
        self.atk = [0, 0]  # Attack Totals as assigned so far (what a condition's view shows)
        self.defense = [0, 0]
        self.bypass = [False, False]
        self.evaded = [False, False]
        self.counters = [0, 0]

    def holds(self, c: Cond, seat: int) -> bool:
        """A compiled condition from one seat's side of the table as it is now."""
        if c is None:
            return True
        foe = 1 - seat
        r = self.r
        return _holds(c, r[2 * seat], r[2 * seat + 1], r[2 * foe], self.dist, self.moves[seat], self.entered,
                      self.atk[foe] if self.attacking[foe] else 0)

    def change(self, seat: int, res: int, delta: int) -> int:
        """`Turn.change`: a resource moved by delta within 0..cap; how much it moved."""
        i = 2 * seat + res
        before = self.r[i]
        after, most = before + delta, self.caps[seat][res]
        after = 0 if after < 0 else most if after > most else after
        self.r[i] = after
        return after - before


# Momentum and Balance after movement (`_movement`), by what it reads: both compiled techniques (kept in the key,
# so never mistaken for another's), the four resources, both movements and the range. A matrix's cells share a
# few of them (about 6,000 over 450,000 cells of 100 self-play duels).
_MOVED: dict[tuple[object, ...], tuple[int, int, int, int]] = {}
MOVED_LIMIT = 16384  # about 5 MB at most (the remembered cells take about 210 MB)


def transition(state: DuelState, choice_a: Choice, choice_b: Choice) -> Transition:
    """What `resolve_turn(state, a, b)` does from full Health: range, each side's Momentum, Balance and damage
    taken (at most the starting Health), and a dishonor (a result reached before combat)."""
    pa, pb = state.players
    r = [pa.momentum, pa.balance, pb.momentum, pb.balance]
    if choice_a.reset:
        r[0] = r[1] = 0
    if choice_b.reset:
        r[2] = r[3] = 0
    move_a, move_b = choice_a.move, choice_b.move
    if (move_a is _RETREAT or move_b is _RETREAT) and state.honor and state.turn >= _HONOR_TURN:
        if move_a is move_b:
            result = Result(None, Reason.DOUBLE_DISHONOR)
        else:
            result = Result(Player.B if move_a is _RETREAT else Player.A, Reason.DISHONOR)
        return (state.range, r[0], r[1], 0, r[2], r[3], 0, result)
    ta, tb = pa.techniques[choice_a.technique], pb.techniques[choice_b.technique]
    ca, cb = _COMPILED.get(id(ta)), _COMPILED.get(id(tb))
    if ca is None or ca.technique is not ta:
        ca = compiled(ta)
    if cb is None or cb.technique is not tb:
        cb = compiled(tb)
    techs = (ca, cb)
    turn = _Turn(state, (choice_a, choice_b), techs, r, _POSITION[state.range][move_a][move_b])
    key = (ca, cb, r[0], r[1], r[2], r[3], move_a, move_b, state.range)
    moved = _MOVED.get(key)
    if moved is None:
        _movement(turn)
        if len(_MOVED) >= MOVED_LIMIT:
            _MOVED.clear()
        _MOVED[key] = (r[0], r[1], r[2], r[3])
    else:
        r[:] = moved
    if not (turn.attacking[0] or turn.attacking[1]):
        return (turn.dist, r[0], r[1], 0, r[2], r[3], 0, None)
    taken = [0, 0]
    spends = _attacks(turn)
    _defenses(turn, spends)
    _evades(turn)
    _damage(turn, taken)
    hurt_a, hurt_b = taken
    return (turn.dist, r[0], r[1], hurt_a if hurt_a < _START else _START, r[2], r[3],
            hurt_b if hurt_b < _START else _START, None)


def _movement(turn: _Turn) -> None:
    """Momentum and Balance after the movement cards (A first: B's conditions see A's new values, as in the
    engine), then the technique gains that follow movement."""
    r = turn.r
    for seat in (0, 1):
        t, move = turn.techs[seat], turn.moves[seat]
        cm, cb = t.caps
        dm, db = _MOVE_DELTAS[move]
        m, b = r[2 * seat], r[2 * seat + 1]
        m = 0 if m < 0 else cm if m > cm else m
        b = 0 if b < 0 else cb if b > cb else b
        if move is _RETREAT and t.retreat_loss:
            r[2 * seat], r[2 * seat + 1] = m, b  # the loss's condition reads the clamped state
            losses = [amount for c, amount in t.retreat_loss if turn.holds(c, seat)]
            if losses:
                dm = -losses[0]
        m, b = m + dm, b + db
        r[2 * seat] = 0 if m < 0 else cm if m > cm else m
        r[2 * seat + 1] = 0 if b < 0 else cb if b > cb else b
    for seat in (0, 1):
        gains = turn.techs[seat].gains
        if gains:
            for res, amount in [(res, amount) for c, res, amount in gains if turn.holds(c, seat)]:
                turn.change(seat, res, amount)


def _bonus_total(turn: _Turn, seat: int, effects: tuple[tuple[Any, ...], ...]) -> tuple[int, list[int]]:
    """`combat._technique_bonus`: an attack or defense bonus of the played technique, and what it spends."""
    holding = [e for e in effects if e[0] is None or turn.holds(e[0], seat)]
    if not holding:
        return 0, []
    halved = any(turn.holds(c, 1 - seat) for c in turn.techs[1 - seat].halve)
    r = turn.r
    total, spends = 0, []
    for _, amount, per, most, spend, momentum_based in holding:
        value = amount if per is None else amount * r[2 * (1 - seat if per[0] else seat) + per[1]]
        if most is not None:
            value = min(value, most)
        if halved and momentum_based:
            value //= 2
        total += value
        if spend is not None:
            spends.append(spend)
    return total, spends


def _attacks(turn: _Turn) -> list[list[int]]:
    """`combat._totals`, first half: both Attack Totals (from the resources before spending; neither sees the
    other's) and bypasses of Defense; what each side's bonuses spend."""
    spends: list[list[int]] = [[], []]
    attacks = [0, 0]
    for seat in (0, 1):
        if turn.attacking[seat]:
            total = turn.attrs[seat].strength
            if turn.moves[seat] is _ADVANCE:
                total += constants.ADVANCE_ATTACK_BONUS
            if turn.dist is _CLOSE:
                total += constants.CLOSE_ATTACK_BONUS
            effects = turn.techs[seat].attack_bonus
            if effects:
                bonus, spends[seat] = _bonus_total(turn, seat, effects)
                total += bonus
            attacks[seat] = total
    for seat in (0, 1):  # assigned in seat order: B's conditions see A's Attack Total
        if turn.attacking[seat]:
            turn.atk[seat] = attacks[seat]
            bypasses, shield = turn.techs[seat].bypass_defense, turn.techs[1 - seat]
            turn.bypass[seat] = bool(bypasses) and any(
                turn.holds(c, seat) and not shield.protects(comparison, momentum_based)
                for c, comparison, momentum_based in bypasses)
    return spends


def _defenses(turn: _Turn, spends: list[list[int]]) -> None:
    """`combat._totals`, second half: the Defense Totals against attacks, then everything the bonuses spend."""
    for seat in (0, 1):
        if turn.attacking[1 - seat]:
            t = turn.techs[seat]
            if turn.choices[seat].action is _INSIGHT or (
                    t.cannot_defend and any(turn.holds(c, seat) for c in t.cannot_defend)):
                continue  # defenseless
            total = turn.attrs[seat].defense
            if turn.moves[seat] is _RETREAT:
                total += constants.RETREAT_DEFENSE_BONUS
            if turn.defending[seat] and t.defense_bonus:
                bonus, more = _bonus_total(turn, seat, t.defense_bonus)
                total += bonus
                spends[seat] += more
            turn.defense[seat] = total
    r = turn.r
    for seat in (0, 1):
        for res in spends[seat]:
            turn.change(seat, res, -r[2 * seat + res])


_EITHER = -1


def _plan_evade(turn: _Turn, seat: int) -> tuple[int | None, int, tuple[tuple[int, int], ...], int] | None:
    """`combat._plan_evade`: (resource or None, cost, gains, counter) of a declared evade that succeeds, or None."""
    r = turn.r
    other = 1 - seat
    t, foe, choice = turn.techs[seat], turn.techs[other], turn.choices[seat]
    declared: int | None
    if choice.special_evade:
        when, declared, amount, counter = t.special_evade  # type: ignore[misc]
        if not turn.holds(when, seat):
            return None
        gains: tuple[tuple[int, int], ...] = ()
    else:
        cannot, when, has_free, free_when, declared, cost, counter, gains = t.evade
        if cannot or not turn.holds(when, seat):
            return None
        if has_free and turn.holds(free_when, seat):
            declared, amount = None, 0
        elif declared is None or cost is None:
            return None
        else:
            amount = r[2 * other] if cost == "opponent_momentum" else cost
    if foe.surcharge:
        amount += foe.surcharge
        if declared is None:
            declared = _EITHER
    resource: int | None = declared
    if declared == _EITHER:
        resource = _RES[choice.evade_with] if choice.evade_with else (0 if r[2 * seat] >= amount else 1)
    for _, paid, comparison, momentum_based in [e for e in foe.bypass_evade if turn.holds(e[0], other)]:
        if (paid is None or paid == resource) and not t.protects(comparison, momentum_based):
            return None
    if resource is not None and r[2 * seat + resource] < amount:
        return None
    return resource, amount, gains, counter


def _evades(turn: _Turn) -> None:
    """`combat._resolve_evades`: declared evades in initiative order; on a full tie both are decided before
    either pays."""
    attacked_a, attacked_b = turn.attacking[1], turn.attacking[0]
    evade_a = attacked_a and turn.choices[0].evade
    evade_b = attacked_b and turn.choices[1].evade
    if not (evade_a or evade_b):
        return
    groups: list[list[int]]
    if not (attacked_a and attacked_b):
        groups = [[0] if attacked_a else [1]]
    else:  # both attacked: the higher (Initiative, Speed) first; a full tie decides both at once
        targets = [0, 1]
        r, attrs = turn.r, turn.attrs
        key_a = (attrs[0].speed + r[1], attrs[0].speed)
        key_b = (attrs[1].speed + r[3], attrs[1].speed)
        groups = [targets] if key_a == key_b else [[0], [1]] if key_a > key_b else [[1], [0]]
    for group in groups:
        plans = [(seat, _plan_evade(turn, seat)) for seat in group if turn.choices[seat].evade]
        for seat, plan in plans:
            if plan is None:
                continue
            resource, cost, gains, counter = plan
            if resource is not None:
                turn.change(seat, resource, -cost)
            for res, amount in gains:
                turn.change(seat, res, amount)
            turn.evaded[seat], turn.counters[seat] = True, counter


def _damage(turn: _Turn, taken: list[int]) -> None:
    """`combat._deal_damage`: attacks and counters land at once (into `taken`); then `_after_hits`."""
    hits = [0, 0]
    for seat in (0, 1):
        if not turn.attacking[seat]:
            continue
        target = 1 - seat
        if not turn.evaded[target]:
            hits[seat] = max(0, turn.atk[seat] - (0 if turn.bypass[seat] else turn.defense[target]))
            taken[target] += hits[seat]
        taken[seat] += turn.counters[target]
        if turn.defending[target] and turn.techs[target].counter_on_defend:
            for c, amount, divisor in turn.techs[target].counter_on_defend:
                if turn.holds(c, target):
                    if amount is not None:
                        taken[seat] += amount
                    elif divisor is not None:
                        taken[seat] += turn.attrs[target].defense // divisor
    _after_hits(turn, hits)


def _after_hits(turn: _Turn, hits: list[int]) -> None:
    """`combat._after_hits`: steals by attacks that dealt damage, gains for Defense that prevented some."""
    for seat in (0, 1):
        target = 1 - seat
        if hits[seat] > 0 and turn.techs[seat].steals:
            for res, amount in [(res, amount) for c, res, amount in turn.techs[seat].steals if turn.holds(c, seat)]:
                if res not in turn.techs[target].immune:
                    turn.change(seat, res, -turn.change(target, res, -amount))
        if (turn.attacking[seat] and turn.defending[target] and not turn.evaded[target] and not turn.bypass[seat]
                and turn.techs[target].gain_prevented):
            prevented = min(turn.atk[seat], turn.defense[target])
            for res, most in [(res, most) for c, res, most in turn.techs[target].gain_prevented
                              if turn.holds(c, target)]:
                turn.change(target, res, min(prevented, most))
