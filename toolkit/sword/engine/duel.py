"""The sword-duel rules engine (spec 002): new_duel, legal_choices, resolve_turn, play_duel. Pure code.

A turn resolves in the spec's order: start of turn (Mushin's reset) -> honor -> position -> Momentum and
Balance -> technique movement effects -> Insight -> combat (reveal, bonuses, totals, initiative, evades,
simultaneous damage, steals and gains) -> victory. Player A is the Challenger, player B the Defender.

Rulings where spec 002 is silent or contradicts itself:

1. Every turn each player plays one of its two techniques face down; only that technique is active
   (its effects, evade, cap and immunities), whatever cards the player plays.
2. Attack/Defend are legal when some opponent movement would leave the duel in range (so Retreat +
   Attack from Apart is illegal, Stay + Attack from Apart is legal). If the range ends Apart the card
   has no effect: no combat, no reveal, nothing spent.
3. Every player not gaining Insight subtracts a Defense Total from the attack it takes: Defense + Retreat
   bonus, whether it Attacks, Defends or plays no combat card (this makes an attack exchange the spec's
   "defended exchange: 1-3 damage per player"). The Defend card is what switches on the technique's
   defense effects (defense_bonus, gain_prevented, counter_on_defend); attack effects need the Attack
   card. So Mushin's "+3 to Attack or Defense" follows the card played.
4. Insight players are defenseless (Defense Total 0) but may still evade. "Cannot defend" (Ai-Uchi) also
   means Defense Total 0, and the Defend card is illegal with it.
5. Caps belong to the played technique (Fudoshin: Balance 6 only on turns it is played). Resources are
   kept within 0..cap at every change, so Balance above 3 drops to 3 on the first turn without Fudoshin.
6. Mushin's reset happens at the start of the turn, as written, before the movement updates: only a
   Retreat keeps it at 0/0 for combat. Honor is checked next and, if broken, ends the turn there.
7. Bonus conditions and values read the resources at the start of combat; "spend all" bonuses are spent
   then, before initiative and evades. So Tsubame Gaeshi spends its Momentum before it could pay its own
   3-Momentum evade, Mizu no Kokoro's Defend spends the Balance its evade would need, and Initiative
   uses the Balance left after spending.
8. Evades are declared in the Choice ("evade if attacked") and tried only against an attack that lands in
   range, even one that would deal 0 damage. Each evade reads the resources as they are at its turn in
   initiative order (its condition, 'opponent_momentum' cost, the attacker's bypass conditions); on a
   full initiative tie both evades read the resources before either pays.
9. A bypassed or unpayable evade costs nothing. "Evades that cost Balance" means the evade's resource,
   even when the amount is 0; a free evade (Mushin) costs no resource. Tsuki-kage's surcharge adds to
   the cost; on a free evade it costs that much of either resource, so Mushin at 0/0 cannot evade it.
10. Momentum-based effects count Momentum (either player's) or need a Momentum threshold (Mushin's
    "exactly 0" is not one): Irimi halves such bonuses (Tsubame's, Sen Sen no Sen's), Koboichi resists
    such bypasses (Tsubame's bypass of Defense). Comparison-based effects compare the two players'
    resources (Sen Sen no Sen's bypass); Tsuki-kage resists them. Protections cover Defense bypasses as
    well as evade bypasses: Koboichi's card names no target, and its evade is never payable.
11. Counters (Koboichi's and Nagashi's evade counters, Koboichi's Defend counter of Defense // 2) are not
    attacks: they cannot be evaded, ignore Defense and land with the attacks.
12. Nagashi's "attacks with 5 damage" reads the attacker's Attack Total (>= 5). Gain from damage
    prevented is min(Attack Total, Defense Total) when the attack lands and Defense was not bypassed.
13. Steals happen when the attack dealt at least 1 damage; the stolen amount is capped by what the
    target has and the thief's cap.
14. Ma-ai's "lose only 1 Momentum instead of all" equals the base Retreat rule (-1): it changes nothing.
15. Koboichi's evade costs 4 Balance but the cap is 3 and no sample raises it while Koboichi is played,
    so that evade always fails for lack of Balance (lint.py reports it as L002).
16. Insight on the technique reveals it only if the opponent played Attack or Defend; it is remembered
    for that turn only. Attribute insights persist.
17. `play_duel` declares a draw by time after constants.TURN_LIMIT (10) turns: the spec says duels last 3-5 turns
    (most 2-4), so 10 is twice the longest intended duel; a pair that stays Apart can stall forever.
    `turn` does not advance once the duel has a result.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from toolkit.players import PLAYERS, Player
from toolkit.sword import constants
from toolkit.sword.engine.combat import Combatant, Turn, resolve_combat
from toolkit.sword.model import Condition, Technique
from toolkit.sword.rules.effects import clamp, kinds, of_kind, shift
from toolkit.sword.rules.positions import Move, Range, can_attack, resolve_position
from toolkit.sword.rules.state import (
    Action,
    Attributes,
    Choice,
    DuelOver,
    DuelState,
    HasAttributes,
    IllegalChoice,
    InsightTarget,
    InvalidBuild,
    Knowledge,
    PlayerState,
    Reason,
    Resource,
    Result,
    Role,
    TurnResult,
)

__all__ = [
    "Action", "Attributes", "Choice", "DuelOver", "DuelState", "IllegalChoice", "InsightTarget", "InvalidBuild",
    "PlayerState", "Reason", "Result", "Role", "TurnResult", "draw_by_time", "illegal_reason",
    "legal_builds", "legal_choices", "new_duel", "play_duel", "resolve_turn", "validate_build",
]

# --- setup ---------------------------------------------------------------------------------------


def validate_build(build: HasAttributes) -> Attributes:
    """The build's attributes, or InvalidBuild naming every broken rule (sum 6, each 1..4)."""
    values = {"speed": build.speed, "strength": build.strength, "defense": build.defense}
    low, high = constants.ATTRIBUTE_MIN, constants.ATTRIBUTE_MAX
    problems = [f"{name} is {value}, not {low}..{high}" for name, value in values.items()
                if not isinstance(value, int) or not low <= value <= high]
    if not problems and sum(values.values()) != constants.BUILD_TOTAL:
        problems.append(f"Speed + Strength + Defense is {sum(values.values())}, not {constants.BUILD_TOTAL}")
    if problems:
        raise InvalidBuild("; ".join(problems))
    return Attributes(**values)


