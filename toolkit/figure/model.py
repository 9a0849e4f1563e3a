"""Typed, frozen definitions of units, modules and squads (the data format of the YAML files).

These pydantic models are both the schema (strict: `mp: yes` is an error, unknown keys are errors)
and the values the rules model computes with. Rules that need more than one field at a time (Data
Disk arithmetic, cross-file references) live in `toolkit.figure.rules` and `toolkit.figure.database`, not here.
"""

from __future__ import annotations

from enum import Enum
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictInt

from toolkit.fields import DEFER_BUILD, RelativePath, ShortText, Slug, Text
from toolkit.figure import constants


class Color(str, Enum):
    """Segment colours, listed in the order of Table 2.1's rows."""

    RED = "red"
    WHITE = "white"
    PURPLE = "purple"
    GOLD = "gold"
    BLUE = "blue"

    @property
    def letter(self) -> str:
        return self.value[0].upper()

    @property
    def deals_damage(self) -> bool:
        """White and Gold deal damage (Table 2.1): they carry `damage`, compare it against each other,
        take upgrade and status modifiers, and a win with one Deactivates the loser."""
        return self is Color.WHITE or self is Color.GOLD


class UnitClass(str, Enum):
    C = "C"
    UC = "UC"
    R = "R"
    EX = "EX"
    UX = "UX"


Copies = Annotated[StrictInt, Field(ge=1, le=20)]  # how many of a piece the kit prints


class _Frozen(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True, defer_build=DEFER_BUILD)


class PushOpponentEffect(_Frozen):
    """Won with this Purple move: the battle opponent (with `any_adjacent`, any opposing unit next to
    this unit) is moved to a free node next to it, chosen by this unit's owner."""

    kind: Literal["push_opponent"]
    any_adjacent: bool = False


class MoveSelfEffect(_Frozen):
    """Won with this Purple move: this unit moves along routes, not through units, to a free node
    up to `steps` away (exactly `steps` with `exact`), or next to the battle opponent with `beside_opponent`."""

    kind: Literal["move_self"]
    steps: Annotated[StrictInt, Field(ge=1, le=3)] = 1
    exact: bool = False
    beside_opponent: bool = False


class MoveAllyEffect(_Frozen):
    """Won with this Purple move: the owner may move one other own field unit (of `types`, when given)
    up to `steps` along routes, not through units."""

    kind: Literal["move_ally"]
    steps: Annotated[StrictInt, Field(ge=1, le=3)] = 1
    types: tuple[Slug, ...] = ()


class SwapWithOpponentEffect(_Frozen):
    """Won with this Purple move: this unit and the battle opponent swap places."""

    kind: Literal["swap_with_opponent"]


BoardEffect = Annotated[
    PushOpponentEffect | MoveSelfEffect | MoveAllyEffect | SwapWithOpponentEffect, Field(discriminator="kind")]
BOARD_EFFECT_KINDS = ("push_opponent", "move_self", "move_ally", "swap_with_opponent")


class Segment(_Frozen):
    """One wedge of a Data Disk. Which optional fields a colour allows is checked in rules.disk."""

    move: ShortText
    color: Color
    size: Annotated[StrictInt, Field(ge=1, le=constants.DISK_TOTAL)]
    damage: Annotated[StrictInt, Field(ge=0, le=999)] | None = None
    # The sheet's cell when it said more than a number ('60x', '70+'): kept for the designer, never printed,
    # and left out of dumps (so of a game record's data hash): it changes nothing in play
    damage_note: Annotated[ShortText | None, Field(exclude=True)] = None
    stars: Annotated[StrictInt, Field(ge=1, le=4)] | None = None
    effect: Text | None = None
    inflicts: Slug | None = None
    board_effect: BoardEffect | None = None  # what the engine executes of `effect` besides `inflicts`


class RemovedFromDuelEffect(_Frozen):
    """Deactivated, this unit leaves the duel instead of going to the Repair Bay."""

    kind: Literal["removed_from_duel"]


class TypeDamageBonusEffect(_Frozen):
    """While this unit is on the field, own field units of `types` deal `amount` more damage in battle
    (`adjacent_amount` instead while next to this unit; `others_only`: not this unit itself)."""

    kind: Literal["type_damage_bonus"]
    types: Annotated[tuple[Slug, ...], Field(min_length=1)]
    amount: Annotated[StrictInt, Field(ge=1, le=200)]
    adjacent_amount: Annotated[StrictInt, Field(ge=1, le=200)] | None = None
    others_only: bool = False


