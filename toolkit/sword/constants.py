"""Every number and name of the sword duel (spec 002) that the rules, the engine and the printed kit share.

One source: the engine, the linter, the data checks and the sheets all read these, so changing one here
changes every place that uses or prints it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from toolkit.sword.model import Resource

GAME_ID = "sword-duel"  # the card duel of spec 002: a game of its own, not a theme of the figure duel
GAME_NAME = "Untitled Dueling Game"

# --- the duel (spec 002) ---------------------------------------------------------------------------------
START_HEALTH = 3
RESOURCE_CAP = 3  # Momentum and Balance, unless the played technique raises it
START_RESOURCES: dict[str, tuple[int, int]] = {"challenger": (1, 0), "defender": (0, 1)}  # Momentum, Balance
HONOR_TURN = 4  # "If a player uses the Retreat card after Turn 3, they lose"
TURN_LIMIT = 10  # see the engine docstring: twice the longest duel the spec describes
# "Momentum & Balance Updates": what each movement card does to its player's resources.
MOVE_RESOURCES: dict[str, dict[Resource, int]] = {
    "advance": {"momentum": +1, "balance": -1},
    "retreat": {"momentum": -1},
    "stay": {"balance": +1},
}
# "Apply Bonuses"
ADVANCE_ATTACK_BONUS = 1
CLOSE_ATTACK_BONUS = 1
RETREAT_DEFENSE_BONUS = 1

# --- building a swordsman -----------------------------------------------------------------------------------
BUILD_TOTAL = 6  # Speed + Strength + Defense
ATTRIBUTE_MIN, ATTRIBUTE_MAX = 1, 4
INITIATIVE_TOKENS = tuple(range(1, 8))  # "14 initiative tokens: Values from 1 to 7, one set for each player"

# --- the draft ------------------------------------------------------------------------------------------------
DRAFT_SIZE = 10  # "There are 10 Technique cards available"
