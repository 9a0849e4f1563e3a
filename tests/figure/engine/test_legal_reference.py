"""Differential check: the engine's legal actions against a plain reference computed from the rules.

The engine answers moves from per-game caches keyed by a unit's neighbourhood and module actions from
per-game tables; the reference below recomputes every decision of thousands of random positions with
networkx searches and plain loops, so a stale or leaking cache shows up as a different list.
"""

from __future__ import annotations

import itertools
import random

import networkx as nx
import pytest

from toolkit.figure.constants import DEPLOY_COST_MP, FIRST_TURN_MP_PENALTY, SQUAD_UNITS
from toolkit.figure.database import find_datasets, load_database
from toolkit.figure.engine import CHANCE, Action, Rules, build_game, effects
from toolkit.figure.engine.actions import ATTACK, MODULE, MOVE, PASS, SUBROUTINE, WAKE
from toolkit.figure.engine.play import random_bot, sample_outcome
from toolkit.figure.engine.state import BATTLE, MOVE_PHASE, START, SUB, GameState
from toolkit.figure.engine.tables import HANGAR
from toolkit.players import PLAYERS

SQUADS = {"duel-protocol": ("hydro-conductor", "malfunction-cascade"), "chimera": ("attrition-lock", "grid-surge")}
# the rulings that change what a unit may pass or when a turn's decisions are asked
RULES = [Rules(), Rules(sleeper_passable="always", wait_counts="all_turns"),
         Rules(sleeper_passable="never", lockout="off", surround_after="move_only", min_mp=2),
         Rules(min_mp=1, goal_capture_by="own_move")]


@pytest.fixture(scope="module")
def databases():
    return {ds.theme_id: load_database(ds) for ds in find_datasets(None)[0]}


def reachable(graph: nx.Graph, start: int, steps: int, passable: set[int]) -> set[int]:
    """Nodes at most `steps` steps from `start` along a path whose every node in between is passable."""
    if steps <= 0:
        return set()
    inner = graph.subgraph(passable | {start})
    within = nx.single_source_shortest_path_length(inner, start, cutoff=steps - 1)
    return {n for m in within for n in graph[m]} - {start}


def reference_moves(state: GameState, graph: nx.Graph) -> list[Action]:
    game, side = state.game, state.player
    rules = game.rules
    free = {n for n, occupant in enumerate(state.occ) if occupant < 0}
    passable = free | {state.pos[s] for s in range(len(state.pos))
                       if s // SQUAD_UNITS != side and state.pos[s] >= 0
                       and effects.passable_by_enemy(game.status_rules[state.status[s]], rules.sleeper_passable)}
    actions = []
    for s in range(side * SQUAD_UNITS, (side + 1) * SQUAD_UNITS):
        mp = game.slots[s].forms[state.form[s]].unit.mp + state.tfx[5]  # tfx[5]: an extra-MP module's bonus
        mp = max(rules.min_mp, mp - (FIRST_TURN_MP_PENALTY if state.turn == 0 else 0))
        where = state.pos[s]
        rule = game.status_rules[state.status[s]]
        if where >= 0:
            if effects.wakes_by_spin(rule):
                actions.append(Action(WAKE, s))
            if not effects.can_be_selected_to_move(rule):
                continue
            through = set(graph) if state.tfx[4] == s else passable  # a move-through module on this unit
            targets = reachable(graph, where, mp, through) & free
        elif where == HANGAR and state.wait[s] == 0 and mp >= DEPLOY_COST_MP:
            targets = set()
            for entry in game.entries[side]:
                if entry in free:
                    targets |= {entry} | reachable(graph, entry, mp - DEPLOY_COST_MP, passable)
            targets &= free
        else:
            continue
        actions += [Action(MOVE, s, n) for n in targets]
    return actions


