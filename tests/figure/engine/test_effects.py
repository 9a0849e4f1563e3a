"""Effects as data: Purple board effects and structured subroutines, executed by the engine."""

from __future__ import annotations

from tests.figure.engine.kit import PURPLE, WHITE, at, disk, game, node, slot, unit, where
from toolkit.figure.database import find_datasets, load_database
from toolkit.figure.engine import Action
from toolkit.figure.engine.actions import ATTACK, CHOOSE, MOVE, PASS, SUBROUTINE
from toolkit.figure.simulated import unsimulated_texts


def purple(effect: dict, **kw) -> list[dict]:
    segments = disk(**kw)
    segments[PURPLE] = {**segments[PURPLE], "board_effect": effect}
    return segments


def win_with_purple(state, attacker="a1", defender="b1", to="r1c0"):
    state.apply(Action(MOVE, slot(state, attacker), node(state, to)))
    state.apply(Action(ATTACK, slot(state, attacker), slot(state, defender)))
    state.apply(PURPLE)
    state.apply(WHITE)  # Purple beats White


def choices(state) -> set[tuple[str, str]]:
    return {(state.game.slots[a.unit].label, state.game.node_names[a.target])
            for a in state.legal_actions() if a.kind == CHOOSE}


def test_push_opponent_to_a_free_adjacent_point_chosen_by_the_winner():
    g = game(a={"a1": unit("a1", disk=purple({"kind": "push_opponent"}))})
    state = at(g, {"a1": "r2c0", "b1": "r0c0", "b2": "r0c1"})
    win_with_purple(state)
    assert state.current_player == 0
    assert choices(state) == {("B:b1", "i0c0")}  # r0c1 is taken, r1c0 holds the winner
    state.apply(Action(CHOOSE, slot(state, "b1"), node(state, "i0c0")))
    assert where(state, "b1") == "i0c0"
    assert state.current_player == 1


def test_an_immovable_unit_is_not_pushed():
    anchor = unit("b1", subroutine={"name": "Anchor", "text": "Cannot be moved.", "effect": {"kind": "immovable"}})
    g = game(a={"a1": unit("a1", disk=purple({"kind": "push_opponent"}))}, b={"b1": anchor})
    state = at(g, {"a1": "r2c0", "b1": "r0c0"})
    win_with_purple(state)
    assert where(state, "b1") == "r0c0"
    assert state.current_player == 1


def test_push_any_adjacent_enemy():
    g = game(a={"a1": unit("a1", disk=purple({"kind": "push_opponent", "any_adjacent": True}))})
    state = at(g, {"a1": "r4c1", "b1": "r3c0", "b2": "i2c0"})
    win_with_purple(state, to="r4c0")
    assert choices(state) == {("B:b1", "r2c0"), ("B:b2", "i1c0"), ("B:b2", "i2c1")}


def test_move_self_exactly_two_steps():
    g = game(a={"a1": unit("a1", disk=purple({"kind": "move_self", "steps": 2, "exact": True}))})
    state = at(g, {"a1": "r2c0", "b1": "r0c0"})
    win_with_purple(state)
    assert choices(state) == {("A:a1", "r3c0")}  # r2c0 (1 step back) is nearer; r0c0 beyond b1 is blocked


def test_move_self_beside_the_opponent():
    g = game(a={"a1": unit("a1", disk=purple({"kind": "move_self", "beside_opponent": True}))})
    state = at(g, {"a1": "r2c0", "b1": "r0c0"})
    win_with_purple(state)
    assert choices(state) == {("A:a1", "r0c1"), ("A:a1", "i0c0")}


def test_swap_with_the_battle_opponent():
    g = game(a={"a1": unit("a1", disk=purple({"kind": "swap_with_opponent"}))})
    state = at(g, {"a1": "r2c0", "b1": "r0c0"})
    win_with_purple(state)
    assert where(state, "a1") == "r0c0"
    assert where(state, "b1") == "r1c0"
    assert state.current_player == 1


def test_move_ally_of_a_type_is_optional():
    arc = purple({"kind": "move_ally", "steps": 2, "types": ["volt"]})
    g = game(a={"a1": unit("a1", disk=arc), "a2": unit("a2", types=["volt"]), "a3": unit("a3", types=["aqua"])})
    state = at(g, {"a1": "r2c0", "a2": "r4c4", "a3": "r4c6", "b1": "r0c0"})
    win_with_purple(state)
    assert state.legal_actions()[0] == Action(PASS)
    assert {label for label, _ in choices(state)} == {"A:a2"}
    assert ("A:a2", "i2c2") in choices(state)
    assert ("A:a2", "i1c2") not in choices(state)  # 3 steps away


