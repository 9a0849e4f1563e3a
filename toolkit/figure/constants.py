"""Every number of the figure duel's rules (duel-protocol and chimera) that the rules code and the printed
sheets share (DESIGN section 2). One source: the board sheet, the manual and the quick reference read
these at the moment they draw, so changing one here changes every sheet that shows it."""

from __future__ import annotations

DISK_TOTAL = 96  # a Data Disk's segment sizes sum to this; a spin is a number 1..DISK_TOTAL
D10_PAIR_MAX = 100  # two d10 read as 01..100 ('00' is 100): the table's randomiser, and who goes first
SQUAD_UNITS = 6  # distinct base units in a squad; the engine's slots are side * SQUAD_UNITS + index
SQUAD_MAX_MODULES = 6  # distinct modules a squad may list, each used once
UPGRADE_DAMAGE_BONUS = 10  # per upgrade stage, to White and Gold
UPGRADE_STAR_BONUS = 1  # per upgrade stage, to Purple
REPAIR_BAY_CAPACITY = 2  # a third arrival pushes the oldest out
HANGAR_SLOTS = 6
WAIT_TURNS = 1  # a unit pushed out of the Repair Bay sits out its owner's next turn
DEPLOY_COST_MP = 1  # moving from the Hangar onto a free own entry
FIRST_TURN_MP_PENALTY = 1  # the first player's first move
CLOCK_MINUTES = 5  # each player's clock
# Spec 000 section 2.5, highest first: which colour wins when two different colours meet (Table 2.1).
# Colour names (the values of toolkit.figure.model.Color, which reads DISK_TOTAL from here).
PRIORITY_ORDER: tuple[str, ...] = ("blue", "gold", "purple", "white", "red")
