"""Every unit attacking every unit, fast enough for a 600-unit database.

`battle_odds` enumerates segment pairs one by one; here each defender is first summarised (weight per
colour, sorted damage and star distributions with prefix sums), so an attacker segment meets a whole
defender in a few lookups. The colour rules still come from `matchup_rule`, the single source of
Table 2.1, and a test checks this path against `battle_odds` pair by pair.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from dataclasses import dataclass
from operator import mul

from toolkit.figure.model import Color, Segment
from toolkit.figure.rules.combat import Rule, matchup_rule

# Table 2.1 asked once per colour pair, from the single source of the rules.
RULES: dict[tuple[Color, Color], Rule] = {(a, d): matchup_rule(a, d) for a in Color for d in Color}


@dataclass(frozen=True)
class Distribution:
    """Values with weights, sorted, with prefix sums for 'weight below v' and 'weight equal to v'."""

    values: tuple[int, ...]
    prefix: tuple[int, ...]  # prefix[i] = total weight of values[:i]
    effect_prefix: tuple[int, ...]  # the same, counting only segments that carry an effect

    @classmethod
    def of(cls, pairs: Sequence[tuple[int, int, bool]]) -> Distribution:
        ordered = sorted(pairs)
        prefix, effect_prefix = [0], [0]
        for _, weight, effect in ordered:
            prefix.append(prefix[-1] + weight)
            effect_prefix.append(effect_prefix[-1] + (weight if effect else 0))
        return cls(tuple(v for v, _, _ in ordered), tuple(prefix), tuple(effect_prefix))

    def below(self, value: int) -> int:
        return self.prefix[bisect_left(self.values, value)]

    def equal(self, value: int) -> int:
        return self.prefix[bisect_right(self.values, value)] - self.below(value)

    def above(self, value: int) -> int:
        return self.prefix[-1] - self.prefix[bisect_right(self.values, value)]

    def above_with_effect(self, value: int) -> int:
        return self.effect_prefix[-1] - self.effect_prefix[bisect_right(self.values, value)]


METRICS = ("attacker_wins", "defender_wins", "draw", "attacker_deactivated", "defender_deactivated",
           "attacker_effect", "defender_effect")
COLORS = tuple(Color)  # feature order of a defender: its weight per colour, then its Purple-effect weight


@dataclass(frozen=True)
class Profile:
    """A disk summarised for fast matchups."""

    total: int
    weight: dict[Color, int]
    purple_effect_weight: int
    damage: Distribution  # White and Gold together: Table 2.1 treats them alike when comparing
    stars: Distribution
    features: tuple[int, ...]  # as a defender: weight per colour (COLORS order), then Purple-effect weight
    fixed: tuple[tuple[int, ...], ...]  # as an attacker: per metric, coefficients on a defender's features

    @classmethod
    def of(cls, disk: Sequence[Segment]) -> Profile:
        weight = {color: 0 for color in Color}
        for segment in disk:
            weight[segment.color] += segment.size
        effect = sum(s.size for s in disk if s.color is Color.PURPLE and _has_effect(s))
        return cls(
            total=sum(weight.values()),
            weight=weight,
            purple_effect_weight=effect,
            damage=Distribution.of([(s.damage or 0, s.size, False) for s in disk if s.color.deals_damage]),
            stars=Distribution.of([(s.stars or 0, s.size, _has_effect(s)) for s in disk if s.color is Color.PURPLE]),
            features=(*(weight[c] for c in COLORS), effect),
            fixed=_fixed_coefficients(weight, effect),
        )


def _fixed_coefficients(weight: dict[Color, int], effect: int) -> tuple[tuple[int, ...], ...]:
    """For the cells of Table 2.1 decided by colour alone: each metric as a linear form in the
    defender's features, so a whole matchup's fixed part is seven short dot products."""
    coefficients = {name: [0] * (len(COLORS) + 1) for name in METRICS}
    for a_color in COLORS:
        a_weight = weight[a_color]
        for k, d_color in enumerate(COLORS):
            rule = RULES[a_color, d_color]
            if rule is Rule.DRAW:
                coefficients["draw"][k] += a_weight
            elif rule is Rule.ATTACKER_WINS:
                coefficients["attacker_wins"][k] += a_weight
                if a_color.deals_damage:
                    coefficients["defender_deactivated"][k] += a_weight
                if a_color is Color.PURPLE:
                    coefficients["attacker_effect"][k] += effect
            elif rule is Rule.DEFENDER_WINS:
                coefficients["defender_wins"][k] += a_weight
                if d_color.deals_damage:
                    coefficients["attacker_deactivated"][k] += a_weight
                if d_color is Color.PURPLE:  # the defender's effect weight is its last feature
                    coefficients["defender_effect"][-1] += a_weight
    return tuple(tuple(coefficients[name]) for name in METRICS)


def _has_effect(segment: Segment) -> bool:
    return bool(segment.effect or segment.inflicts)


@dataclass
class Matchup:
    """Counts over attacker.total * defender.total equally likely spin pairs."""

    total: int
    attacker_wins: int = 0
    defender_wins: int = 0
    draw: int = 0
    attacker_deactivated: int = 0
    defender_deactivated: int = 0
    attacker_effect: int = 0
    defender_effect: int = 0

    def p(self, name: str) -> float:
        count: int = getattr(self, name)
        return count / self.total


def _win(m: Matchup, attacker_side: bool, weight: int, winner_color: Color, winner_effect_weight: int) -> None:
    """Book `weight` pairs won by one side with a move of `winner_color`."""
    if not weight:
        return
    if attacker_side:
        m.attacker_wins += weight
        if winner_color.deals_damage:
            m.defender_deactivated += weight
        m.attacker_effect += winner_effect_weight
    else:
        m.defender_wins += weight
        if winner_color.deals_damage:
            m.attacker_deactivated += weight
        m.defender_effect += winner_effect_weight


def matchup(attacker: Profile, defender: Profile) -> Matchup:
    features = defender.features
    m = Matchup(attacker.total * defender.total,
                *(sum(map(mul, row, features)) for row in attacker.fixed))
    if attacker.stars.values and defender.stars.values:
        _compare_stars(m, attacker, defender)
    if attacker.damage.values and defender.damage.values:
        _compare_damage(m, attacker, defender)
    return m


def _compare_damage(m: Matchup, attacker: Profile, defender: Profile) -> None:
    """White/Gold against White/Gold, all four pairings at once on the merged damage distributions."""
    a_dist, d_dist = attacker.damage, defender.damage
    for index, value in enumerate(a_dist.values):
        weight = a_dist.prefix[index + 1] - a_dist.prefix[index]
        _win(m, True, weight * d_dist.below(value), Color.WHITE, 0)
        _win(m, False, weight * d_dist.above(value), Color.WHITE, 0)
        m.draw += weight * d_dist.equal(value)


def _compare_stars(m: Matchup, attacker: Profile, defender: Profile) -> None:
    a_dist, d_dist = attacker.stars, defender.stars
    for index, value in enumerate(a_dist.values):
        weight = a_dist.prefix[index + 1] - a_dist.prefix[index]
        effect_weight = a_dist.effect_prefix[index + 1] - a_dist.effect_prefix[index]
        beaten = d_dist.below(value)
        _win(m, True, weight * beaten, Color.PURPLE, effect_weight * beaten)
        _win(m, False, weight * d_dist.above(value), Color.PURPLE, weight * d_dist.above_with_effect(value))
        m.draw += weight * d_dist.equal(value)