_VALUES = range(constants.ATTRIBUTE_MIN, constants.ATTRIBUTE_MAX + 1)
_BUILDS = tuple(Attributes(s, t, constants.BUILD_TOTAL - s - t) for s in _VALUES for t in _VALUES
                if constants.ATTRIBUTE_MIN <= constants.BUILD_TOTAL - s - t <= constants.ATTRIBUTE_MAX)


def legal_builds() -> list[Attributes]:
    """Every legal build (there are 10), for random play and balance tables (listed once)."""
    return list(_BUILDS)


def _player(role: Role, build: HasAttributes, techniques: Sequence[Technique]) -> PlayerState:
    if len(techniques) != 2:
        raise IllegalChoice(f"the {role.value} needs exactly 2 techniques, got {len(techniques)}")
    momentum, balance = constants.START_RESOURCES[role]
    return PlayerState(role, validate_build(build), (techniques[0], techniques[1]), momentum, balance,
                       health=constants.START_HEALTH)


def new_duel(challenger_build: HasAttributes, challenger_techniques: Sequence[Technique],
             defender_build: HasAttributes, defender_techniques: Sequence[Technique], honor: bool = True) -> DuelState:
    """Turn 1, Apart; Challenger 1 Momentum 0 Balance, Defender 0/1, 3 Health each (`honor`: see DuelState)."""
    players = (_player(Role.CHALLENGER, challenger_build, challenger_techniques),
               _player(Role.DEFENDER, defender_build, defender_techniques))
    return DuelState(turn=1, range=Range.APART, players=players, honor=honor)


# --- legal choices -------------------------------------------------------------------------------

_NO_EVADE: tuple[bool, Resource | None, bool] = (False, None, False)


def _may_reach(distance: Range, move: Move) -> bool:
    """Whether some opponent movement leaves the duel in range after this player's movement."""
    return any(can_attack(resolve_position(distance, move, other)) for other in Move)


def _always_cannot_defend(technique: Technique) -> bool:
    return any(effect.when == Condition() for effect in of_kind(technique, "cannot_defend"))


