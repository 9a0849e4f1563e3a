"""Rules where the engine once read the seeds differently (issue 21, item 2): each test quotes the seed text.

Specs: /work/shared/spec/000 (DUEL PROTOCOL) and 001 (Project Chimera). Spins are chosen by the test.
"""

from __future__ import annotations

from tests.figure.engine.kit import PURPLE, RED, WHITE, at, disk, game, module, node, slot, unit, where
from toolkit.figure.engine import CHANCE, RULES_DEFAULT, A, Action, B, Rules
from toolkit.figure.engine.actions import ATTACK, CHOOSE, MODULE, MOVE, PASS, RESPIN
from toolkit.figure.engine.record import result_json
from toolkit.figure.engine.render_text import describe_outcome
from toolkit.figure.engine.state import GameState
from toolkit.players import Player


def move(state: GameState, name: str, to: str) -> None:
    state.apply(Action(MOVE, slot(state, name), node(state, to)))


def attack(state: GameState, attacker: str, defender: str) -> None:
    state.apply(Action(ATTACK, slot(state, attacker), slot(state, defender)))


def moves_of(state: GameState, name: str) -> set[str]:
    s = slot(state, name)
    return {state.game.node_names[a.target] for a in state.legal_actions() if a.kind == MOVE and a.unit == s}


def modules(state: GameState) -> list[Action]:
    return [a for a in state.legal_actions() if a.kind == MODULE]


def purple_unit(uid: str, effect: dict) -> object:
    """A unit whose Purple segment (index PURPLE) carries a board effect."""
    segments = disk()
    segments[PURPLE] = {**segments[PURPLE], "effect": "moves units", "board_effect": effect}
    return unit(uid, disk=segments)


# ---- first turn: 000 2.3 / 2.4, 001 1.3 / 2.1 ------------------------------------------------------------------

def test_a_one_mp_unit_cannot_deploy_on_the_first_turn():
    """000 2.3: "the unit moved by the first operator has its Movement Points (MP) reduced by one for that move
    only"; 000 2.4: "Deploying a unit from the Hangar onto one of the operator's unoccupied Entry Points costs
    1 MP" (001 1.3 and 2.1 say the same)."""
    g = game(a={"a1": unit("a1", mp=1)}, b={"b1": unit("b1", mp=1)})
    state = GameState.initial(g, Player.A)
    assert moves_of(state, "a1") == set()  # 1 - 1 = 0 MP: not enough for the deploy
    assert moves_of(state, "a2") == {"r4c0", "r4c6"}  # 2 - 1 = 1 MP: the deploy and nothing more
    move(state, "a2", "r4c0")
    assert moves_of(state, "b1") == {"r0c0", "r0c6"}  # the second player's first move has its full MP


def test_the_min_mp_switch_keeps_the_old_reading():
    g = game(a={"a1": unit("a1", mp=1)}, rules=Rules(min_mp=1))
    assert moves_of(GameState.initial(g, Player.A), "a1") == {"r4c0", "r4c6"}
    assert Rules().min_mp == 0


def test_a_squad_that_cannot_move_first_is_locked_out():
    """000 2.1 (System Lockout): "at the start of the opponent's turn, the opponent has no legal moves"."""
    ones = {f"a{i}": unit(f"a{i}", mp=1) for i in range(1, 7)}
    state = GameState.initial(game(a=ones), Player.A)
    assert state.outcome() == (Player.B, "lockout")


# ---- re-spin modules: 000 2.3 / 2.8, 001 1.3 / 4.1 / 4.2 -----------------------------------------------------

def test_a_respin_module_is_committed_in_the_module_phase_and_used_after_the_spin():
    """001 1.3: "A Commander cannot react to a failed move by then deciding to use a Support Module to correct
    it. They must ... commit their most powerful, rule-altering resources during the Module Phase"; 001 4.1:
    "Modules are played during the Module Phase at the start of a Commander's turn"; 001 4.2 (Recalculate
    Trajectory): "After a combat spin, you may discard this module to re-spin your unit's Combat Dial once.
    The result of the second spin is final."."""
    g = game(modules_a=[module("m0", {"kind": "respin"})])
    state = at(g, {"a1": "r2c0", "b1": "r0c0"})
    assert modules(state) == [Action(MODULE, 0)]  # offered at the start of the turn
    state.apply(Action(MODULE, 0))
    assert state.used[A] == 1  # spent when committed
    assert not modules(state)
    move(state, "a1", "r1c0")
    attack(state, "a1", "b1")
    state.apply(RED)
    state.apply(WHITE)
    respin = Action(RESPIN, 0, slot(state, "a1"))
    assert state.current_player == A
    assert state.legal_actions() == [Action(PASS), respin]  # after seeing the spin
    state.apply(respin)
    assert state.current_player == CHANCE
    state.apply(RED)  # the second result is final: Miss against White, a1 is Deactivated
    assert state.current_player == B
    assert where(state, "a1") == "bay"


