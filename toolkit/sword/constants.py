"""Every number and name of the sword duel (spec 002) that the rules, the engine and the printed kit share.

One source: the engine, the linter, the data checks and the sheets all read these, so changing one here
changes every place that uses or prints it.
"""

from __future__ import annotations

GAME_ID = "sword-duel"  # the card duel of spec 002: a game of its own, not a theme of the figure duel
GAME_NAME = "Untitled Dueling Game"
