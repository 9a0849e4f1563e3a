"""Every core rule of the figure engine on a hand-built position (spins chosen by the test)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from tests.figure.engine.kit import BLUE, GOLD, PURPLE, RED, WHITE, at, disk, game, module, node, slot, unit, where
from toolkit.figure.engine import CHANCE, A, Action, B, IllegalAction, Rules
from toolkit.figure.engine.actions import ATTACK, CHOOSE, MODULE, MOVE, PASS, UPGRADE, WAKE
from toolkit.figure.engine.state import GameState
from toolkit.players import Player


def move(state: GameState, name: str, to: str) -> None:
    state.apply(Action(MOVE, slot(state, name), node(state, to)))


def attack(state: GameState, attacker: str, defender: str) -> None:
    state.apply(Action(ATTACK, slot(state, attacker), slot(state, defender)))


def moves_of(state: GameState, name: str) -> set[str]:
    s = slot(state, name)
    return {state.game.node_names[a.target] for a in state.legal_actions() if a.kind == MOVE and a.unit == s}


# ---- movement, deploy, first turn -------------------------------------------------------------


def test_first_player_first_move_has_one_mp_less_and_deploy_leftover_continues():
    g = game(a={"a1": unit("a1", mp=3)}, b={"b1": unit("b1", mp=3)})
    state = GameState.initial(g, Player.A)
    # 3 MP - 1 (first move) = 2: deploy (1) + one step from either entry
    assert moves_of(state, "a1") == {"r4c0", "r4c1", "r3c0", "i2c0", "r4c6", "r4c5", "r3c6", "i2c2"}
    move(state, "a1", "r4c1")
    assert state.current_player == B
    # the second player's first move has its full 3 MP: deploy + two steps
    assert "r0c2" in moves_of(state, "b1")
    assert "r1c0" in moves_of(state, "b1")
    assert "r0c3" not in moves_of(state, "b1")  # three steps from r0c0 would be 4 MP with the deploy


def test_no_passing_through_units_and_move_must_end_on_a_free_node():
    g = game(a={"a1": unit("a1", mp=3)})
    state = at(g, {"a1": "r4c1", "a2": "r4c2", "b1": "r4c0"})
    reach = moves_of(state, "a1")
    assert "r4c3" not in reach  # a2 blocks the way east
    assert "r4c2" not in reach
    assert "r3c0" not in reach  # b1 blocks the way north
    assert "r4c0" not in reach


def test_deploy_blocked_by_an_enemy_on_the_entry():
    g = game(a={"a1": unit("a1", mp=2)})
    state = at(g, {"b1": "r4c0"})
    assert moves_of(state, "a1") == {"r4c6", "r4c5", "r3c6", "i2c2"}


def test_goal_capture_by_own_move_wins_at_once():
    g = game(a={"a1": unit("a1", mp=2)})
    state = at(g, {"a1": "r0c5"})
    move(state, "a1", "r0c3")
    assert state.is_terminal()
    assert state.outcome() == (Player.A, "goal_capture")
    assert state.current_player == -2


def test_illegal_action_raises_before_anything_changes():
    g = game()
    state = at(g, {"a1": "r4c1"})
    before = state.state_hash()
    with pytest.raises(IllegalAction):
        state.apply(Action(MOVE, slot(state, "a1"), node(state, "r0c3")))
    with pytest.raises(IllegalAction):
        state.apply(3)  # a chance outcome where no spin is due
    assert state.state_hash() == before


# ---- surround -----------------------------------------------------------------------------------------


def test_surround_of_a_goal_point_sitter():
    g = game()
    state = at(g, {"b1": "r0c3", "a1": "r0c2", "a2": "r0c5"})
    move(state, "a2", "r0c4")
    assert where(state, "b1") == "bay"
    assert state.bay[B] == (slot(state, "b1"),)


def test_mover_freed_by_the_enemys_removal_survives():
    # A deploys onto r4c0, whose three neighbours hold B units; the deploy also closes a surround on
    # b1 (r4c1, between r4c0 and a2 on r4c2). Enemies are removed first, so a1 is no longer surrounded.
    places = {"b1": "r4c1", "b2": "r3c0", "b3": "i2c0", "a2": "r4c2"}
    state = at(game(), places)
    move(state, "a1", "r4c0")
    assert where(state, "b1") == "bay"
    assert where(state, "a1") == "r4c0"
    simultaneous = at(game(rules=Rules(surround_order="simultaneous")), places)
    move(simultaneous, "a1", "r4c0")
    assert where(simultaneous, "b1") == "bay"
    assert where(simultaneous, "a1") == "bay"


def test_moving_into_a_surround_loses_the_mover():
    state = at(game(), {"b1": "r4c1", "b2": "r3c0", "b3": "i2c0"})
    move(state, "a1", "r4c0")
    assert where(state, "a1") == "bay"
    assert state.bay[A] == (slot(state, "a1"),)


def test_a_unit_placed_surrounded_by_hand_goes_at_the_next_move_anywhere():
    # b1 on r0c3 already stands between a1 (r0c2) and a2 (r0c4) when the position is set up; a move far away
    # still removes it, as the check after a move looks at every unit on such a position
    state = at(game(), {"b1": "r0c3", "a1": "r0c2", "a2": "r0c4", "a3": "r4c3"})
    move(state, "a3", "r4c4")
    assert where(state, "b1") == "bay"


def test_a_push_under_move_only_leaves_a_surround_for_the_next_move_to_find():
    # a1 wins a Purple push and puts b1 on i0c0, which closes a5 (i0c1) in between b1, b2 and b3. With
    # surround_after=move_only nobody checks then; B's next move, far away, finds a5 surrounded all the same.
    push = [*disk()[:PURPLE], {**disk()[PURPLE], "board_effect": {"kind": "push_opponent"}}, *disk()[PURPLE + 1:]]
    places = {"a1": "r2c0", "b1": "r0c0", "a5": "i0c1", "b2": "i0c2", "b3": "r0c2", "b4": "r4c6"}
    for rules, after_push in ((Rules(surround_after="move_only"), "i0c1"), (Rules(), "bay")):
        state = at(game(a={"a1": unit("a1", disk=push)}, rules=rules), places)
        move(state, "a1", "r1c0")
        attack(state, "a1", "b1")
        state.apply(PURPLE)
        state.apply(WHITE)  # Purple beats White: a1 pushes b1
        state.apply(Action(CHOOSE, slot(state, "b1"), node(state, "i0c0")))
        assert where(state, "a5") == after_push
        move(state, "b4", "r4c5")
        assert where(state, "a5") == "bay"


# ---- Repair Bay, Wait, lockout ---------------------------------------------------------------------------


def test_repair_bay_pushes_out_the_oldest_with_wait_one():
    g = game(b={"b1": unit("b1", disk=[{"move": "Smash", "color": "white", "size": 96, "damage": 200}])})
    state = at(g, {"a1": "bay", "a2": "bay", "a3": "r2c0", "b1": "r0c0"}, to_move=Player.B)
    assert state.bay[A] == (slot(state, "a1"), slot(state, "a2"))
    move(state, "b1", "r1c0")
    attack(state, "b1", "a3")
    state.apply(WHITE)  # b1 spins its only segment
    state.apply(WHITE)  # a3 spins White 50: loses to 200
    assert where(state, "a3") == "bay"
    assert where(state, "a1") == "hangar"
    assert state.bay[A] == (slot(state, "a2"), slot(state, "a3"))
    assert state.wait[slot(state, "a1")] == 1
    assert state.current_player == A
    assert "r4c0" not in moves_of(state, "a1")  # Wait: not on A's next turn
    move(state, "a4", "r4c0")
    move(state, "b1", "r0c0")
    assert state.wait[slot(state, "a1")] == 0
    assert moves_of(state, "a1")  # free again on the turn after


def test_wait_counts_only_the_owners_turns_by_default():
    g = game()
    state = at(g, {"a1": "hangar"}, waits={"a1": 1}, to_move=Player.B)
    move(state, "b1", "r0c0")  # B's turn: A's Wait does not count down
    assert state.wait[slot(state, "a1")] == 1
    variant = at(game(rules=Rules(wait_counts="all_turns")), {"a1": "hangar"}, waits={"a1": 1}, to_move=Player.B)
    move(variant, "b1", "r0c0")
    assert variant.wait[slot(variant, "a1")] == 0


def test_system_lockout_at_the_start_of_the_turn():
    g = game()
    places = {f"a{i}": "bay" if i <= 2 else "hangar" for i in range(1, 7)} | {"b1": "r4c0", "b2": "r4c6"}
    state = at(g, places, waits={"a3": 0})
    assert state.is_terminal()
    assert state.outcome() == (Player.B, "lockout")
    off = at(game(rules=Rules(lockout="off")), places)
    assert not off.is_terminal()
    assert off.legal_actions() == [Action(PASS)]


# ---- battles ------------------------------------------------------------------------------------------


def test_battle_is_a_chance_node_per_spin_with_exact_probabilities():
    g = game()
    state = at(g, {"a1": "r2c0", "b1": "r0c0"})
    move(state, "a1", "r1c0")
    assert state.legal_actions() == [Action(ATTACK, slot(state, "a1"), slot(state, "b1")), Action(PASS)]
    attack(state, "a1", "b1")
    assert state.current_player == CHANCE
    outcomes = state.chance_outcomes()
    assert [o for o, _ in outcomes] == [0, 1, 2, 3, 4]
    assert sum(p for _, p in outcomes) == 1
    assert outcomes[0][1] == Fraction(24, 96)
    state.apply(WHITE)
    state.apply(GOLD)  # White 50 against Gold 40: the attacker wins
    assert where(state, "b1") == "bay"
    assert where(state, "a1") == "r1c0"
    assert state.current_player == B


def test_blue_is_a_wash_and_the_turn_ends():
    g = game()
    state = at(g, {"a1": "r2c0", "b1": "r0c0"})
    move(state, "a1", "r1c0")
    attack(state, "a1", "b1")
    state.apply(WHITE)
    state.apply(BLUE)
    assert where(state, "a1") == "r1c0"
    assert where(state, "b1") == "r0c0"
    assert state.current_player == B


def test_purple_win_inflicts_its_status():
    g = game(a={"a1": unit("a1", disk=disk(inflicts="burn"))})
    state = at(g, {"a1": "r2c0", "b1": "r0c0"})
    move(state, "a1", "r1c0")
    attack(state, "a1", "b1")
    state.apply(PURPLE)
    state.apply(WHITE)
    assert state.status[slot(state, "b1")] == g.status_codes["burn"]


def test_removed_from_the_duel_instead_of_the_repair_bay():
    phantom = unit("b1", subroutine={"name": "Hallucination", "text": "Removed from the duel.",
                                     "effect": {"kind": "removed_from_duel"}})
    g = game(b={"b1": phantom})
    state = at(g, {"a1": "r2c0", "b1": "r0c0"})
    move(state, "a1", "r1c0")
    attack(state, "a1", "b1")
    state.apply(WHITE)
    state.apply(RED)
    assert where(state, "b1") == "removed"
    assert state.bay[B] == ()


def test_upgrade_after_the_base_form_deactivates_an_enemy():
    base = unit("a1", mp=3, upgrades_to="a1x", disk=disk(white=50))
    upgraded = unit("a1x", mp=2, disk=disk(white=70, gold=40, stars=1))
    g = game(a={"a1": base}, extra=[upgraded])
    state = at(g, {"a1": "r2c0", "b1": "r0c0"})
    move(state, "a1", "r1c0")
    attack(state, "a1", "b1")
    state.apply(WHITE)
    state.apply(GOLD)
    assert state.legal_actions() == [Action(PASS), Action(UPGRADE, slot(state, "a1"))]
    state.apply(Action(UPGRADE, slot(state, "a1")))
    s = slot(state, "a1")
    assert state.form[s] == 1
    assert state.effective_mp(s) == 2
    table = g.spin_table(s, 1, 0, 0, 0, ())
    assert table.segments[WHITE].damage == 80  # +10 and +1 star per stage
    assert table.segments[PURPLE].stars == 2


# ---- statuses: duel-protocol (spec 000 Table 2.2) ---------------------------------------------------------


@pytest.mark.parametrize(("status", "damage"), [("poison", 30), ("noxious", 10), ("burn", 30)])
def test_duel_protocol_damage_statuses_lower_every_attack(status, damage):
    g = game()
    state = at(g, {"a1": "r2c0", "b1": "r0c0"}, statuses={"a1": status})
    move(state, "a1", "r1c0")
    attack(state, "a1", "b1")
    assert state._spin_table().segments[WHITE].damage == damage
    state.apply(WHITE)
    state.apply(GOLD)  # 50 - modifier against Gold 40
    assert where(state, "a1" if damage < 40 else "b1") == "bay"


def test_paralysis_turns_the_largest_segment_into_a_miss():
    g = game(b={"b1": unit("b1", disk=[{"move": "Big", "color": "white", "size": 60, "damage": 90},
                                       {"move": "Small", "color": "white", "size": 36, "damage": 10}])})
    state = at(g, {"a1": "r2c0", "b1": "r0c0"}, statuses={"b1": "paralysis"})
    move(state, "a1", "r1c0")
    attack(state, "a1", "b1")
    state.apply(RED)  # the attacker misses ...
    assert state._spin_table().segments[0].color.value == "red"
    state.apply(0)  # ... but the paralysed defender's big segment is a Miss too: a draw
    assert where(state, "a1") == "r1c0"
    assert where(state, "b1") == "r0c0"


def test_confusion_spins_first_and_a_white_result_hits_itself():
    g = game()
    state = at(g, {"a1": "r2c0", "b1": "r0c0"}, statuses={"a1": "confusion"})
    move(state, "a1", "r1c0")
    attack(state, "a1", "b1")
    assert state.spin == (0, slot(state, "a1"))  # the self-hit spin
    state.apply(GOLD)
    assert where(state, "a1") == "bay"
    assert state.current_player == B


def test_confusion_without_a_hit_goes_on_to_the_battle():
    g = game()
    state = at(g, {"a1": "r2c0", "b1": "r0c0"}, statuses={"a1": "confusion"})
    move(state, "a1", "r1c0")
    attack(state, "a1", "b1")
    state.apply(BLUE)
    assert state.current_player == CHANCE
    assert state.spin == (1, slot(state, "a1"))


def test_both_confused_each_spin_for_a_self_hit_and_both_can_fall():
    """Independent self-hit spins (the default `both_confused`): the defender spins even after the
    attacker hit itself, and two self-hits send both units to the Repair Bay with no battle."""
    g = game()
    state = at(g, {"a1": "r2c0", "b1": "r0c0"}, statuses={"a1": "confusion", "b1": "confusion"})
    move(state, "a1", "r1c0")
    attack(state, "a1", "b1")
    assert state.spin == (0, slot(state, "a1"))
    state.apply(GOLD)
    assert state.spin == (0, slot(state, "b1"))  # the defender still makes its own self-hit spin
    state.apply(GOLD)
    assert where(state, "a1") == "bay"
    assert where(state, "b1") == "bay"
    assert state.current_player == B


def test_both_confused_one_self_hit_cancels_the_battle():
    g = game()
    state = at(g, {"a1": "r2c0", "b1": "r0c0"}, statuses={"a1": "confusion", "b1": "confusion"})
    move(state, "a1", "r1c0")
    attack(state, "a1", "b1")
    state.apply(BLUE)  # the attacker does not hit itself
    state.apply(GOLD)  # the defender does
    assert where(state, "b1") == "bay"
    assert where(state, "a1") == "r1c0"
    assert state.current_player == B


def test_duel_protocol_sleep_passable_counts_as_miss_and_is_cured_when_attacked():
    g = game(a={"a1": unit("a1", mp=3)})
    state = at(g, {"a1": "r2c0", "b1": "r1c0", "b2": "r4c4"}, statuses={"b1": "sleep"})
    assert "r0c0" in moves_of(state, "a1")  # Standby Mode: moved past by opposing units
    move(state, "a1", "r0c0")
    attack(state, "a1", "b1")
    assert state.spin == (1, slot(state, "a1"))
    state.apply(RED)  # a Miss against a unit that counts as a Miss: a draw, no spin for the sleeper
    assert state.current_player == B
    assert state.status[slot(state, "b1")] == 0


def test_duel_protocol_sleeping_unit_moves_but_cannot_attack():
    g = game()
    state = at(g, {"a1": "r2c0", "b1": "r0c0"}, statuses={"a1": "sleep"})
    move(state, "a1", "r1c0")
    assert state.current_player == B  # no battle offered


def test_duel_protocol_frozen_cannot_move_and_is_cured_when_attacked():
    g = game()
    state = at(g, {"a1": "r2c0", "b1": "r0c0"}, statuses={"a1": "frozen"})
    assert not moves_of(state, "a1")
    move(state, "a2", "r4c0")
    move(state, "b1", "r1c0")
    attack(state, "b1", "a1")
    state.apply(BLUE)  # only the attacker spins
    assert state.status[slot(state, "a1")] == 0


def test_attacked_sleeper_spins_switch():
    g = game(rules=Rules(attacked_sleeper_spins=True))
    state = at(g, {"a1": "r3c0", "b1": "r1c0"}, statuses={"b1": "frozen"})
    move(state, "a1", "r2c0")
    attack(state, "a1", "b1")
    state.apply(RED)
    assert state.current_player == CHANCE  # cured first, the defender spins normally


# ---- statuses: chimera (spec 001 Table 2.2) ---------------------------------------------------------------


def test_chimera_poison_spins_at_end_of_turn_without_battle_and_lowers_that_segment():
    g = game("chimera")
    state = at(g, {"a1": "r2c0"}, statuses={"a1": "poison"})
    move(state, "a1", "r3c0")
    assert state.current_player == CHANCE
    assert state.spin == (3, slot(state, "a1"))
    state.apply(WHITE)
    s = slot(state, "a1")
    assert state.segmod[s][WHITE] == -20
    table = state.game.spin_table(s, 0, state.status[s], 0, 0, state.segmod[s])
    assert table.segments[WHITE].damage == 30
    assert table.segments[GOLD].damage == 40
    assert state.current_player == B


def test_chimera_poison_does_not_spin_after_a_battle():
    g = game("chimera")
    state = at(g, {"a1": "r2c0", "b1": "r0c0"}, statuses={"a1": "poison"})
    move(state, "a1", "r1c0")
    attack(state, "a1", "b1")
    state.apply(BLUE)
    state.apply(BLUE)
    assert state.current_player == B


def test_chimera_sleep_blocks_movement_wakes_by_spin_and_spins_when_attacked():
    g = game("chimera")
    state = at(g, {"a1": "r2c0", "b1": "r0c0"}, statuses={"a1": "sleep"})
    assert not moves_of(state, "a1")
    wake = Action(WAKE, slot(state, "a1"))
    assert wake in state.legal_actions()
    state.apply(wake)
    state.apply(RED)  # Malfunction: still asleep, and the turn is spent
    assert state.status[slot(state, "a1")] == g.status_codes["sleep"]
    assert state.current_player == B
    move(state, "b1", "r1c0")
    attack(state, "b1", "a1")
    state.apply(WHITE)
    assert state.current_player == CHANCE  # the sleeping defender still spins
    state.apply(BLUE)
    state2 = at(g, {"a1": "r2c0"}, statuses={"a1": "sleep"})
    state2.apply(Action(WAKE, slot(state2, "a1")))
    state2.apply(WHITE)
    assert state2.status[slot(state2, "a1")] == 0


def test_chimera_frozen_thaws_after_three_own_turns():
    g = game("chimera")
    state = at(g, {"a1": "r2c0", "a2": "r3c6", "b1": "r0c6"}, statuses={"a1": "frozen"})
    for turn in range(3):
        assert not moves_of(state, "a1"), turn
        move(state, "a2", "r2c6" if turn % 2 == 0 else "r3c6")
        move(state, "b1", "r0c5" if turn % 2 == 0 else "r0c6")
    assert state.status[slot(state, "a1")] == 0
    assert moves_of(state, "a1")


def test_chimera_burn_lowers_damage_in_battle():
    g = game("chimera")
    state = at(g, {"a1": "r2c0", "b1": "r0c0"}, statuses={"a1": "burn"})
    move(state, "a1", "r1c0")
    attack(state, "a1", "b1")
    assert state._spin_table().segments[WHITE].damage == 30


# ---- modules ----------------------------------------------------------------------------------------------


def modules_game(*mods, theme="duel-protocol", **kw):
    return game(theme, modules_a=[module(f"m{i}", effect) for i, effect in enumerate(mods)], **kw)


def test_module_damage_bonus_this_turn_only():
    g = modules_game({"kind": "damage_bonus", "amount": 30})
    state = at(g, {"a1": "r2c0", "b1": "r0c0"})
    state.apply(Action(MODULE, 0, slot(state, "a1")))
    assert not [a for a in state.legal_actions() if a.kind == MODULE]  # one module per turn
    move(state, "a1", "r1c0")
    attack(state, "a1", "b1")
    assert state._spin_table().segments[WHITE].damage == 80
    state.apply(WHITE)
    state.apply(BLUE)
    move(state, "b1", "r0c1")
    move(state, "a1", "r0c0")
    attack(state, "a1", "b1")
    assert state._spin_table().segments[WHITE].damage == 50  # the next turn: no bonus


def test_module_star_bonus():
    g = modules_game({"kind": "star_bonus", "amount": 1})
    state = at(g, {"a1": "r2c0", "b1": "r0c0"})
    state.apply(Action(MODULE, 0, slot(state, "a1")))
    move(state, "a1", "r1c0")
    attack(state, "a1", "b1")
    assert state._spin_table().segments[PURPLE].stars == 2


def test_module_swap_units_is_not_the_move():
    g = modules_game({"kind": "swap_units"})
    state = at(g, {"a1": "r2c0", "a2": "r4c4"})
    state.apply(Action(MODULE, 0, slot(state, "a1"), slot(state, "a2")))
    assert where(state, "a1") == "r4c4"
    assert where(state, "a2") == "r2c0"
    assert state.current_player == A
    assert any(a.kind == MOVE for a in state.legal_actions())


def test_module_move_through():
    g = modules_game({"kind": "move_through"}, a={"a1": unit("a1", mp=2)})
    state = at(g, {"a1": "r4c1", "a2": "r4c2"})
    assert "r4c3" not in moves_of(state, "a1")
    state.apply(Action(MODULE, 0, slot(state, "a1")))
    assert "r4c3" in moves_of(state, "a1")


def test_module_clear_status():
    g = modules_game({"kind": "clear_status"})
    state = at(g, {"a1": "r2c0"}, statuses={"a1": "frozen"})
    state.apply(Action(MODULE, 0, slot(state, "a1")))
    assert state.status[slot(state, "a1")] == 0
    assert moves_of(state, "a1")


def test_module_clear_wait():
    g = modules_game({"kind": "clear_wait"})
    state = at(g, {"a1": "hangar"}, waits={"a1": 1})
    assert not moves_of(state, "a1")
    state.apply(Action(MODULE, 0, slot(state, "a1")))
    assert moves_of(state, "a1")


def test_module_extra_mp():
    g = modules_game({"kind": "extra_mp", "amount": 1}, a={"a1": unit("a1", mp=1)})
    state = at(g, {"a1": "r2c0"})
    assert moves_of(state, "a1") == {"r1c0", "r3c0"}
    state.apply(Action(MODULE, 0))
    assert moves_of(state, "a1") == {"r1c0", "r3c0", "r0c0", "r4c0"}


# ---- the end: turn limit and repetition ---------------------------------------------------------------------


def test_turn_limit_is_a_draw_with_its_reason():
    g = game(rules=Rules(turn_limit=2))
    state = GameState.initial(g, Player.A)
    move(state, "a1", "r4c0")
    move(state, "b1", "r0c0")
    assert state.outcome() == (None, "turn_limit")  # a draw


def test_threefold_repetition_is_a_draw():
    g = game()
    state = at(g, {"a1": "r2c0", "b1": "r2c6"})
    for _ in range(2):
        move(state, "a1", "r1c0")
        move(state, "b1", "r1c6")
        move(state, "a1", "r2c0")
        move(state, "b1", "r2c6")
    assert state.outcome() == (None, "repetition")  # a draw
