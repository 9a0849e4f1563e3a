"""Every number of the figure duel's rules (duel-protocol and chimera) that the rules code and the printed
sheets share (DESIGN section 2). One source: the board sheet, the manual and the quick reference read
these at the moment they draw, so changing one here changes every sheet that shows it."""

from __future__ import annotations

from toolkit.figure.model import Color

REPAIR_BAY_CAPACITY = 2  # a third arrival pushes the oldest out
HANGAR_SLOTS = 6
WAIT_TURNS = 1  # a unit pushed out of the Repair Bay sits out its owner's next turn
DEPLOY_COST_MP = 1  # moving from the Hangar onto a free own entry
FIRST_TURN_MP_PENALTY = 1  # the first player's first move
CLOCK_MINUTES = 5  # each player's clock
# Spec 000 section 2.5, highest first: which colour wins when two different colours meet (Table 2.1).
PRIORITY_ORDER: tuple[Color, ...] = (Color.BLUE, Color.GOLD, Color.PURPLE, Color.WHITE, Color.RED)