def _actions(distance: Range, move: Move, technique: Technique) -> list[tuple[Action | None, InsightTarget | None]]:
    """The (combat card, insight target) pairs allowed with this movement."""
    options: list[tuple[Action | None, InsightTarget | None]] = [(None, None)]
    if _may_reach(distance, move):
        options.append((Action.ATTACK, None))
        if not _always_cannot_defend(technique):
            options.append((Action.DEFEND, None))
    options += [(Action.INSIGHT, target) for target in InsightTarget]
    return options


def _evades(technique: Technique) -> list[tuple[bool, Resource | None, bool]]:
    """The (evade, evade_with, special_evade) declarations this technique allows."""
    options = [_NO_EVADE]
    if not technique.evade.cannot:
        if technique.evade.resource == "either":
            options += [(True, "momentum", False), (True, "balance", False)]
        else:
            options.append((True, None, False))
    if of_kind(technique, "special_evade"):
        options.append((True, None, True))
    return options


def _resets(technique: Technique) -> list[bool]:
    return [False, True] if of_kind(technique, "optional_reset") else [False]


def illegal_reason(state: DuelState, player: Player, choice: Choice) -> str | None:
    """Why this choice is not allowed for the player now, or None when it is legal."""
    if choice.technique not in (0, 1):
        return f"technique must be 0 or 1, not {choice.technique!r}"
    if not isinstance(choice.move, Move) or not isinstance(choice.action, (Action, type(None))) \
            or not isinstance(choice.insight, (InsightTarget, type(None))):
        return "move must be a Move, action an Action or None, insight an InsightTarget or None"
    try:
        if choice in _legal(state, player)[2]:
            return None
    except TypeError:  # an unhashable field: certainly not a legal choice; say why below
        pass
    technique = state.players[player.seat].techniques[choice.technique]
    if (choice.action, choice.insight) not in _actions(state.range, choice.move, technique):
        if (choice.action is Action.INSIGHT) != (choice.insight is not None):
            return "the Insight card needs a target, and only it takes one"
        if choice.action is Action.DEFEND and _always_cannot_defend(technique):
            return f"{technique.name} cannot defend"
        played = choice.action.value if choice.action is not None else "no action card"
        return f"{played} can never be in range after {choice.move.value} from {state.range.value}"
    if (choice.evade, choice.evade_with, choice.special_evade) not in _evades(technique):
        return f"{technique.name} does not allow that evade declaration"
    if choice.reset not in _resets(technique):
        return f"{technique.name} has no reset"
    return None


_LEGAL: dict[tuple[Range, int, int], tuple[tuple[Technique, Technique], tuple[Choice, ...], frozenset[Choice]]] = {}


def _legal(state: DuelState, player: Player) -> tuple[tuple[Technique, Technique], tuple[Choice, ...],
                                                       frozenset[Choice]]:
    """The legal choices for a range and hand, listed once (they depend on nothing else); the entry keeps
    its techniques, so a reused object id is never mistaken for them."""
    techniques = state.players[player.seat].techniques
    key = (state.range, id(techniques[0]), id(techniques[1]))
    entry = _LEGAL.get(key)
    if entry is None or entry[0][0] is not techniques[0] or entry[0][1] is not techniques[1]:
        choices = []
        for index, technique in enumerate(techniques):
            evades, resets = _evades(technique), _resets(technique)
            for move in Move:
                for (action, target), (evade, using, special), reset in itertools.product(
                        _actions(state.range, move, technique), evades, resets):
                    choices.append(Choice(move, action, index, evade, using, special, target, reset))
        if len(_LEGAL) > 4096:
            _LEGAL.clear()
        entry = _LEGAL[key] = (techniques, tuple(choices), frozenset(choices))
    return entry


def legal_choices(state: DuelState, player: Player) -> list[Choice]:
    """Every legal Choice for the player (Retreat on turn 4+ is legal: it loses by dishonor)."""
    return list(_legal(state, player)[1])


# --- one turn ------------------------------------------------------------------------------------