def test_an_uncommitted_respin_module_cannot_react_to_a_failed_spin():
    """001 1.3: "A Commander cannot react to a failed move by then deciding to use a Support Module"."""
    g = game(modules_a=[module("m0", {"kind": "respin"})])
    state = at(g, {"a1": "r2c0", "b1": "r0c0"})
    move(state, "a1", "r1c0")  # the move closes the Module Phase
    attack(state, "a1", "b1")
    state.apply(RED)
    state.apply(WHITE)  # Miss against White: lost, and no re-spin is offered
    assert state.current_player == B
    assert where(state, "a1") == "bay"
    assert state.used[A] == 0


# ---- one module per turn: 000 2.3 ---------------------------------------------------------------------------

def test_one_module_per_turn_x_attack_then_no_respin():
    """000 2.3: "1. Module Phase: At the start of the turn, the operator may choose to activate one of their
    single-use Strategic Modules"."""
    g = game(modules_a=[module("x", {"kind": "damage_bonus", "amount": 30}), module("dc", {"kind": "respin"})])
    state = at(g, {"a1": "r2c0", "b1": "r0c0"})
    state.apply(Action(MODULE, 0, slot(state, "a1")))
    assert not modules(state)  # the Double Chance cannot be added
    move(state, "a1", "r1c0")
    attack(state, "a1", "b1")
    state.apply(RED)
    state.apply(WHITE)
    assert state.current_player == B  # no re-spin after the X Attack: the battle resolved at once
    assert state.used[A] == 1


# ---- goal capture: 000 2.1, 001 1.1 -------------------------------------------------------------------------

def fly_over_position(rules: Rules = RULES_DEFAULT) -> GameState:
    """a1 (Purple: Fly Over, beside the opponent) attacks b1, which stands next to B's goal r0c3."""
    g = game(a={"a1": purple_unit("a1", {"kind": "move_self", "beside_opponent": True})}, rules=rules)
    state = at(g, {"a1": "r0c6", "b1": "r0c4"})
    move(state, "a1", "r0c5")
    attack(state, "a1", "b1")
    state.apply(PURPLE)
    state.apply(WHITE)  # Purple beats White: a1 may move beside b1, and the only free node there is the goal
    assert state.legal_actions() == [Action(CHOOSE, slot(state, "a1"), node(state, "r0c3"))]
    state.apply(state.legal_actions()[0])
    return state


def test_a_unit_that_lands_on_the_enemy_goal_by_its_own_purple_move_wins_at_once():
    """000 2.1: "The simulation ends immediately upon the occupation of this node"; 001 1.1: "The duel ends
    immediately upon a unit occupying this space, resulting in a decisive victory for the aggressor"."""
    state = fly_over_position()
    assert where(state, "a1") == "r0c3"
    assert state.outcome() == (Player.A, "goal_capture")


def test_the_own_move_switch_keeps_the_old_reading():
    state = fly_over_position(Rules(goal_capture_by="own_move"))
    assert where(state, "a1") == "r0c3"
    assert not state.is_terminal()


def test_a_swap_module_onto_the_enemy_goal_wins_at_once():
    """000 2.1: "ends immediately upon the occupation"; a swap is an action of the unit's owner."""
    places = {"a1": "r0c3", "a2": "r2c0"}  # a1 stands on B's goal (put there by hand, not by a move)
    for surround_after in ("any_position_change", "move_only"):
        g = game(modules_a=[module("sw", {"kind": "swap_units"})], rules=Rules(surround_after=surround_after))
        state = at(g, places)
        state.apply(Action(MODULE, 0, slot(state, "a1"), slot(state, "a2")))
        assert where(state, "a2") == "r0c3"
        assert state.outcome() == (Player.A, "goal_capture"), surround_after


def test_a_unit_pushed_onto_the_enemy_goal_by_the_opponent_does_not_win():
    """000 2.1: Goal Capture "is achieved when an operator moves one of their active units onto the opponent's
    Goal Point": a unit the opponent pushed there was not moved by its own operator."""
    def pushed(rules: Rules) -> GameState:
        g = game(b={"b1": purple_unit("b1", {"kind": "push_opponent"})}, rules=rules)
        state = at(g, {"a1": "r0c1", "b1": "i0c1"})
        move(state, "a1", "r0c2")
        attack(state, "a1", "b1")
        state.apply(WHITE)
        state.apply(PURPLE)  # the defender wins with its push; B chooses where a1 goes
        assert state.current_player == B
        state.apply(Action(CHOOSE, slot(state, "a1"), node(state, "r0c3")))
        return state
    state = pushed(Rules())
    assert where(state, "a1") == "r0c3"
    assert not state.is_terminal()
    assert pushed(Rules(goal_capture_by="any_placement")).outcome() == (Player.A, "goal_capture")


