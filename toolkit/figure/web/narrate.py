"""The board game in words for the browser: a battle's exact odds before it is fought (walked through the
engine itself, so every status, module and subroutine counts), and what each step changed.

Pure: states in, words and fractions out. Names from data files are returned raw; the view escapes them.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from toolkit.figure.engine import CHANCE, Action, GameState
from toolkit.figure.engine.core import CHOICE_PHASE, PASS_ACTION, RESPIN_PHASE, SPIN, SPIN_BATTLE, SPIN_CONFUSION
from toolkit.figure.engine.render_text import describe_outcome, tag
from toolkit.figure.engine.tables import BAY, HANGAR, REMOVED
from toolkit.figure.rules.combat import Outcome, resolve

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


def spin_text(state: GameState, outcome: int) -> str:
    """What a chance outcome was: whose disk, the segment and its value (the state is the one before)."""
    reason, slot = state.spin  # type: ignore[misc]
    segment = state._spin_table().segments[outcome]
    value = f" {segment.damage}" if segment.damage is not None else (
        f" {'★' * segment.stars}" if segment.stars else "")
    color = state.game.theme.colors[segment.color]
    why = {SPIN_BATTLE: "battle", SPIN_CONFUSION: "self-hit check"}.get(reason, "spin")
    return f"{unit_label(state, slot)} spins ({why}): {segment.move} ({color}{value})"


def step_result(before: GameState, step: Action | int, after: GameState) -> list[str]:
    """What a step changed, in words: the battle's winner after its last spin, units Deactivated, sent to the
    Hangar, placed, upgraded, statuses, and the end of the game."""
    lines: list[str] = []
    battle_spin = before.current_player == CHANCE and before.spin is not None and before.spin[0] == SPIN_BATTLE
    if before.battle is not None and after.battle is None and (battle_spin or before.phase == RESPIN_PHASE):
        lines.append(_battle_words(before, step if battle_spin and isinstance(step, int) else None))
    game = before.game
    terms = game.theme.terms
    for slot in range(len(game.slots)):
        was, now = before.pos[slot], after.pos[slot]
        name = unit_label(after, slot)
        if was != now:
            if now == BAY:
                lines.append(f"{name} is {terms.deactivated.lower()} ({terms.repair_bay})")
            elif now == REMOVED:
                lines.append(f"{name} is removed from the duel")
            elif now == HANGAR and was == BAY:
                lines.append(f"{name} leaves the {terms.repair_bay} for the {terms.hangar} "
                             f"({terms.wait} {after.wait[slot]})")
            elif now >= 0 and was >= 0 and not (isinstance(step, Action) and step.unit == slot):
                lines.append(f"{name} is placed on {game.node_names[now]}")
        if after.form[slot] > before.form[slot]:
            lines.append(f"{unit_label(before, slot)} upgrades to {after.form_of(slot).unit.name}")
        if after.status[slot] != before.status[slot] and now >= 0:
            rule = after.status_rule(slot)
            lines.append(f"{name}: {game.theme.statuses.get(rule.id, rule.id)}" if rule
                         else f"{name} recovers from its {terms.status.lower()}")
    if after.is_terminal() and not before.is_terminal():
        lines.append(describe_outcome(after))
    return lines


def _battle_words(before: GameState, outcome: int | None) -> str:
    """The battle's last spin has landed (`outcome`, or None when a re-spin was declined): who won, by what."""
    att, dfn, aseg, dseg, _ = before.battle  # type: ignore[misc]
    if outcome is not None:
        _, spinner = before.spin  # type: ignore[misc]
        if spinner == att:
            aseg = outcome
        else:
            dseg = outcome
    a_seg, d_seg = before._segment(att, aseg), before._segment(dfn, dseg)
    winner = resolve(a_seg, d_seg)
    if winner is Outcome.DRAW:
        return f"battle: {a_seg.move} against {d_seg.move}: a draw"
    win, seg = (att, a_seg) if winner is Outcome.ATTACKER else (dfn, d_seg)
    lose = dfn if win == att else att
    return f"battle: {seg.move} wins, {unit_label(before, win)} beats {unit_label(before, lose)}"
