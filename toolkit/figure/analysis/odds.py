"""Exact battle odds: every pair of segments weighed by size, in whole numbers, never sampled.

A battle is a sequence of spins; each spin lands on a segment with weight `size` out of the disk's
total (96). Weights multiply, so every probability is an integer count over a power of 96 and is
returned as an exact Fraction. What winning *does* depends on the winner's colour (DESIGN and issue
notes): a winning White/Gold Deactivates the loser, a winning Purple applies its effect, a winning
Blue is a wash, and Red never wins.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from toolkit.figure.model import Color, Segment
from toolkit.figure.rules.combat import Outcome, resolve
from toolkit.figure.rules.disk import with_damage_bonus, with_star_bonus, with_upgrade
from toolkit.figure.rules.status import SelfHit, StatusRule, battle_disk

DAMAGE = (Color.WHITE, Color.GOLD)


@dataclass(frozen=True)
class Side:
    """One side of a battle and everything that modifies it."""

    disk: tuple[Segment, ...]
    stage: int = 0  # upgrade stages: +10 damage, +1 star each
    status: StatusRule | None = None
    damage_bonus: int = 0  # e.g. a +30 damage module this turn
    star_bonus: int = 0  # e.g. a +1 star module this turn
    respin: bool = False  # may re-spin once after seeing both results (a Double Chance module)

    def battle_disk(self) -> tuple[Segment, ...]:
        """The disk actually spun, after upgrades, status effects and damage bonuses."""
        disk = with_upgrade(self.disk, self.stage)
        disk = battle_disk(disk, self.status)
        if self.damage_bonus:
            disk = with_damage_bonus(disk, self.damage_bonus)
        if self.star_bonus:
            disk = with_star_bonus(disk, self.star_bonus)
        if self.status is not None and not self.status.can_battle:
            # A unit that cannot take part in combat (asleep, frozen) spins nothing: it counts as a Miss.
            total = sum(segment.size for segment in disk)
            disk = (Segment(move="Cannot battle", color=Color.RED, size=total),)
        return disk


@dataclass(frozen=True)
class PairOutcome:
    """One pair of final segments and how often the battle ends on it."""

    attacker_segment: int | None  # None: the attacker hit itself (confusion) before spinning for battle
    defender_segment: int | None
    winner: Outcome
    probability: Fraction
    consequence: str  # "deactivate", "effect", "wash", "draw", "self-hit"


@dataclass
class BattleOdds:
    attacker_wins: Fraction = Fraction(0)
    defender_wins: Fraction = Fraction(0)
    draw: Fraction = Fraction(0)
    attacker_deactivated: Fraction = Fraction(0)
    defender_deactivated: Fraction = Fraction(0)
    attacker_effect: Fraction = Fraction(0)  # attacker won with a Purple move that has an effect
    defender_effect: Fraction = Fraction(0)
    outcomes: list[PairOutcome] = field(default_factory=list)

    @property
    def effect_applied(self) -> Fraction:
        return self.attacker_effect + self.defender_effect


def _consequence(winner: Outcome, attacker: Segment | None, defender: Segment | None) -> str:
    if winner is Outcome.DRAW:
        return "draw"
    move = attacker if winner is Outcome.ATTACKER else defender
    if move is None:
        return "wash"
    if move.color in DAMAGE:
        return "deactivate"
    if move.color is Color.PURPLE:
        return "effect" if (move.effect or move.inflicts) else "wash"
    return "wash"


def _utility(winner: Outcome, for_attacker: bool) -> int:
    if winner is Outcome.DRAW:
        return 0
    return 1 if (winner is Outcome.ATTACKER) == for_attacker else -1


def _spin_pairs(attacker: Side, defender: Side) -> dict[tuple[int, int], int]:
    """Weight of each final (attacker segment, defender segment) pair, over total^spins.

    With a re-spin, the holder sees both results and spins again when the expected result of a
    re-spin is better than what it has (win = +1, draw = 0, loss = -1); the second result is final.
    Only one side may hold a re-spin in a battle (only the mover's owner plays a module).
    """
    a_disk, d_disk = attacker.battle_disk(), defender.battle_disk()
    pairs: dict[tuple[int, int], int] = {}
    a_total = sum(s.size for s in a_disk)
    d_total = sum(s.size for s in d_disk)
    holder = "attacker" if attacker.respin else "defender" if defender.respin else None
    for i, a in enumerate(a_disk):
        for j, d in enumerate(d_disk):
            weight = a.size * d.size
            if holder is None:
                pairs[(i, j)] = pairs.get((i, j), 0) + weight
                continue
            own_disk, own_total = (a_disk, a_total) if holder == "attacker" else (d_disk, d_total)
            keep = _utility(resolve(a, d), holder == "attacker")
            # expected utility of a re-spin, compared exactly: sum(size * u) versus keep * total
            respun = sum(s.size * _utility(resolve(s, d) if holder == "attacker" else resolve(a, s),
                                           holder == "attacker") for s in own_disk)
            if respun > keep * own_total:
                for k, s in enumerate(own_disk):
                    key = (k, j) if holder == "attacker" else (i, k)
                    pairs[key] = pairs.get(key, 0) + weight * s.size
            else:
                pairs[(i, j)] = pairs.get((i, j), 0) + weight * own_total
    return pairs


def battle_odds(attacker: Side, defender: Side) -> BattleOdds:
    """Exact odds of one battle, including a confused side's self-hit spin before the battle."""
    if attacker.respin and defender.respin:
        raise ValueError("only one side can re-spin in a battle")
    a_disk, d_disk = attacker.battle_disk(), defender.battle_disk()
    odds = BattleOdds()
    # A confused unit first spins for a self-hit: landing on White/Gold, it hits itself and is
    # Deactivated; the battle against the opponent does not happen (spec 001), or its own result is
    # void (spec 000: the extra spin). Both mean: self-hit probability first, then the battle.
    self_hit_a = _self_hit_share(attacker, a_disk)
    self_hit_d = _self_hit_share(defender, d_disk)
    if self_hit_a:
        odds.attacker_deactivated += self_hit_a
        odds.defender_wins += self_hit_a
        odds.outcomes.append(PairOutcome(None, None, Outcome.DEFENDER, self_hit_a, "self-hit"))
    remaining = 1 - self_hit_a
    if self_hit_d:
        share = remaining * self_hit_d
        odds.defender_deactivated += share
        odds.attacker_wins += share
        odds.outcomes.append(PairOutcome(None, None, Outcome.ATTACKER, share, "self-hit"))
        remaining -= share
    pairs = _spin_pairs(attacker, defender)
    denominator = sum(pairs.values())
    for (i, j), weight in sorted(pairs.items()):
        probability = remaining * Fraction(weight, denominator)
        a, d = a_disk[i], d_disk[j]
        winner = resolve(a, d)
        consequence = _consequence(winner, a, d)
        odds.outcomes.append(PairOutcome(i, j, winner, probability, consequence))
        if winner is Outcome.ATTACKER:
            odds.attacker_wins += probability
            odds.defender_deactivated += probability if consequence == "deactivate" else 0
            odds.attacker_effect += probability if consequence == "effect" else 0
        elif winner is Outcome.DEFENDER:
            odds.defender_wins += probability
            odds.attacker_deactivated += probability if consequence == "deactivate" else 0
            odds.defender_effect += probability if consequence == "effect" else 0
        else:
            odds.draw += probability
    return odds


def _self_hit_share(side: Side, disk: Sequence[Segment]) -> Fraction:
    if side.status is None or side.status.self_hit is SelfHit.NONE:
        return Fraction(0)
    total = sum(s.size for s in disk)
    hits = sum(s.size for s in disk if s.color in DAMAGE)
    return Fraction(hits, total) if total else Fraction(0)
