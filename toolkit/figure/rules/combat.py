"""Battle resolution per spec 000 Table 2.1 (row = attacker, column = defender)."""

from __future__ import annotations

from enum import Enum

from toolkit.figure import constants
from toolkit.figure.model import Color, Segment


class Outcome(str, Enum):
    ATTACKER = "attacker"
    DEFENDER = "defender"
    DRAW = "draw"


class Rule(str, Enum):
    """How a pair of colours is decided: what a matrix cell says before any numbers are known."""

    ATTACKER_WINS = "Attacker Wins"
    DEFENDER_WINS = "Defender Wins"
    DRAW = "Draw"
    HIGHER_DAMAGE = "Higher Damage Wins"
    HIGHER_STARS = "Higher Stars Win"


def priority_order() -> tuple[Color, ...]:
    """The colours from the one that beats every other colour down to the one that beats none."""
    return tuple(Color(name) for name in constants.PRIORITY_ORDER)


def matchup_rule(attacker: Color, defender: Color) -> Rule:
    """The cell of Table 2.1 for two colours."""
    if attacker.deals_damage and defender.deals_damage:
        return Rule.HIGHER_DAMAGE
    if attacker == defender:
        return Rule.HIGHER_STARS if attacker is Color.PURPLE else Rule.DRAW
    order = priority_order()
    return Rule.ATTACKER_WINS if order.index(attacker) < order.index(defender) else Rule.DEFENDER_WINS


def _compare(a: int, b: int) -> Outcome:
    if a > b:
        return Outcome.ATTACKER
    if b > a:
        return Outcome.DEFENDER
    return Outcome.DRAW


def resolve(attacker: Segment, defender: Segment) -> Outcome:
    """Who wins when these two (already modified) segments meet."""
    rule = matchup_rule(attacker.color, defender.color)
    if rule is Rule.HIGHER_DAMAGE:
        return _compare(attacker.damage or 0, defender.damage or 0)
    if rule is Rule.HIGHER_STARS:
        return _compare(attacker.stars or 0, defender.stars or 0)
    return {Rule.ATTACKER_WINS: Outcome.ATTACKER, Rule.DEFENDER_WINS: Outcome.DEFENDER}.get(rule, Outcome.DRAW)