def resolve_turn(state: DuelState, choice_a: Choice, choice_b: Choice, checked: bool = False,
                 quiet: bool = False) -> TurnResult:
    """Resolve both players' choices (a: Challenger, b: Defender) into the next state and a log.
    `checked`: the caller took both choices from `legal_choices` of this state, so they are not checked
    again; `quiet`: the events are not written (empty): a looking-ahead player resolves thousands of turns
    and reads only the state."""
    if state.result is not None:
        raise DuelOver(f"the duel is over ({state.result.reason.value})")
    for player, choice in () if checked else zip(PLAYERS, (choice_a, choice_b), strict=True):
        reason = illegal_reason(state, player, choice)
        if reason:
            raise IllegalChoice(f"{state.players[player.seat].name}: {reason}")
    played = (state.players[0].techniques[choice_a.technique], state.players[1].techniques[choice_b.technique])
    sides = (Combatant(Player.A, choice_a, played[0], 0, kinds(played[0])),
             Combatant(Player.B, choice_b, played[1], 1, kinds(played[1])))
    players = [p if p.knows.technique is None else _knowing(p, InsightTarget.TECHNIQUE, None) for p in state.players]
    turn = Turn(players, sides, state.range, False, None if quiet else [])
    if turn.log is not None:
        turn.log.append(f"Turn {state.turn} at {state.range.value}: "
                        + "; ".join(_cards(turn, s) for s in sides) + ".")
    _start_of_turn(turn)
    result = _honor(turn, state.turn) if state.honor else None
    if result is None:
        _move(turn, state.range)
        _update_resources(turn)
        _movement_effects(turn)
        _insight(turn)
        if any(side.attacking for side in turn.sides):
            resolve_combat(turn)
        result = _victory(turn)
    if result is not None and turn.log is not None:
        turn.log.append(_describe(result, turn))
    next_turn = state.turn if result is not None else state.turn + 1
    return TurnResult(DuelState(next_turn, turn.distance, (turn.players[0], turn.players[1]), result, state.honor),
                      tuple(turn.log or ()))


_CARD_TEXT = {(move, action): " + ".join(([move.value.capitalize()] if move is not Move.STAY else [])
                                         + ([action.value.capitalize()] if action is not None else [])) or "no card"
              for move in Move for action in (None, *Action)}


def _cards(turn: Turn, side: Combatant) -> str:
    """The revealed action cards (the technique stays face down)."""
    return f"{turn.name(side.player)} plays {_CARD_TEXT[side.choice.move, side.choice.action]}"


def _start_of_turn(turn: Turn) -> None:
    """Mushin's optional reset of both resources to 0."""
    for side in turn.sides:
        if side.choice.reset:
            p = turn.players[side.seat]
            turn.players[side.seat] = PlayerState(p.role, p.attributes, p.techniques, 0, 0, p.health, p.knows)
            if turn.log is not None:
                turn.log.append(f"{turn.name(side.player)} resets Momentum and Balance to 0 "
                                f"({side.technique.name}).")


def _honor(turn: Turn, number: int) -> Result | None:
    """Retreating on turn 4 or later loses; both doing it is a draw."""
    if number < constants.HONOR_TURN:
        return None
    retreated = [side.player for side in turn.sides if side.choice.move is Move.RETREAT]
    if len(retreated) == 2:
        return Result(None, Reason.DOUBLE_DISHONOR)
    if retreated:
        return Result(retreated[0].other(), Reason.DISHONOR)
    return None


def _move(turn: Turn, before: Range) -> None:
    """Position resolution, and which attacks and defenses end in range."""
    a, b = (side.choice.move for side in turn.sides)
    turn.distance = resolve_position(before, a, b)
    turn.entered_close = turn.distance is Range.CLOSE and before is not Range.CLOSE
    if turn.log is not None:
        turn.log.append(f"Range: {before.value} -> {turn.distance.value}.")
    in_range = can_attack(turn.distance)
    for side in turn.sides:
        side.attacking = side.choice.action is Action.ATTACK and in_range
        side.defending = side.choice.action is Action.DEFEND and in_range
        if side.choice.action in (Action.ATTACK, Action.DEFEND) and not in_range and turn.log is not None:
            turn.log.append(f"{turn.name(side.player)}'s {side.choice.action.value} has no effect at apart.")


