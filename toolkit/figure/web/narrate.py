"""The board game in words for the browser: a battle's exact odds before it is fought (walked through the
engine itself, so every status, module and subroutine counts), and each step as `duelkit play` tells it.

Pure: states in, words and fractions out. Names from data files are returned raw; the view escapes them.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from toolkit.figure.engine import Action, GameState
from toolkit.figure.engine.core import CHOICE_PHASE, PASS_ACTION, RESPIN_PHASE, SPIN, SPIN_BATTLE, SPIN_CONFUSION
from toolkit.figure.engine.narrate import Narrator
from toolkit.figure.engine.render_text import describe_action, tag
from toolkit.players import PLAYERS

MAX_ODDS_NODES = 20_000  # a battle has at most two self-hit spins and two battle spins: far fewer in practice


@dataclass(frozen=True)
class BattleOdds:
    """Each way the battle can end, with its exact chance, most likely first."""

    outcomes: tuple[tuple[str, Fraction], ...]
    note: str = ""


def unit_label(state: GameState, slot: int) -> str:
    """A1 and the unit's name, as tokens and the log show it."""
    return f"{tag(slot)} {state.form_of(slot).unit.name}"


def battle_odds(state: GameState, attack: Action) -> BattleOdds:
    """Every chance outcome of the battle `attack` starts, walked through a copy of the engine (a re-spin
    offer is counted as declined: the holder decides that after seeing both spins)."""
    attacker, defender = attack.unit, attack.target
    start = state.clone()
    start.apply(attack)
    totals: dict[str, Fraction] = {}
    respin = False
    stack: list[tuple[GameState, Fraction]] = [(start, Fraction(1))]
    visited = 0
    while stack:
        node, chance = stack.pop()
        visited += 1
        if visited > MAX_ODDS_NODES:
            return BattleOdds((), "too many outcomes to list")
        if node.phase == SPIN and node.spin is not None and node.spin[0] in (SPIN_CONFUSION, SPIN_BATTLE):
            for outcome, probability in node.chance_outcomes():
                child = node.clone()
                child.apply(outcome)
                stack.append((child, chance * probability))
            continue
        if node.phase == RESPIN_PHASE:
            respin = True
            child = node.clone()
            child.apply(PASS_ACTION)
            stack.append((child, chance))
            continue
        label = _battle_result(state, node, attacker, defender)
        totals[label] = totals.get(label, Fraction(0)) + chance
    ranked = tuple(sorted(totals.items(), key=lambda item: (-item[1], item[0])))
    return BattleOdds(ranked, "a re-spin module may change these after both spins" if respin else "")


def _battle_result(before: GameState, after: GameState, attacker: int, defender: int) -> str:
    """How a battle ended, in words, from what it changed."""
    terms = before.game.theme.terms
    out = [slot for slot in (attacker, defender) if before.pos[slot] >= 0 and after.pos[slot] < 0]
    if len(out) == 2:
        return f"both {terms.deactivated.lower()}"
    if out:
        winner = defender if out[0] == attacker else attacker
        return f"{tag(winner)} wins: {tag(out[0])} {terms.deactivated.lower()}"
    if after.phase == CHOICE_PHASE or any(before.pos[s] != after.pos[s] for s in (attacker, defender)):
        return "a Purple move places a unit"
    for slot in (defender, attacker):
        if after.status[slot] and after.status[slot] != before.status[slot]:
            rule = after.status_rule(slot)
            name = before.game.theme.statuses.get(rule.id, rule.id) if rule else "a status"
            return f"{tag(slot)} gets {name}"
    return "no knockout, no effect"


def log_entry(narrator: Narrator, before: GameState, step: Action | int,
              after: GameState) -> tuple[str, str, list[str]]:
    """Who, what and what it changed, in the words `duelkit play` prints (the engine's `Narrator`): a spin is its
    segment and every bonus behind its value, then the battle's result and what the step changed."""
    lines = [line.strip() for line in narrator.step(before, step, after)]
    if isinstance(step, Action):
        return PLAYERS[before.current_player].value, describe_action(before, step), lines
    return "spin", lines[0].removeprefix("spin ") if lines else "", lines[1:]