def test_a_unit_pushed_onto_the_enemy_goal_does_not_win_at_its_owners_next_move_either():
    """The pushed unit stands on the goal, but its operator did not move it there: A's next move of another
    unit wins nothing (it once did, at any move of A's while the unit stood there), under both surround
    switches; moving the pushed unit off and back on would."""
    for surround_after in ("any_position_change", "move_only"):
        g = game(b={"b1": purple_unit("b1", {"kind": "push_opponent"})},
                 rules=Rules(surround_after=surround_after))
        state = at(g, {"a1": "r0c1", "a2": "r4c1", "b1": "i0c1", "b2": "r2c6"})
        move(state, "a1", "r0c2")
        attack(state, "a1", "b1")
        state.apply(WHITE)
        state.apply(PURPLE)
        state.apply(Action(CHOOSE, slot(state, "a1"), node(state, "r0c3")))
        move(state, "b2", "r3c6")
        move(state, "a2", "r4c2")
        assert where(state, "a1") == "r0c3"
        assert not state.is_terminal(), surround_after


# ---- Frozen / Cryo-Stasis and swaps: 000 Table 2.2, 001 Table 2.2 ------------------------------------------------

def swaps(state: GameState) -> set[tuple[str, str]]:
    label = {s.index: s.label for s in state.game.slots}
    return {(label[a.target], label[a.extra]) for a in modules(state)}


def test_a_frozen_unit_cannot_be_moved_by_unit_switch():
    """000 Table 2.2, Cryo-Stasis (Frozen): "The unit cannot participate in combat or be moved by the
    operator"."""
    state = at(game(modules_a=[module("sw", {"kind": "swap_units"})]), {"a1": "r2c0", "a2": "r4c4", "a3": "r2c6"},
               statuses={"a1": "frozen"})
    assert swaps(state) == {("A:a2", "A:a3")}


def test_a_frozen_unit_cannot_be_moved_by_teleport_swap():
    """001 Table 2.2, Frozen: "This unit cannot be selected to move or initiate an attack"."""
    state = at(game("chimera", modules_a=[module("sw", {"kind": "swap_units"})]),
               {"a1": "r2c0", "a2": "r4c4", "a3": "r2c6"}, statuses={"a1": "frozen"})
    assert swaps(state) == {("A:a2", "A:a3")}


def test_a_frozen_ally_is_not_moved_by_an_own_purple_move():
    g = game(a={"a1": purple_unit("a1", {"kind": "move_ally", "steps": 1})})
    state = at(g, {"a1": "r2c0", "a2": "r2c6", "b1": "r0c0"}, statuses={"a2": "frozen"})
    move(state, "a1", "r1c0")
    attack(state, "a1", "b1")
    state.apply(PURPLE)
    state.apply(WHITE)  # a1 wins; its only ally on the field is frozen, so there is nothing to move
    assert state.current_player == B


# ---- draw reports: the turns counted -------------------------------------------------------------------------

def test_a_draw_at_the_300_turn_limit_reports_300_turns():
    """The turn limit is a ruling (specs silent): 300 turns in all, so a game it stops has played 300."""
    state = GameState.initial(game(rules=Rules(repetition_limit=100_000)), Player.A)
    move(state, "a2", "r4c0")
    move(state, "b2", "r0c0")
    while not state.is_terminal():
        for unit_name, here, there in (("a2", "r4c0", "r3c0"), ("b2", "r0c0", "r1c0")):
            if not state.is_terminal():
                move(state, unit_name, there if where(state, unit_name) == here else here)
    assert state.outcome() == (None, "turn_limit")
    assert state.turns_played() == 300
    assert result_json(state)["turns"] == 300
    assert describe_outcome(state) == "draw by the turn limit after 300 turns"


def test_a_repetition_after_10_turns_reports_10():
    state = GameState.initial(game(), Player.A)
    move(state, "a2", "r4c0")
    move(state, "b2", "r0c0")
    for _ in range(2):  # the position at the start of turn 3 comes back at the start of turns 7 and 11
        move(state, "a2", "r3c0")
        move(state, "b2", "r1c0")
        move(state, "a2", "r4c0")
        move(state, "b2", "r0c0")
    assert state.outcome() == (None, "repetition")
    assert result_json(state)["turns"] == 10
    assert describe_outcome(state) == "draw by threefold repetition after 10 turns"


def test_a_goal_capture_counts_the_turn_it_happened_on():
    g = game(a={"a1": unit("a1", mp=2)})
    state = at(g, {"a1": "r0c5"}, turn=7)
    move(state, "a1", "r0c3")
    assert result_json(state)["turns"] == 8
    assert describe_outcome(state) == "A wins by goal capture on turn 8"



def test_odds_with_a_respin_module_says_it_was_committed_in_the_module_phase(capsys):
    from toolkit.cli import main
    assert main(["odds", "v-k4", "sq-7", "--module", "double-chance"]) == 0
    out = capsys.readouterr().out
    assert "re-spins once when it pays, after seeing the spins" in out
    assert "committed in the Module Phase" in out


def test_simulate_json_counts_the_turns_played_at_the_turn_limit(capsys):
    import json

    from toolkit.cli import main
    assert main(["simulate", "attrition-lock", "grid-surge", "--games", "2", "--rules", "turn_limit=2", "--json",
                 "--seed", "1"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["turns"]["max"] == 2  # was 3: the turn the limit stopped was counted as played
    assert summary["mean_turns"] == 2.0