def _update_resources(turn: Turn) -> None:
    """Advance +1 Momentum -1 Balance, Retreat -1 Momentum (or the technique's amount), Stay +1 Balance."""
    for side in turn.sides:
        i = side.seat
        before = turn.players[i]
        move = side.choice.move
        deltas = constants.MOVE_RESOURCES[move]
        momentum, balance = deltas.get("momentum", 0), deltas.get("balance", 0)
        if move is Move.RETREAT:
            turn.players[i] = clamp(before, side.technique)  # the loss's condition reads the clamped state
            losses = [e.amount for e in turn.active(side, "retreat_momentum_loss")]
            momentum = -losses[0] if losses else momentum
        after = turn.players[i] = shift(before, side.technique, momentum, balance)
        if turn.log is not None:
            turn.log.append(f"{after.name}: Momentum {before.momentum} -> {after.momentum}, "
                            f"Balance {before.balance} -> {after.balance}.")


def _movement_effects(turn: Turn) -> None:
    """Technique gains that follow movement (Irimi: +2 Balance when Advancing into Close Combat)."""
    for side in turn.sides:
        for gain in turn.active(side, "gain"):
            got = turn.change(side.player, gain.resource, gain.amount)
            if turn.log is not None:
                turn.log.append(f"{turn.name(side.player)} gains {got} {gain.resource} ({side.technique.name}).")


def _insight(turn: Turn) -> None:
    """Record what each Insight player learns about the opponent."""
    for side in turn.sides:
        target = side.choice.insight
        if side.choice.action is not Action.INSIGHT or target is None:
            continue
        me, foe_side = turn.players[side.seat], turn.foe(side)
        if target is InsightTarget.TECHNIQUE:
            if foe_side.choice.action not in (Action.ATTACK, Action.DEFEND):
                if turn.log is not None:
                    turn.log.append(f"{me.name} looks for a technique, but the opponent neither attacks nor "
                                    "defends.")
                continue
            learned, text = foe_side.technique.id, foe_side.technique.name
        else:
            learned = getattr(turn.players[foe_side.seat].attributes, target.value)
            text = str(learned)
        turn.players[side.seat] = _knowing(me, target, learned)
        if turn.log is not None:
            turn.log.append(f"{me.name} gains Insight: the opponent's {target.value} is {text}.")


def _knowing(player: PlayerState, target: InsightTarget, learned: Any) -> PlayerState:
    """The player with one more thing known (an attribute's int, or the technique's id); built directly, as
    dataclasses.replace is slow."""
    k = player.knows
    values: dict[str, Any] = {"speed": k.speed, "strength": k.strength, "defense": k.defense,
                              "technique": k.technique}
    values[target.value] = learned
    return PlayerState(player.role, player.attributes, player.techniques, player.momentum, player.balance,
                       player.health, Knowledge(**values))


def _victory(turn: Turn) -> Result | None:
    """0 Health loses; both at 0 in the same turn is a draw."""
    down = [player.health <= 0 for player in turn.players]
    if all(down):
        return Result(None, Reason.DOUBLE_KNOCKOUT)
    if any(down):
        return Result(PLAYERS[down.index(False)], Reason.KNOCKOUT)
    return None


def _describe(result: Result, turn: Turn) -> str:
    if result.winner is None:
        return f"The duel is a draw ({result.reason.value.replace('_', ' ')})."
    return f"{turn.name(result.winner)} wins by {result.reason.value}."


# --- whole duels ---------------------------------------------------------------------------------


def draw_by_time(state: DuelState) -> DuelState:
    """End an unfinished duel as a draw because the turn limit passed (`turn` becomes the last turn
    played, as for any other result)."""
    if state.result is not None:
        return state
    return replace(state, turn=max(1, state.turn - 1), result=Result(None, Reason.TIME))


def play_duel(rng: random.Random, builds: Sequence[HasAttributes], techniques: Sequence[Sequence[Technique]],
              max_turns: int = constants.TURN_LIMIT) -> tuple[DuelState, list[str]]:
    """A duel between two players choosing uniformly among their legal choices each turn.

    `builds` and `techniques` are (Challenger, Defender). After `max_turns` turns without a result the
    duel is a draw by time.
    """
    state = new_duel(builds[0], techniques[0], builds[1], techniques[1])
    log: list[str] = []
    while state.result is None:
        if state.turn > max_turns:
            state = draw_by_time(state)
            log.append(f"The duel is a draw (time: {max_turns} turns).")
            break
        choice_a = rng.choice(legal_choices(state, Player.A))
        choice_b = rng.choice(legal_choices(state, Player.B))
        turn = resolve_turn(state, choice_a, choice_b)
        state = turn.state
        log.extend(turn.events)
    return state, log
