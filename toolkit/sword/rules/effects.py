"""Reading the played technique: which effects hold right now, resource caps and changes, bypass kinds.

Only the technique a player plays this turn is active; its effects are looked up by `kind` and kept
when their `when` condition holds in a `View` (one player's side of the table at that moment).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from toolkit.sword import constants
from toolkit.sword.model import Condition, Technique
from toolkit.sword.rules.positions import Move, Range
from toolkit.sword.rules.state import PlayerState, Resource

MOMENTUM_COUNTS = ("momentum", "opponent_momentum")


@dataclass(slots=True)
class View:
    """What a condition can read, from one player's side (not frozen: built many times a turn, never kept)."""

    me: PlayerState
    foe: PlayerState
    distance: Range
    moved: Move
    entered_close: bool
    foe_attack: int = 0  # the opponent's Attack Total this turn (0 when not attacking)


def holds(cond: Condition, view: View) -> bool:
    """True when every field the condition sets is met (an empty condition always holds)."""
    me = view.me
    return ((cond.range is None or view.distance.value in cond.range)
            and (cond.moved is None or view.moved.value == cond.moved)
            and (cond.entered_close is None or cond.entered_close == view.entered_close)
            and (cond.momentum_at_least is None or me.momentum >= cond.momentum_at_least)
            and (cond.balance_at_least is None or me.balance >= cond.balance_at_least)
            and (cond.momentum_exactly is None or me.momentum == cond.momentum_exactly)
            and (cond.balance_exactly is None or me.balance == cond.balance_exactly)
            and (cond.balance_exceeds_opponent_momentum_by is None
                 or me.balance >= view.foe.momentum + cond.balance_exceeds_opponent_momentum_by)
            and (cond.opponent_attack_at_least is None or view.foe_attack >= cond.opponent_attack_at_least))


_KINDS: dict[int, tuple[Technique, dict[str, tuple[Any, ...]], dict[str, int]]] = {}


def _grouped(technique: Technique) -> tuple[Technique, dict[str, tuple[Any, ...]], dict[str, int]]:
    """The technique's effects by kind and its resource caps, worked out once per technique object
    (techniques are frozen; the entry keeps its technique, so an id is never reused while cached)."""
    entry = _KINDS.get(id(technique))
    if entry is None or entry[0] is not technique:
        groups: dict[str, list[Any]] = {}
        for effect in technique.effects:
            groups.setdefault(effect.kind, []).append(effect)
        caps = {resource: max([constants.RESOURCE_CAP, *(e.cap for e in groups.get("raise_cap", ())
                                                          if e.resource == resource)])
                for resource in ("momentum", "balance")}
        if len(_KINDS) > 4096:
            _KINDS.clear()
        entry = _KINDS[id(technique)] = (technique, {k: tuple(v) for k, v in groups.items()}, caps)
    return entry


def kinds(technique: Technique) -> dict[str, tuple[Any, ...]]:
    """The technique's effects by kind (worked out once; do not change it)."""
    return _grouped(technique)[1]


def of_kind(technique: Technique, kind: str) -> tuple[Any, ...]:
    """The technique's effects of one kind, whatever their conditions."""
    return _grouped(technique)[1].get(kind, ())


def active(technique: Technique, kind: str, view: View) -> list[Any]:
    """The technique's effects of one kind whose condition holds in this view."""
    return holding(_grouped(technique)[1].get(kind, ()), view)


def holding(effects: tuple[Any, ...], view: View) -> list[Any]:
    """The effects among these whose condition holds in this view."""
    return [e for e in effects if getattr(e, "when", None) is None or holds(e.when, view)]


def cap(technique: Technique, resource: Resource) -> int:
    """The most of a resource a player can hold while playing this technique (Fudoshin: Balance 6)."""
    return _grouped(technique)[2][resource]


def initiative(player: PlayerState) -> tuple[int, int]:
    """Initiative is Speed + current Balance; raw Speed breaks ties (the second number)."""
    return player.attributes.speed + player.balance, player.attributes.speed


def initiative_bounds(technique: Technique) -> tuple[int, int]:
    """The lowest and highest Initiative a player playing this technique can have: the lowest Speed with
    no Balance, the highest Speed with Balance at the technique's cap."""
    return constants.ATTRIBUTE_MIN, constants.ATTRIBUTE_MAX + cap(technique, "balance")


def adjust(player: PlayerState, technique: Technique, resource: Resource, delta: int) -> PlayerState:
    """Add `delta` to a resource, kept between 0 and the played technique's cap."""
    before: int = player.momentum if resource == "momentum" else player.balance
    value = min(max(before + delta, 0), _grouped(technique)[2][resource])
    if value == before:
        return player
    # built directly: dataclasses.replace was most of a turn's cost (lookahead players resolve thousands)
    momentum, balance = (value, player.balance) if resource == "momentum" else (player.momentum, value)
    return PlayerState(player.role, player.attributes, player.techniques, momentum, balance, player.health,
                       player.knows)


def shift(player: PlayerState, technique: Technique, momentum: int, balance: int) -> PlayerState:
    """Add to both resources at once, each kept between 0 and the played technique's cap (one new state
    at most: the engine does this for both players every turn)."""
    caps = _grouped(technique)[2]
    m = min(max(min(max(player.momentum, 0), caps["momentum"]) + momentum, 0), caps["momentum"])
    b = min(max(min(max(player.balance, 0), caps["balance"]) + balance, 0), caps["balance"])
    if m == player.momentum and b == player.balance:
        return player
    return PlayerState(player.role, player.attributes, player.techniques, m, b, player.health, player.knows)


def clamp(player: PlayerState, technique: Technique) -> PlayerState:
    """Bring both resources within the caps of the technique played this turn."""
    return shift(player, technique, 0, 0)


def counted(per: str, view: View) -> int:
    """The resource value a per-unit bonus counts."""
    owner = view.foe if per.startswith("opponent_") else view.me
    value: int = getattr(owner, per.removeprefix("opponent_"))
    return value


def is_momentum_based(effect: Any) -> bool:
    """An effect that counts Momentum (own or the opponent's) or needs a Momentum threshold: what Irimi
    halves and Koboichi resists. Mushin's 'exactly 0 Momentum' is emptiness, not Momentum."""
    when: Condition | None = getattr(effect, "when", None)
    threshold = when is not None and when.momentum_at_least is not None
    return getattr(effect, "per", None) in MOMENTUM_COUNTS or threshold


def is_comparison(effect: Any) -> bool:
    """An effect whose condition is a 'greater than' comparison between the two players' resources."""
    when: Condition | None = getattr(effect, "when", None)
    return when is not None and when.balance_exceeds_opponent_momentum_by is not None


def protected(technique: Technique, bypass: Any) -> bool:
    """True when the target's played technique shields it from this bypass effect."""
    for protection in of_kind(technique, "evade_protection"):
        if protection.against == "comparison" and is_comparison(bypass):
            return True
        if protection.against == "momentum" and is_momentum_based(bypass):
            return True
    return False


def immune_to_steal(technique: Technique, resource: Resource) -> bool:
    return any(e.resource == resource for e in of_kind(technique, "immune_to_steal"))