def reference_modules(state: GameState) -> list[Action]:
    side = state.player
    units = range(side * SQUAD_UNITS, (side + 1) * SQUAD_UNITS)
    field = [s for s in units if state.pos[s] >= 0]
    movable = [s for s in field if effects.can_be_selected_to_move(state.game.status_rules[state.status[s]])]
    actions = []
    for index, module in enumerate(state.game.modules[side]):
        if state.used[side] >> index & 1:
            continue
        kind = module.effect.kind
        if kind in ("damage_bonus", "star_bonus", "move_through"):
            actions += [Action(MODULE, index, s) for s in field]
        elif kind == "clear_status":
            actions += [Action(MODULE, index, s) for s in field if state.status[s]]
        elif kind == "clear_wait":
            actions += [Action(MODULE, index, s) for s in units if state.pos[s] == HANGAR and state.wait[s] > 0]
        elif kind == "swap_units":
            actions += [Action(MODULE, index, a, b) for a, b in itertools.combinations(movable, 2)]
        elif kind in ("extra_mp", "respin"):
            actions.append(Action(MODULE, index))
    return actions


def reference_subroutines(state: GameState, graph: nx.Graph) -> list[Action]:
    side = state.player
    units = range(side * SQUAD_UNITS, (side + 1) * SQUAD_UNITS)
    actions = []
    for s in units:
        sub = state.game.slots[s].forms[state.form[s]].sub
        if sub is None or state.pos[s] < 0 or state.subs >> s & 1:
            continue
        if sub.kind == "clear_adjacent_status":
            near = set(graph[state.pos[s]])
            actions += [Action(SUBROUTINE, s, t) for t in units if state.pos[t] in near and state.status[t]]
        elif sub.kind == "clear_hangar_wait":
            actions += [Action(SUBROUTINE, s, t) for t in units if state.pos[t] == HANGAR and state.wait[t] > 0]
    return actions


def reference_decisions(state: GameState, graph: nx.Graph) -> list[Action] | None:
    """The sorted legal actions of a turn's decision or a battle offer; None for the other phases."""
    if state.phase == BATTLE:
        moved = state.moved
        side = moved // SQUAD_UNITS
        enemies = [state.occ[n] for n in graph[state.pos[moved]] if state.occ[n] >= 0]
        return [*sorted(Action(ATTACK, moved, e) for e in enemies if e // SQUAD_UNITS != side), Action(PASS)]
    if state.phase not in (START, SUB, MOVE_PHASE):
        return None
    actions = reference_modules(state) if state.phase == START else []
    if state.phase in (START, SUB):
        actions += reference_subroutines(state, graph)
    moves = reference_moves(state, graph)
    return sorted(actions + moves + ([] if moves else [Action(PASS)]))


def surrounded_units(state: GameState, graph: nx.Graph) -> list[int]:
    """Units on the board whose every neighbour holds an opposing unit (the reference's reading)."""
    return [s for s, where in enumerate(state.pos) if where >= 0
            and all(state.occ[n] >= 0 and state.occ[n] // SQUAD_UNITS != s // SQUAD_UNITS for n in graph[where])]


def test_legal_actions_match_a_plain_reference_in_random_games(databases):
    checked = 0
    for theme, (a, b) in SQUADS.items():
        for number, (squads, rules) in enumerate(itertools.product([(a, b), (b, a), (a, a), (b, b)], RULES)):
            game = build_game(*squads, databases[theme], rules)
            graph = nx.Graph()
            graph.add_nodes_from(range(len(game.node_names)))
            graph.add_edges_from((n, m) for n, near in enumerate(game.adj) for m in near)
            for seed in range(2):
                rng = random.Random(number * 10 + seed)
                state = GameState.initial(game, PLAYERS[seed])
                while not state.is_terminal():
                    if state.current_player == CHANCE:
                        state.apply(sample_outcome(state, rng))
                        continue
                    expected = reference_decisions(state, graph)
                    if expected is not None:
                        assert state.legal_actions() == expected, (theme, squads, rules, seed, state.turn)
                        checked += 1
                    state.apply(random_bot(state, rng))
                    # a move looks for surrounds only next to where it went, which needs every surrounded
                    # unit gone before it (or the state marked as possibly holding one)
                    assert state._loose or not surrounded_units(state, graph), (theme, squads, rules, seed)
    assert checked > 5000  # many positions, every phase of a turn's decision among them
