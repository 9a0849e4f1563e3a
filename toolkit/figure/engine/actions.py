"""Actions: small ordered tuples of ints, so `legal_actions()` sorts them and players can hash them.

An `Action` is (kind, unit, target, extra). `unit` and `target` are unit slots (0-5 side A, 6-11 side
B), board node indices or module indices, depending on the kind; -1 where unused. Chance outcomes are
plain ints (the index of the segment a spin lands on), never Actions.
"""

from __future__ import annotations

from typing import NamedTuple

from toolkit.errors import DuelkitError

MODULE = 0  # unit = module index in the squad, target/extra = unit slots it applies to (or -1)
SUBROUTINE = 1  # unit = the slot whose subroutine is used, target = the slot it applies to (or -1)
MOVE = 2  # unit = slot, target = destination node (a deploy when the unit is in the Hangar)
WAKE = 3  # unit = a sleeping slot: spend the move on a wake-up spin (chimera Sleep)
ATTACK = 4  # unit = the slot that moved, target = an adjacent enemy slot
PASS = 5  # end the turn / decline the battle / keep the spin / decline the upgrade or effect
RESPIN = 6  # unit = module index of a re-spin module, target = the slot that re-spins
UPGRADE = 7  # unit = the slot that upgrades to its next form
CHOOSE = 8  # an effect's choice: unit = the slot placed, target = the node it goes to

KIND_NAMES = ("module", "subroutine", "move", "wake", "attack", "pass", "respin", "upgrade", "choose")


class Action(NamedTuple):
    kind: int
    unit: int = -1
    target: int = -1
    extra: int = -1


class IllegalAction(DuelkitError):
    """An action that is not among `legal_actions()` (or a chance outcome that cannot happen)."""