def test_type_damage_aura_for_own_units_on_the_field():
    conductor = unit("a2", types=["hydro"], subroutine={
        "name": "Song", "text": "Hydro +20.",
        "effect": {"kind": "type_damage_bonus", "types": ["hydro"], "amount": 20}})
    g = game(a={"a1": unit("a1", types=["hydro"]), "a2": conductor, "a3": unit("a3", types=["pyro"])})
    state = at(g, {"a1": "r2c0", "a2": "r4c4", "b1": "r0c0"})
    state.apply(Action(MOVE, slot(state, "a1"), node(state, "r1c0")))
    state.apply(Action(ATTACK, slot(state, "a1"), slot(state, "b1")))
    assert state._spin_table().segments[WHITE].damage == 70
    off_field = at(g, {"a1": "r2c0", "b1": "r0c0"})  # the conductor in the Hangar: no bonus
    off_field.apply(Action(MOVE, slot(off_field, "a1"), node(off_field, "r1c0")))
    off_field.apply(Action(ATTACK, slot(off_field, "a1"), slot(off_field, "b1")))
    assert off_field._spin_table().segments[WHITE].damage == 50


def test_type_damage_aura_others_only_and_stronger_when_adjacent():
    pylon = unit("a2", types=["volt"], subroutine={
        "name": "Grid", "text": "Volt +10, +30 adjacent.",
        "effect": {"kind": "type_damage_bonus", "types": ["volt"], "amount": 10, "adjacent_amount": 30,
                   "others_only": True}})
    g = game(a={"a1": unit("a1", types=["volt"]), "a2": pylon, "a3": unit("a3", types=["volt"])})
    state = at(g, {"a1": "r2c0", "a2": "r0c1", "a3": "r0c2", "b1": "r0c0"})
    b1 = slot(state, "b1")
    assert state._subroutine_damage(slot(state, "a1")) == 10  # on the field, not adjacent
    assert state._subroutine_damage(slot(state, "a3")) == 30  # adjacent to the pylon
    assert state._subroutine_damage(slot(state, "a2")) == 0  # "other" units only
    state.apply(Action(MOVE, slot(state, "a1"), node(state, "r1c0")))
    state.apply(Action(ATTACK, slot(state, "a1"), b1))
    assert state._spin_table().segments[WHITE].damage == 60


def test_clear_adjacent_status_once_per_duel_ends_the_turn():
    medic = unit("a2", subroutine={"name": "Uplink", "text": "Clear an adjacent ally's status.",
                                   "effect": {"kind": "clear_adjacent_status", "ends_turn": True}})
    g = game(a={"a2": medic})
    state = at(g, {"a1": "r2c0", "a2": "r3c0", "b1": "r0c6"}, statuses={"a1": "frozen"})
    use = Action(SUBROUTINE, slot(state, "a2"), slot(state, "a1"))
    assert use in state.legal_actions()
    state.apply(use)
    assert state.status[slot(state, "a1")] == 0
    assert state.current_player == 1
    state.apply(Action(MOVE, slot(state, "b1"), node(state, "r0c5")))
    assert not [a for a in state.legal_actions() if a.kind == SUBROUTINE]


def test_clear_hangar_wait_does_not_end_the_turn():
    repair = unit("a2", subroutine={"name": "Field Repair", "text": "Clear a Hangar unit's Wait.",
                                    "effect": {"kind": "clear_hangar_wait", "ends_turn": False}})
    g = game(a={"a2": repair})
    state = at(g, {"a2": "r3c0", "a1": "hangar"}, waits={"a1": 1})
    state.apply(Action(SUBROUTINE, slot(state, "a2"), slot(state, "a1")))
    assert state.current_player == 0
    assert Action(MOVE, slot(state, "a1"), node(state, "r4c0")) in state.legal_actions()


def test_bundled_units_not_simulated_are_exactly_these():
    missing = {}
    for dataset in find_datasets(None)[0]:
        database = load_database(dataset)
        for uid, entry in database.units.items():
            for _, what in unsimulated_texts(entry.value):
                missing.setdefault(dataset.theme_id, []).append(f"{uid}: {what}")
        assert all(p.code != "N001" or p.severity.value == "warning" for p in database.problems)
    assert missing == {
        "chimera": ["s-trm: subroutine 'Seismic Anchor'", "t-hvk: subroutine 'Miasma Vents'",
                    "x-chm: subroutine 'Adaptive Core'"],
        "duel-protocol": ["m-490: the effect of 'Conductor's Song'", "x-11: subroutine 'Toxic Feedback'",
                          "z-0: subroutine 'Overclock Core'"],
    }


def test_odds_count_a_units_own_damage_aura():
    from toolkit.figure.battle import setup_battle

    database = next(load_database(ds) for ds in find_datasets(None)[0] if ds.theme_id == "duel-protocol")
    setup = setup_battle(database, "m-490", "sq-7", module_id="x-attack")
    assert setup.attacker_side.damage_bonus == 50  # Conductor's Song (+20, M-490 is Hydro) and X Attack (+30)
    assert setup_battle(database, "sq-7", "m-490").defender_side.damage_bonus == 20
