"""The search's evaluation: the chance that one side wins from a turn-start position, by a logistic model
over a few features, with weights fitted on self-play outcomes (scripts/fit_weights.py writes weights.json
beside this file, naming the games, seed and fit that made it).

Every feature is read from `side`'s point of view and changes sign with the side (f(A) = -f(B)), and the
model has no intercept, so P(A wins) + P(B wins) = 1 and two search bots are mirror images. The features:
    material   the greedy evaluation's material (unit values from exact battle odds, Hangar with its Wait,
               Repair Bay, statuses, steps toward the enemy goal), in tens of points
    goal       the side to move can step onto the enemy goal this turn (+1 for us, -1 for them)
    goal_boost ... only with one of its unspent movement modules (extra MP, moving through)
    attack     the side to move's best attack (expected exchange), tens of points, signed by the mover
    surround   the best surround the side to move can complete, tens of points, signed by the mover
    race       the opponent's goal race less ours: turns each side's fastest field unit needs to reach the
               enemy goal (MP with an unspent extra-MP module; blockers ignored), each capped at RACE_CAP
    guards     our units next to our own goal less theirs
    modules    our unspent modules less theirs
    tempo      +1 when we move next, -1 when they do
    path       the goal race again, counting only paths over free nodes (blockers block; a goal held by its
               owner's unit cannot be stepped onto), the opponent's turns less ours, each capped at RACE_CAP
    entries    our units on the enemy's Entry Points less theirs on ours (a System Lockout is built there)
    held       our unit stands on our own goal (+1) less theirs on theirs
    field      our units on the field less theirs
    active     our units on the field or in the Hangar less theirs (the Repair Bay and removed ones not)
"""

from __future__ import annotations

import json
import math
from functools import cache
from pathlib import Path

from toolkit.figure.bots.evaluate import _best_attack, _best_surround, _material
from toolkit.figure.bots.knowledge import Knowledge
from toolkit.figure.engine.state import GameState
from toolkit.figure.engine.tables import HANGAR, bits

FEATURES = ("material", "goal", "goal_boost", "attack", "surround", "race", "guards", "modules", "tempo", "path",
            "entries", "held", "field", "active")
RACE_CAP = 6
WEIGHTS_FILE = Path(__file__).with_name("weights.json")
MOVE_MODULES = ("extra_mp", "move_through")


@cache
def weights() -> tuple[float, ...]:
    """The shipped weights, in FEATURES order (a missing or damaged file is a packaging bug: it raises)."""
    data = json.loads(WEIGHTS_FILE.read_text(encoding="utf-8"))
    named = data["weights"]
    return tuple(float(named[name]) for name in FEATURES)


def win_probability(state: GameState, side: int, know: Knowledge, model: tuple[float, ...] | None = None) -> float:
    """P(`side` wins) from here: 1 or 0 (0.5 for a draw) once the game is over, else the logistic model."""
    if state.is_terminal():
        outcome = state.outcome()
        if outcome is None or outcome.winner is None:
            return 0.5
        return 1.0 if outcome.winner.seat == side else 0.0
    w = model if model is not None else weights()
    z = sum(a * b for a, b in zip(w, features(state, side, know), strict=True))
    z = max(-30.0, min(30.0, z))
    return 1.0 / (1.0 + math.exp(-z))


