"""A held-out tactics suite for the board game's players: hand-made positions with one clearly right decision.

None of these positions was used to tune a player (the search's weights come from self-play of the bundled
squads; these use the engine tests' made-up units). Each names what is right and a check on the action a
player chose. `tests/figure/test_tactics.py` requires the default search to solve every one;
`bench/tactics.py` prints which players solve which.

The board (the test board of tests/figure/engine/kit.py): A's goal r4c3, entries r4c0 and r4c6; B's goal
r0c3, entries r0c0 and r0c6; the back rows r0c0..r0c6 and r4c0..r4c6 are joined by the side columns
(r1c0..r3c0, r1c6..r3c6) and the inner ring (i0c0..i2c2).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from tests.figure.engine.kit import at, game, module, node, slot, unit
from toolkit.figure.engine.actions import ATTACK, MODULE, MOVE, PASS, Action
from toolkit.figure.engine.state import GameState

# White 120 on 47 of 96, Blue 45, Red 4: against a White 30 disk this attacker wins 49% (knocks the defender
# out) and loses 4% (knocked out itself); the rest leaves the board as it was.
STRONG = [{"move": "Crush", "color": "white", "size": 47, "damage": 120},
          {"move": "Guard", "color": "blue", "size": 45},
          {"move": "Slip", "color": "red", "size": 4}]
WEAK = [{"move": "Jab", "color": "white", "size": 96, "damage": 30}]


@dataclass(frozen=True)
class Tactic:
    name: str
    right: str  # the decision, in words
    position: Callable[[], GameState]
    solved: Callable[[GameState, Action], bool]


def _goal_capture() -> GameState:
    return at(game(), {"a1": "r0c5", "a2": "r3c0", "b1": "r2c6", "b2": "r4c1"})


def _block() -> GameState:
    """B's 2-MP b1 stands two steps from A's goal; A's a1 (1 MP) and a2 can step in the way."""
    g = game(a={"a1": unit("a1", mp=1)})
    return at(g, {"a1": "r4c2", "a2": "r3c0", "b1": "r4c5", "b2": "r0c0"})


def _blocked(state: GameState, action: Action) -> bool:
    """After the chosen move, B's b1 can no longer step onto A's goal."""
    after = state.clone()
    after.apply(action)
    while not after.is_terminal() and after.player == 0:
        legal = after.decisions()
        after.apply(next((a for a in legal if a[0] == PASS), legal[0]))
    goal = after.game.goals[0]
    return not after.is_terminal() and all(not (a[0] == MOVE and a[2] == goal) for a in after.decisions())


def _surround() -> GameState:
    """B's b1 on r0c1 has two neighbours: r0c0 (A's a2 holds it) and r0c2, which a1 can reach."""
    return at(game(), {"a1": "i0c0", "a2": "r0c0", "b1": "r0c1", "b2": "r4c6", "b3": "r2c6"})


def _lockout() -> GameState:
    """B has no unit on the field and A holds one of B's two entries: a2 can take the other one, and B's
    Hangar units then have no way in (System Lockout at the start of B's turn)."""
    places = {f"b{i}": "bay" if i <= 2 else "hangar" for i in range(1, 7)}
    return at(game(), {"a1": "r0c0", "a2": "r2c6", "a3": "r4c3", **places})


def _module_run() -> GameState:
    """a1 (2 MP) stands three steps from B's goal; A's +1 MP module takes it there this turn."""
    g = game(modules_a=[module("boost", {"kind": "extra_mp", "amount": 1})])
    return at(g, {"a1": "r0c6", "a2": "r3c0", "b1": "r2c0", "b2": "r4c1"})


def _battle(attacker_disk: list[dict], status: str | None = None) -> Callable[[], GameState]:
    """A's a1 has just moved next to B's 1-MP b1 (which cannot reach a1 on its next turn): attack or not."""
    def position() -> GameState:
        g = game(a={"a1": unit("a1", disk=attacker_disk)},
                 b={"b1": unit("b1", mp=1, disk=WEAK if attacker_disk is STRONG else STRONG)})
        statuses = {"a1": status} if status else {}
        state = at(g, {"a1": "r2c0", "a2": "r4c4", "b1": "r0c0", "b2": "r0c4"}, statuses=statuses)
        state.apply(Action(MOVE, slot(state, "a1"), node(state, "r1c0")))
        return state
    return position


def _kind(kind: int) -> Callable[[GameState, Action], bool]:
    return lambda _state, action: action[0] == kind


def _to(name: str, unit_name: str | None = None) -> Callable[[GameState, Action], bool]:
    def check(state: GameState, action: Action) -> bool:
        return (action[0] == MOVE and action[2] == node(state, name)
                and (unit_name is None or action[1] == slot(state, unit_name)))
    return check


TACTICS = (
    Tactic("goal capture", "step onto the enemy goal", _goal_capture, _to("r0c3")),
    Tactic("block", "stand in the way of a unit two steps from our goal", _block, _blocked),
    Tactic("surround", "close the last open side of an enemy unit", _surround, _to("r0c2", "a1")),
    Tactic("lockout", "take the enemy's last open Entry Point (System Lockout in one move)", _lockout,
           _to("r0c6", "a2")),
    Tactic("module", "spend the +1 MP module to reach the goal this turn", _module_run, _kind(MODULE)),
    Tactic("take the battle", "attack at 49% to 4%", _battle(STRONG), _kind(ATTACK)),
    Tactic("decline the battle", "decline an attack at 4% to 49%", _battle(WEAK), _kind(PASS)),
    Tactic("confused", "decline: a confused unit hits itself half the time before the battle",
           _battle(STRONG, "confusion"), _kind(PASS)),
)
