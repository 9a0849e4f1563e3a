"""sword-duel state (spec 002): attributes, players, the duel, one turn's choices and its result.

Everything here is frozen data; the rules that change it live in `toolkit.sword.engine` (`duel.py`, `combat.py`).
Player A is always the Challenger and player B the Defender: per-player pairs are indexed by `Player.seat`.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Literal, Protocol

from toolkit.errors import DuelkitError
from toolkit.players import Player
from toolkit.sword import constants
from toolkit.sword.model import Technique
from toolkit.sword.rules.positions import Move, Range

Resource = Literal["momentum", "balance"]


class Role(str, Enum):
    CHALLENGER = "challenger"
    DEFENDER = "defender"


class Action(str, Enum):
    """The combat-slot card: at most one of these per turn."""

    ATTACK = "attack"
    DEFEND = "defend"
    INSIGHT = "insight"


class InsightTarget(str, Enum):
    SPEED = "speed"
    STRENGTH = "strength"
    DEFENSE = "defense"
    TECHNIQUE = "technique"


class Reason(str, Enum):
    """Why a duel ended."""

    KNOCKOUT = "knockout"  # one player reached 0 Health
    DISHONOR = "dishonor"  # one player retreated on turn 4 or later
    DOUBLE_KNOCKOUT = "double_knockout"  # draw: both reached 0 Health in the same turn
    DOUBLE_DISHONOR = "double_dishonor"  # draw: both retreated on turn 4 or later
    TIME = "time"  # draw: the turn limit passed


class SwordRulesError(DuelkitError, ValueError):
    """Base class of the engine's errors."""


class InvalidBuild(SwordRulesError):
    """Attributes that break Speed + Strength + Defense = 6, each 1..4."""


class IllegalChoice(SwordRulesError):
    """A Choice that the rules do not allow in this state."""


class DuelOver(SwordRulesError):
    """resolve_turn was called on a duel that already has a result."""


class HasAttributes(Protocol):
    """Anything with the three attributes (a `Build` from the YAML, or `Attributes`), read only."""

    @property
    def speed(self) -> int: ...

    @property
    def strength(self) -> int: ...

    @property
    def defense(self) -> int: ...


@dataclass(frozen=True, slots=True)
class Attributes:
    speed: int
    strength: int
    defense: int


_ROLE_NAMES = {role: role.value.capitalize() for role in Role}


@dataclass(frozen=True, slots=True)
class Knowledge:
    """What a player has learned about the opponent through Insight. Attributes persist for the rest of
    the duel; `technique` (an id) is only the card seen this turn, since it may change next turn."""

    speed: int | None = None
    strength: int | None = None
    defense: int | None = None
    technique: str | None = None


@dataclass(frozen=True, slots=True)
class PlayerState:
    role: Role
    attributes: Attributes
    techniques: tuple[Technique, Technique]
    momentum: int
    balance: int
    health: int = constants.START_HEALTH
    knows: Knowledge = Knowledge()

    @property
    def name(self) -> str:
        """How the event log names this player (looked up: the log names players many times a turn)."""
        return _ROLE_NAMES[self.role]


@dataclass(frozen=True, slots=True)
class Result:
    winner: Player | None  # None for a draw
    reason: Reason

    @property
    def is_draw(self) -> bool:
        return self.winner is None


@dataclass(frozen=True, slots=True)
class DuelState:
    """`turn` is the turn about to be played (it stays on the last turn once there is a result). `honor`
    False plays without the honor rule (Retreat never loses): `duelkit balance` measures the rule's effect."""

    turn: int
    range: Range
    players: tuple[PlayerState, PlayerState]
    result: Result | None = None
    honor: bool = True


@dataclass(frozen=True, slots=True)
class Choice:
    """One player's secret selection for a turn.

    `move` STAY means no movement card. `action` None means no combat card. `technique` indexes the
    player's two techniques (one is always played face down). `evade` declares "evade if attacked";
    `evade_with` names the resource for an evade that may be paid with either, `special_evade` uses the
    technique's special evade (Nagashi's parry) instead of its normal one. `insight` is required with the
    Insight card; `reset` is Mushin's optional reset at the start of the turn.
    """

    move: Move = Move.STAY
    action: Action | None = None
    technique: int = 0
    evade: bool = False
    evade_with: Resource | None = None
    special_evade: bool = False
    insight: InsightTarget | None = None
    reset: bool = False


@dataclass(frozen=True, slots=True)
class TurnResult:
    state: DuelState
    events: tuple[str, ...]  # the readable log of this turn, in resolution order