def features(state: GameState, side: int, know: Knowledge) -> tuple[float, ...]:
    """The FEATURES of a position (best read at the start of a turn), from `side`'s point of view."""
    game = state.game
    material = _material(state, know)
    mover = state.player
    sign = 1.0 if mover == side else -1.0
    reaches = state.turn_moves().reaches
    anywhere = 0
    for reach in reaches:
        anywhere |= reach.nodes
    goal = 1.0 if anywhere and anywhere >> game.goals[1 - mover] & 1 else 0.0
    attack = surround = boost = 0.0
    if not goal:
        if anywhere:
            attack = _best_attack(state, reaches, mover, know) / 10.0
            surround = _best_surround(state, reaches, mover, know) / 10.0
        boost = 1.0 if _race(state, mover, know, boosted=True) <= 1 and _has_move_module(state, mover) else 0.0
    race = [min(_race(state, s, know, boosted=True), RACE_CAP) for s in (0, 1)]
    guards = [_guards(state, s) for s in (0, 1)]
    modules = [_modules_left(state, s) for s in (0, 1)]
    other = 1 - side
    path = [min(_path_race(state, s), RACE_CAP) for s in (0, 1)]
    entries = [_on_entries(state, s) for s in (0, 1)]
    fielded = [bin(state.masks[s]).count("1") for s in (0, 1)]
    active = [sum(1 for slot in state.units_of(s) if state.pos[slot] >= 0 or state.pos[slot] == HANGAR) for s in (0, 1)]
    held = [float(state.occ[game.goals[s]] >= 0 and state.occ[game.goals[s]] in state.units_of(s)) for s in (0, 1)]
    return ((material[side] - material[other]) / 10.0, sign * goal, sign * boost, sign * attack, sign * surround,
            float(race[other] - race[side]), float(guards[side] - guards[other]),
            float(modules[side] - modules[other]), sign, float(path[other] - path[side]),
            float(entries[side] - entries[other]), held[side] - held[other],
            float(fielded[side] - fielded[other]), float(active[side] - active[other]))


def _has_move_module(state: GameState, side: int) -> bool:
    kinds = state.game.module_kinds[side]
    used = state.used[side]
    return any(kind in MOVE_MODULES and not used >> i & 1 for i, kind in enumerate(kinds))


def _bonus(state: GameState, side: int) -> int:
    """The extra MP an unspent extra-MP module gives (the largest), 0 without one."""
    best = 0
    used = state.used[side]
    for i, module in enumerate(state.game.modules[side]):
        if module.effect.kind == "extra_mp" and not used >> i & 1:
            best = max(best, int(getattr(module.effect, "amount", 1)))
    return best


def _race(state: GameState, side: int, know: Knowledge, boosted: bool) -> int:
    """Turns the side's fastest field unit needs to reach the enemy goal (RACE_CAP + 1: none can move)."""
    game = state.game
    goal = game.goals[1 - side]
    bonus = _bonus(state, side) if boosted else 0
    best = RACE_CAP + 1
    for slot in state.units_of(side):
        where = state.pos[slot]
        if where < 0:
            continue
        mp = game.mp[slot][state.form[slot]]
        if mp <= 0:
            continue
        steps = know.dist[where][goal]
        turns = 1 if steps <= mp + bonus else 1 + math.ceil((steps - mp - bonus) / mp)
        best = min(best, turns)
    return best


def _path_race(state: GameState, side: int) -> int:
    """Turns the side's fastest field unit needs to reach the enemy goal over free nodes only (RACE_CAP + 1:
    no free path, or the goal is held): a breadth-first search out from the goal through empty nodes."""
    game = state.game
    goal = game.goals[1 - side]
    if state.occ[goal] >= 0:
        return RACE_CAP + 1
    occupied = state.masks[0] | state.masks[1]
    mine = state.masks[side]
    bonus = _bonus(state, side)
    best = RACE_CAP + 1
    seen = frontier = 1 << goal
    steps = 0
    while frontier and steps < 12:
        steps += 1
        ring = game.halo(frontier) & ~seen
        seen |= ring
        for node in bits(ring & mine):
            slot = state.occ[node]
            mp = game.mp[slot][state.form[slot]]
            if mp > 0:
                best = min(best, 1 if steps <= mp + bonus else 1 + math.ceil((steps - mp - bonus) / mp))
        frontier = ring & ~occupied
    return best


def _on_entries(state: GameState, side: int) -> int:
    """The side's units standing on the enemy's Entry Points."""
    mine = state.masks[side]
    return sum(1 for node in state.game.entries[1 - side] if mine >> node & 1)


def _guards(state: GameState, side: int) -> int:
    """The side's units on or next to its own goal."""
    game = state.game
    goal = game.goals[side]
    around = game.nbr_mask[goal] | 1 << goal
    return bin(state.masks[side] & around).count("1")


def _modules_left(state: GameState, side: int) -> int:
    return len(state.game.modules[side]) - bin(state.used[side]).count("1")