class ClearAdjacentStatusEffect(_Frozen):
    """Activated in the Subroutine Phase, once per duel: an own unit next to this one loses its status."""

    kind: Literal["clear_adjacent_status"]
    ends_turn: bool = True


class ClearHangarWaitEffect(_Frozen):
    """Activated in the Subroutine Phase, once per duel: an own unit in the Hangar loses its Wait."""

    kind: Literal["clear_hangar_wait"]
    ends_turn: bool = False


class ImmovableEffect(_Frozen):
    """The opponent's Purple moves cannot move this unit (push or swap)."""

    kind: Literal["immovable"]


SubroutineEffect = Annotated[
    RemovedFromDuelEffect | TypeDamageBonusEffect | ClearAdjacentStatusEffect | ClearHangarWaitEffect
    | ImmovableEffect, Field(discriminator="kind")]
SUBROUTINE_EFFECT_KINDS = ("removed_from_duel", "type_damage_bonus", "clear_adjacent_status", "clear_hangar_wait",
                           "immovable")


class Subroutine(_Frozen):
    name: ShortText
    text: Text
    effect: SubroutineEffect | None = None  # what the engine executes; the text is what is printed


class Unit(_Frozen):
    id: Slug
    name: ShortText
    unit_class: UnitClass = Field(alias="class")
    mp: Annotated[StrictInt, Field(ge=1, le=3)]
    types: tuple[Slug, ...] = ()
    subroutine: Subroutine | None = None
    upgrades_to: Slug | None = None
    copies: Copies = 1  # cards and tokens of this unit (per side, for tokens)
    # a picture for its card and token (a path in the project); printed only, so not part of a game's data hash
    art: RelativePath | None = Field(default=None, exclude=True)
    disk: Annotated[tuple[Segment, ...], Field(min_length=1, max_length=24)]


class RespinEffect(_Frozen):
    """Re-spin your own unit's Data Disk once after a battle spin; the second result is final."""

    kind: Literal["respin"]


class DamageBonusEffect(_Frozen):
    """One friendly field unit's White and Gold attacks gain `amount` damage this turn."""

    kind: Literal["damage_bonus"]
    amount: Annotated[StrictInt, Field(ge=1, le=200)]


class StarBonusEffect(_Frozen):
    """One friendly field unit's Purple moves gain `amount` stars this turn."""

    kind: Literal["star_bonus"]
    amount: Annotated[StrictInt, Field(ge=1, le=3)]


class SwapUnitsEffect(_Frozen):
    """Two friendly field units swap places; this is not the turn's move."""

    kind: Literal["swap_units"]


class MoveThroughEffect(_Frozen):
    """One friendly field unit may pass through occupied nodes this turn."""

    kind: Literal["move_through"]


class ClearStatusEffect(_Frozen):
    """Remove the status effect from one friendly unit on the field."""

    kind: Literal["clear_status"]


class ClearWaitEffect(_Frozen):
    """Remove Wait from one friendly unit in the Hangar."""

    kind: Literal["clear_wait"]


class ExtraMpEffect(_Frozen):
    """The unit moved this turn has `amount` more MP."""

    kind: Literal["extra_mp"]
    amount: Annotated[StrictInt, Field(ge=1, le=2)]


ModuleEffect = Annotated[
    RespinEffect | DamageBonusEffect | StarBonusEffect | SwapUnitsEffect | MoveThroughEffect
    | ClearStatusEffect | ClearWaitEffect | ExtraMpEffect,
    Field(discriminator="kind"),
]

MODULE_EFFECT_KINDS = (
    "respin", "damage_bonus", "star_bonus", "swap_units", "move_through", "clear_status", "clear_wait",
    "extra_mp",
)


class Module(_Frozen):
    id: Slug
    name: ShortText
    text: Text
    effect: ModuleEffect
    copies: Copies = 1  # cards of this module in each deck (one deck per side whose squad lists it)
    art: RelativePath | None = Field(default=None, exclude=True)  # a picture for its card (a path in the project)


class Squad(_Frozen):
    id: Slug
    name: ShortText | None = None
    units: tuple[Slug, ...]
    modules: tuple[Slug, ...] = ()
