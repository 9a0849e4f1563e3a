"""The balance of a database: every unit attacking every unit, ratings, and outliers.

Ratings count what a battle *does*, not only who the matrix says won: knocking the opponent out is
worth 1, a Purple effect landing is worth half, being knocked out costs 1 (DESIGN, balance report).
Upgraded forms fight with their upgrade bonus, as on their schematic cards.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from toolkit.figure.analysis.matchups import Matchup, Profile, matchup
from toolkit.figure.analysis.odds import EFFECT_VALUE
from toolkit.figure.model import Unit
from toolkit.figure.rules.disk import check_disk, with_upgrade
from toolkit.figure.rules.roster import looping_units, upgrade_cycles, upgrade_stages

EFFECT_WEIGHT = float(EFFECT_VALUE)  # a landed effect counts half a knockout (odds.py: the re-spin uses it too)
OUTLIER_WIN = 0.6  # a unit that beats this often ...
OUTLIER_SHARE = 0.5  # ... more than this share of the database, as attacker, is flagged


@dataclass(frozen=True)
class UnitRating:
    unit_id: str
    attack_win: float  # mean P(win) attacking every other unit
    defend_win: float  # mean P(win) defending against every other unit
    knockouts: float  # mean P(the opponent is Deactivated), attacking and defending
    knocked_out: float  # mean P(this unit is Deactivated)
    effects: float  # mean P(this unit's Purple effect lands)
    dominated_share: float  # share of other units this one beats with P > OUTLIER_WIN as attacker

    @property
    def win_rating(self) -> float:
        return (self.attack_win + self.defend_win) / 2

    @property
    def rating(self) -> float:
        """Net consequences per battle, from -1 (always knocked out) to +1 (always knocks out)."""
        return self.knockouts + EFFECT_WEIGHT * self.effects - self.knocked_out

    @property
    def outlier(self) -> bool:
        return self.dominated_share > OUTLIER_SHARE


@dataclass(frozen=True)
class Balance:
    unit_ids: tuple[str, ...]  # database order (sorted ids)
    matrix: tuple[tuple[Matchup, ...], ...]  # matrix[attacker][defender]
    ratings: tuple[UnitRating, ...]  # best first

    def ranked_ids(self) -> list[str]:
        return [rating.unit_id for rating in self.ratings]

    def cell(self, attacker: str, defender: str) -> Matchup:
        index = {uid: i for i, uid in enumerate(self.unit_ids)}
        return self.matrix[index[attacker]][index[defender]]


def unplayable(units: Mapping[str, Unit]) -> dict[str, str]:
    """Why a unit cannot fight, by id: its Data Disk breaks a rule (sizes, fields), or its upgrade chain
    loops so it has no stage. Odds and balance refuse or leave out these units and work for the rest."""
    reasons = {uid: "its Data Disk breaks the rules" for uid, unit in units.items()
               if any(not finding.warning for finding in check_disk(unit.disk))}
    cycles = upgrade_cycles(units)
    for uid in sorted(looping_units(units)):
        loop = next((cycle for cycle in cycles if uid in cycle), None)
        chain = " -> ".join([*loop, loop[0]]) if loop else "a loop"
        reasons.setdefault(uid, f"its upgrade chain loops ({chain})")
    return dict(sorted(reasons.items()))


def playable(units: Mapping[str, Unit]) -> dict[str, Unit]:
    """Units that can fight (see `unplayable`): the ones a balance computation can use when the rest
    of a database still has problems."""
    reasons = unplayable(units)
    return {uid: unit for uid, unit in sorted(units.items()) if uid not in reasons}


def balance(units: Mapping[str, Unit]) -> Balance:
    ids = tuple(sorted(units))
    stages = upgrade_stages({uid: unit.model_copy(update={"upgrades_to": unit.upgrades_to if unit.upgrades_to
                                                          in units else None}) for uid, unit in units.items()})
    profiles = [Profile.of(with_upgrade(units[uid].disk, stages[uid])) for uid in ids]
    matrix = tuple(tuple(matchup(a, d) for d in profiles) for a in profiles)
    ratings = [_rating(i, uid, matrix) for i, uid in enumerate(ids)]
    ratings.sort(key=lambda r: (-r.rating, -r.win_rating, r.unit_id))
    return Balance(ids, matrix, tuple(ratings))


def _rating(i: int, unit_id: str, matrix: tuple[tuple[Matchup, ...], ...]) -> UnitRating:
    others = [j for j in range(len(matrix)) if j != i]
    if not others:
        return UnitRating(unit_id, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0)
    attacking = [matrix[i][j] for j in others]
    defending = [matrix[j][i] for j in others]
    n = len(others)
    battles = 2 * n
    return UnitRating(
        unit_id=unit_id,
        attack_win=sum(m.p("attacker_wins") for m in attacking) / n,
        defend_win=sum(m.p("defender_wins") for m in defending) / n,
        knockouts=(sum(m.p("defender_deactivated") for m in attacking)
                   + sum(m.p("attacker_deactivated") for m in defending)) / battles,
        knocked_out=(sum(m.p("attacker_deactivated") for m in attacking)
                     + sum(m.p("defender_deactivated") for m in defending)) / battles,
        effects=(sum(m.p("attacker_effect") for m in attacking)
                 + sum(m.p("defender_effect") for m in defending)) / battles,
        dominated_share=sum(m.p("attacker_wins") > OUTLIER_WIN for m in attacking) / n,
    )


def _mean(ratings: list[UnitRating], name: str) -> float:
    return sum(getattr(r, name) for r in ratings) / len(ratings) if ratings else 0.0


def explain_outlier(rating: UnitRating, result: Balance, units: Mapping[str, Unit]) -> str:
    """Why a unit stands out, in a designer's words: the part of its rating furthest above the database
    (knocking out, landing effects, or rarely being knocked out), then how it compares with the units of
    the same MP and class, the ones it is meant to be weighed against."""
    everyone = list(result.ratings)
    gains = {
        "knockouts": rating.knockouts - _mean(everyone, "knockouts"),
        "effects": EFFECT_WEIGHT * (rating.effects - _mean(everyone, "effects")),
        "knocked_out": _mean(everyone, "knocked_out") - rating.knocked_out,
    }
    driver = max(gains, key=lambda name: (gains[name], name))
    value, average = getattr(rating, driver), _mean(everyone, driver)
    words = {"knockouts": "knocks out", "effects": "lands its effect", "knocked_out": "is knocked out only"}
    text = f"driven by: {words[driver]} {value:.0%} of battles (database average {average:.0%})"
    unit = units[rating.unit_id]
    peers = [r for r in everyone if r.unit_id != rating.unit_id and r.unit_id in units
             and units[r.unit_id].mp == unit.mp and units[r.unit_id].unit_class == unit.unit_class]
    group = f"MP {unit.mp}, class {unit.unit_class.value}"
    if not peers:
        return f"{text}; no other unit has {group}"
    others = "the other unit" if len(peers) == 1 else f"the {len(peers)} other units"
    return (f"{text}; against {others} with {group}: rating {rating.rating:+.2f} vs "
            f"{_mean(peers, 'rating'):+.2f}, {words[driver]} {value:.0%} vs {_mean(peers, driver):.0%}")
