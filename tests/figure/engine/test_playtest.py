"""`duelkit play` as a playtest (issue 21 item 4): every player accepted, spins with their 1-96 number, battle
results and board changes in words, the bonus behind a number, nodes named as the printed board names them,
long option lists grouped by unit."""

from __future__ import annotations

import io
import random
import sys

from tests.figure.engine.kit import PURPLE, RED, WHITE, at, disk, game, node, slot, unit
from toolkit.cli import main
from toolkit.cli.play import option_lines
from toolkit.figure.engine import Action, GameState
from toolkit.figure.engine.actions import ATTACK, CHOOSE, MOVE
from toolkit.figure.engine.narrate import Narrator
from toolkit.figure.engine.play import spin_with_number
from toolkit.figure.engine.render_text import node_label, render_grid
from toolkit.figure.session import options
from toolkit.players import Player


def told(narrator: Narrator, state: GameState, step: Action | int, number: int | None = None) -> list[str]:
    before = state.clone()
    state.apply(step)
    return narrator.step(before, step, state, number)


def test_play_accepts_every_bot(monkeypatch, capsys):
    for players in ("human,greedy", "search:2,human", "human,search:5ms"):
        monkeypatch.setattr(sys, "stdin", io.StringIO("q\n"))
        code = main(["play", "attrition-lock", "grid-surge", "--players", players, "--seed", "1", "--first", "A"])
        captured = capsys.readouterr()
        assert code == 1, captured.err
        assert "stopped by the player" in captured.err
    assert "(A, you)" in captured.out
    assert "(B, search:5ms)" in captured.out
    assert main(["play", "attrition-lock", "grid-surge", "--players", "greedy,greedy", "--seed", "2"]) == 0
    assert " by " in capsys.readouterr().out.splitlines()[-1]  # 'A wins by ...' or 'draw by ...'
    assert main(["play", "attrition-lock", "grid-surge", "--players", "human,robot"]) == 2
    err = capsys.readouterr().err
    assert "human, random, greedy, search, search:N" in err


def test_a_spin_number_lies_in_the_printed_range_of_its_segment():
    state = at(game(), {"a1": "r2c0", "b1": "r0c0"})
    state.apply(Action(MOVE, slot(state, "a1"), node(state, "r1c0")))
    state.apply(Action(ATTACK, slot(state, "a1"), slot(state, "b1")))
    ranges = {WHITE: (1, 24), 1: (25, 48), PURPLE: (49, 72), 3: (73, 84), RED: (85, 96)}  # the test disk, in order
    rng = random.Random(5)
    seen = set()
    for _ in range(300):
        outcome, number = spin_with_number(state, rng)
        low, high = ranges[outcome]
        assert low <= number <= high
        seen.add(outcome)
    assert seen == set(ranges)


def test_a_battle_is_told_with_numbers_bonuses_and_its_result():
    aura = {"name": "Hydro Boost", "text": "Your Hydro units deal +20.",
            "effect": {"kind": "type_damage_bonus", "types": ["hydro"], "amount": 20}}
    g = game(a={"a1": unit("a1", types=["hydro"], subroutine=aura), "a2": unit("a2", types=["hydro"])})
    state = at(g, {"a1": "r4c4", "a2": "r2c0", "b1": "r0c0"})
    narrator = Narrator()
    told(narrator, state, Action(MOVE, slot(state, "a2"), node(state, "r1c0")))
    told(narrator, state, Action(ATTACK, slot(state, "a2"), slot(state, "b1")))
    first = told(narrator, state, WHITE, 7)
    assert first == ["  spin 7 (A2 a2, battle): Strike, Attack 70 (printed 50, +20 Hydro Boost aura)"]
    lines = told(narrator, state, RED, 90)
    assert lines[0] == "  spin 90 (B1 b1, battle): Miss, Miss"
    assert lines[1] == "  battle: A2's Strike beats B1's Miss: a knockout"
    assert lines[2] == "  B1 b1 is Deactivated: to the Repair Bay"


