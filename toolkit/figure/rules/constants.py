"""Numbers of the duel-protocol/chimera rules that printed sheets quote (DESIGN section 2)."""

REPAIR_BAY_CAPACITY = 2  # a third arrival pushes the oldest out
WAIT_TURNS = 1  # a unit pushed out of the Repair Bay sits out its owner's next turn
DEPLOY_COST_MP = 1  # moving from the Hangar onto a free own entry
FIRST_TURN_MP_PENALTY = 1  # the first player's first move
CLOCK_MINUTES = 5  # each player's clock
HANGAR_SLOTS = 6
