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

from toolkit.errors import DuelkitError
from toolkit.figure.model import Color, Segment
from toolkit.figure.rules.combat import Outcome, resolve
from toolkit.figure.rules.disk import with_modifiers
from toolkit.figure.rules.status import SelfHit, StatusRule, paralysed


@dataclass(frozen=True)
class Fighter:
    """One participant of a battle (attacker or defender) and everything that modifies its disk."""

    disk: tuple[Segment, ...]
    stage: int = 0  # upgrade stages: +10 damage, +1 star each
    status: StatusRule | None = None
    damage_bonus: int = 0  # this turn's module and subroutine damage bonuses, added up (X Attack: +30)
    star_bonus: int = 0  # e.g. a +1 star module this turn
    respin: bool = False  # committed a Double Chance in the Module Phase: may re-spin once after seeing both results
    poison_ticks: tuple[int, ...] = ()  # chimera Poison/Noxious: per-segment reductions so far (poison_tick)

    def battle_disk(self) -> tuple[Segment, ...]:
        """The disk actually spun: upgrades, status reduction and bonuses summed, then floored at 0 once."""
        status_damage = self.status.damage_modifier if self.status else 0
        disk = with_modifiers(self.disk, stage=self.stage, damage=status_damage + self.damage_bonus,
                              stars=self.star_bonus, segment_damage=self.poison_ticks)
        return paralysed(disk, self.status)


class BattleNotPossible(DuelkitError):
    """The attacker's status forbids starting a battle (asleep or frozen), so there are no odds to give."""

    def __init__(self, status: StatusRule) -> None:
        super().__init__(f"a unit with status '{status.id}' cannot initiate an attack")
        self.status = status


def spun_disks(attacker: Fighter, defender: Fighter) -> tuple[tuple[Segment, ...], tuple[Segment, ...]]:
    """The two disks actually spun in this battle.

    Raises BattleNotPossible when the attacker's status forbids attacking. A defender whose status keeps
    it out of combat (duel-protocol Sleep/Frozen) spins nothing and counts as a Miss; one that still spins
    when attacked (chimera Sleep/Frozen) spins its disk as usual.
    """
    if attacker.status is not None and not attacker.status.can_initiate:
        raise BattleNotPossible(attacker.status)
    a_disk, d_disk = attacker.battle_disk(), defender.battle_disk()
    if defender.status is not None and not defender.status.spins_when_attacked:
        total = sum(segment.size for segment in d_disk)
        d_disk = (Segment(move="Cannot battle", color=Color.RED, size=total),)
    return a_disk, d_disk


@dataclass(frozen=True)
class PairOutcome:
    """One pair of final segments and how often the battle ends on it."""

    attacker_segment: int | None  # None: the attacker hit itself (confusion) before spinning for battle
    defender_segment: int | None
    winner: Outcome
    probability: Fraction
    consequence: str  # "deactivate", "effect", "wash", "draw", "self-hit", "both self-hit"


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
    if move.color.deals_damage:
        return "deactivate"
    if move.color is Color.PURPLE:
        return "effect" if (move.effect or move.inflicts) else "wash"
    return "wash"


# What a battle's consequences are worth to one side: the balance rating's weights (one source).
KNOCKOUT_VALUE = Fraction(1)  # the opponent is Deactivated (and -1 when this side is)
EFFECT_VALUE = Fraction(1, 2)  # this side's Purple effect lands


def consequence_value(attacker: Segment, defender: Segment, for_attacker: bool) -> Fraction:
    """What this pair of results is worth to one side, counted as the balance rating counts it:
    +1 for knocking the opponent out, +1/2 for landing its own effect, -1 for being knocked out.
    A Blue wash, a Purple win without effect and a draw are worth 0, whoever "wins" them."""
    winner = resolve(attacker, defender)
    if winner is Outcome.DRAW:
        return Fraction(0)
    consequence = _consequence(winner, attacker, defender)
    own = (winner is Outcome.ATTACKER) == for_attacker
    if consequence == "deactivate":
        return KNOCKOUT_VALUE if own else -KNOCKOUT_VALUE
    if consequence == "effect" and own:
        return EFFECT_VALUE
    return Fraction(0)


def _spin_pairs(attacker: Fighter, defender: Fighter) -> dict[tuple[int, int], int]:
    """Weight of each final (attacker segment, defender segment) pair, over total^spins.

    With a re-spin, the holder sees both results and spins again when the expected consequences of a
    re-spin (`consequence_value`) are worth more than those of what it has; the second result is final.
    Only the attacker may hold one: a re-spin module is committed in the Module Phase of its owner's own turn.
    """
    a_disk, d_disk = spun_disks(attacker, defender)
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
            mine = holder == "attacker"
            own_disk, own_total = (a_disk, a_total) if mine else (d_disk, d_total)
            keep = consequence_value(a, d, mine)
            # expected value of a re-spin, compared exactly: sum(size * value) versus keep * total
            respun = sum(s.size * consequence_value(s, d, True) if mine else s.size * consequence_value(a, s, False)
                         for s in own_disk)
            if respun > keep * own_total:
                for k, s in enumerate(own_disk):
                    key = (k, j) if mine else (i, k)
                    pairs[key] = pairs.get(key, 0) + weight * s.size
            else:
                pairs[(i, j)] = pairs.get((i, j), 0) + weight * own_total
    return pairs


def battle_odds(attacker: Fighter, defender: Fighter) -> BattleOdds:
    """Exact odds of one battle, including a confused side's self-hit spin before the battle."""
    if defender.respin:
        raise ValueError("only the attacker can re-spin: a re-spin module is committed in its owner's Module Phase "
                         "(specs 000 2.3, 001 1.3)")
    a_disk, d_disk = spun_disks(attacker, defender)
    odds = BattleOdds()
    # A confused unit first spins for a self-hit: landing on White/Gold, it hits itself and is
    # Deactivated; the battle against the opponent does not happen (spec 001), or its own result is
    # void (spec 000: the extra spin). Both mean: self-hit probability first, then the battle. When both
    # units are confused each spins on its own (independent spins); if both hit themselves, both are
    # Deactivated and nobody wins: a draw.
    self_hit_a = _self_hit_share(attacker, a_disk)
    self_hit_d = _self_hit_share(defender, d_disk)
    for share, winner, consequence in (
            (self_hit_a * (1 - self_hit_d), Outcome.DEFENDER, "self-hit"),
            ((1 - self_hit_a) * self_hit_d, Outcome.ATTACKER, "self-hit"),
            (self_hit_a * self_hit_d, Outcome.DRAW, "both self-hit")):
        if not share:
            continue
        odds.outcomes.append(PairOutcome(None, None, winner, share, consequence))
        odds.attacker_deactivated += share if winner is not Outcome.ATTACKER else 0
        odds.defender_deactivated += share if winner is not Outcome.DEFENDER else 0
        odds.attacker_wins += share if winner is Outcome.ATTACKER else 0
        odds.defender_wins += share if winner is Outcome.DEFENDER else 0
        odds.draw += share if winner is Outcome.DRAW else 0
    remaining = (1 - self_hit_a) * (1 - self_hit_d)
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


def _self_hit_share(side: Fighter, disk: Sequence[Segment]) -> Fraction:
    if side.status is None or side.status.self_hit is SelfHit.NONE:
        return Fraction(0)
    total = sum(s.size for s in disk)
    hits = sum(s.size for s in disk if s.color.deals_damage)
    return Fraction(hits, total) if total else Fraction(0)
