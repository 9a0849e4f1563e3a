"""The sword-duel data format: techniques as effects the engine executes, plus builds and drafts.

A technique is flavour text for the card plus a list of `effects` and an `evade` rule. Every effect
has a `kind` (what it does) and an optional `when` (a Condition that must hold). The engine in
`toolkit.sword.rules` and `toolkit.sword.engine` interpret these; nothing here knows how a turn is resolved.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, StrictStr

from toolkit.fields import DEFER_BUILD, RelativePath, Slug, Text

Resource = Literal["momentum", "balance"]
# What a per-unit bonus counts: one's own resources, or the opponent's.
Counted = Literal["momentum", "balance", "opponent_momentum", "opponent_balance"]
RangeName = Literal["apart", "sword", "close"]
Amount = Annotated[StrictInt, Field(ge=0, le=10)]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=DEFER_BUILD)


class Condition(_Strict):
    """All given fields must hold (an empty condition always holds). Resource values are the player's own
    at the moment the effect is checked; `opponent_*` fields read the opponent's."""

    range: tuple[RangeName, ...] | None = None  # the range after movement is one of these
    moved: Literal["advance", "retreat", "stay"] | None = None  # the player's movement this turn
    entered_close: StrictBool | None = None  # the range became Close Combat this turn
    momentum_at_least: Amount | None = None
    balance_at_least: Amount | None = None
    momentum_exactly: Amount | None = None
    balance_exactly: Amount | None = None
    balance_exceeds_opponent_momentum_by: Amount | None = None  # own Balance >= opponent Momentum + n
    opponent_attack_at_least: Amount | None = None  # the opponent's Attack Total this turn


# The empty condition (it always holds), every `when:` left out: made without validation, as pydantic's
# Condition() would, so importing the model builds no validator (a valid project's `validate` needs none)
ALWAYS = Condition.model_construct()


class AttackBonus(_Strict):
    """+amount to the Attack Total, or +amount per point of a counted resource (capped by `max`)."""

    kind: Literal["attack_bonus"]
    amount: Amount = 1
    per: Counted | None = None
    max: Amount | None = None
    spend: StrictBool = False  # spend all of the counted own resource
    when: Condition = ALWAYS


class DefenseBonus(_Strict):
    kind: Literal["defense_bonus"]
    amount: Amount = 1
    per: Counted | None = None
    max: Amount | None = None
    spend: StrictBool = False
    when: Condition = ALWAYS


class Gain(_Strict):
    """Gain a resource (after the movement updates)."""

    kind: Literal["gain"]
    resource: Resource
    amount: Amount
    when: Condition = ALWAYS


class GainPrevented(_Strict):
    """Gain a resource equal to the damage one's Defense Total prevented (capped)."""

    kind: Literal["gain_prevented"]
    resource: Resource
    max: Amount
    when: Condition = ALWAYS


class StealOnHit(_Strict):
    """When this player's attack deals damage, take a resource from the opponent."""

    kind: Literal["steal_on_hit"]
    resource: Resource
    amount: Amount
    when: Condition = ALWAYS


class BypassDefense(_Strict):
    """This player's attack ignores the opponent's Defense Total."""

    kind: Literal["bypass_defense"]
    when: Condition = ALWAYS


class BypassEvade(_Strict):
    """The opponent cannot evade this player's attack (only evades paid with `paid_with`, when given)."""

    kind: Literal["bypass_evade"]
    paid_with: Resource | None = None
    when: Condition = ALWAYS


class CannotDefend(_Strict):
    kind: Literal["cannot_defend"]
    when: Condition = ALWAYS


class HalveOpponentMomentumBonus(_Strict):
    """Bonuses the opponent draws from Momentum are halved, rounded down."""

    kind: Literal["halve_opponent_momentum_bonus"]
    when: Condition = ALWAYS


class RetreatMomentumLoss(_Strict):
    """When retreating, lose only `amount` Momentum (the base rule loses 1)."""

    kind: Literal["retreat_momentum_loss"]
    amount: Amount
    when: Condition = ALWAYS


class OptionalReset(_Strict):
    """At the start of a turn the player may set both Momentum and Balance to 0."""

    kind: Literal["optional_reset"]


class CounterOnDefend(_Strict):
    """When defending against an attack, deal damage to the attacker: a fixed amount, or the Defense
    attribute divided by `divisor`, rounded down."""

    kind: Literal["counter_on_defend"]
    amount: Amount | None = None
    defense_divisor: Annotated[StrictInt, Field(ge=1, le=10)] | None = None
    when: Condition = ALWAYS


class SpecialEvade(_Strict):
    """A second way to evade, with its own cost and an optional counter (e.g. Nagashi's parry)."""

    kind: Literal["special_evade"]
    resource: Resource
    amount: Amount
    counter: Amount = 0
    when: Condition = ALWAYS


class EvadeSurcharge(_Strict):
    """The opponent must pay `amount` more to evade this player's attacks."""

    kind: Literal["evade_surcharge"]
    amount: Amount


class EvadeProtection(_Strict):
    """This player's evades cannot be bypassed by effects whose conditions compare resources
    ('greater than' conditions: `comparison`) or by Momentum-based effects (`momentum`)."""

    kind: Literal["evade_protection"]
    against: Literal["comparison", "momentum"]


class ImmuneToSteal(_Strict):
    kind: Literal["immune_to_steal"]
    resource: Resource


class RaiseCap(_Strict):
    kind: Literal["raise_cap"]
    resource: Resource
    cap: Annotated[StrictInt, Field(ge=1, le=10)]


Effect = Annotated[
    AttackBonus | DefenseBonus | Gain | GainPrevented | StealOnHit | BypassDefense | BypassEvade | CannotDefend
    | HalveOpponentMomentumBonus | RetreatMomentumLoss | OptionalReset | CounterOnDefend | SpecialEvade
    | EvadeSurcharge | EvadeProtection | ImmuneToSteal | RaiseCap,
    Field(discriminator="kind"),
]


class EvadeCost(_Strict):
    """How to evade one attack. `resource: either` lets the player pick; `amount: opponent_momentum` pays
    as much as the opponent's Momentum; `free_when` makes it cost nothing while the condition holds."""

    resource: Literal["momentum", "balance", "either"] | None = None
    amount: Amount | Literal["opponent_momentum"] | None = None
    cannot: StrictBool = False  # no evade capability at all
    when: Condition = ALWAYS  # where the evade may be used (e.g. only at Close Combat)
    free_when: Condition | None = None
    gain: dict[Resource, Amount] = {}  # gained after a successful evade
    counter: Amount = 0  # damage dealt back after a successful evade


class Technique(_Strict):
    id: Slug
    name: StrictStr = Field(min_length=1, max_length=60)
    translation: StrictStr | None = None
    flavor: Text | None = None
    type: StrictStr = Field(min_length=1, max_length=60)
    philosophy: Text | None = None
    rules_text: tuple[Text, ...] = ()  # the card's wording, printed as written
    effects: tuple[Effect, ...] = ()
    evade: EvadeCost
    # a picture for its card (a path in the project); printed only, so not part of a game's data hash
    art: RelativePath | None = Field(default=None, exclude=True)


class Build(_Strict):
    """A character's secret attributes."""

    id: Slug
    name: StrictStr
    speed: StrictInt
    strength: StrictInt
    defense: StrictInt


class Draft(_Strict):
    """The technique cards a kit uses for the draft (spec 002: 10)."""

    id: Slug
    name: StrictStr
    techniques: tuple[Slug, ...]