def test_a_purple_push_and_where_the_unit_went_are_told():
    segments = disk()
    segments[PURPLE] = {**segments[PURPLE], "effect": "Push the opponent one point.",
                        "board_effect": {"kind": "push_opponent"}}
    g = game(a={"a1": unit("a1", disk=segments)})
    state = at(g, {"a1": "r2c0", "b1": "r0c0"})
    narrator = Narrator()
    told(narrator, state, Action(MOVE, slot(state, "a1"), node(state, "r1c0")))
    told(narrator, state, Action(ATTACK, slot(state, "a1"), slot(state, "b1")))
    told(narrator, state, PURPLE, 50)
    lines = told(narrator, state, WHITE, 3)
    assert lines[-1] == "  battle: A1's Hex beats B1's Strike: the Purple effect applies: Push the opponent one point."
    assert told(narrator, state, Action(CHOOSE, slot(state, "b1"), node(state, "r0c1"))) == [
        "  B1 b1 goes from Entry Point B (r0c0) to r0c1"]


def test_a_confusion_self_hit_is_told():
    state = at(game(), {"a1": "r2c0", "b1": "r0c0"}, statuses={"a1": "confusion"})
    narrator = Narrator()
    told(narrator, state, Action(MOVE, slot(state, "a1"), node(state, "r1c0")))
    told(narrator, state, Action(ATTACK, slot(state, "a1"), slot(state, "b1")))
    lines = told(narrator, state, WHITE, 12)
    assert lines[0] == ("  spin 12 (A1 a1, confusion check): Strike, Attack 50: A1 is confused and hits itself; "
                        "the battle is cancelled")
    assert "  A1 a1 is Deactivated: to the Repair Bay" in lines
    assert not [line for line in lines if line.startswith("  battle:")]


def test_nodes_are_named_as_the_printed_board_and_the_grid_shows_the_coordinates():
    g = game()
    # the names printed beside the board's points (tests/figure/test_manual_teach.py checks the board prints them)
    assert node_label(g, g.node_index["r4c0"]) == "Entry Point A (r4c0)"
    assert node_label(g, g.node_index["r0c3"]) == "Goal Point B (r0c3)"
    assert node_label(g, g.node_index["i2c0"]) == "i2c0"
    # the terminal board prints those same names (a unit's tag where one stands), and says which are marked
    state = GameState.initial(g, Player.A)
    grid = render_grid(state)
    assert grid[0].replace("-", " ").split() == ["r0c0", "r0c1", "r0c2", "r0c3", "r0c4", "r0c5", "r0c6"]
    assert grid[4].split() == ["r2c0", "i1c0", "i1c2", "r2c6"]
    assert "Goal Point B: r0c3" in grid[-1]
    assert "Entry Point A: r4c0 r4c6" in grid[-1]
    deploy = next(a for a in state.legal_actions() if a.kind == MOVE and a.target == g.node_index["r4c0"])
    state.apply(deploy)
    assert render_grid(state)[8].replace("-", " ").split()[0] == "A1"


def test_long_option_lists_are_grouped_by_unit():
    state = GameState.initial(game(), Player.A)
    listed = options(state, state.decisions())
    assert len(listed) >= 12
    assert sorted(action for _, _, action in listed) == state.decisions()  # every action, once
    groups = list(dict.fromkeys(group for group, _, _ in listed))
    assert groups[0] == "A1 a1 (2 MP) in the Hangar: deploy to"
    assert len(groups) == 6
    labels = [label for group, label, _ in listed if group == groups[0]]
    assert labels == ["Entry Point A (r4c0)", "Entry Point A (r4c6)"]
    shown = option_lines([(group, label) for group, label, _ in listed])
    assert shown[0] == "  A1 a1 (2 MP) in the Hangar: deploy to"
    assert shown[1].split() == ["1.", "Entry", "Point", "A", "(r4c0)", "2.", "Entry", "Point", "A", "(r4c6)"]
