"""`duelkit odds`: find the units, apply the options, format the exact odds as a table or JSON."""

from __future__ import annotations

import difflib
import json
from dataclasses import dataclass
from fractions import Fraction

from toolkit.errors import DuelkitError, UsageError
from toolkit.figure.analysis.balance import unplayable
from toolkit.figure.analysis.odds import (
    EFFECT_VALUE,
    KNOCKOUT_VALUE,
    BattleNotPossible,
    BattleOdds,
    Fighter,
    PairOutcome,
    battle_odds,
    spun_disks,
)
from toolkit.figure.database import Database
from toolkit.figure.model import Color, Module, Segment, Unit
from toolkit.figure.rules.combat import Outcome
from toolkit.figure.rules.roster import upgrade_stages
from toolkit.figure.theme import Theme


class UnitNotPlayable(DuelkitError):
    """A unit of the battle has rule problems (a broken Data Disk, an upgrade loop): exit 1."""


class BattleRefused(UsageError):
    """The options describe a battle the theme's rules forbid (the attacker is asleep or frozen).

    A usage error (exit 2): the data is fine, the question asked is not a battle that can happen."""


@dataclass(frozen=True)
class ModuleEffect:
    """What a module the attacker plays changes in one battle."""

    damage_bonus: int = 0
    star_bonus: int = 0
    respin: bool = False


@dataclass(frozen=True)
class BattleSetup:
    attacker: Unit
    defender: Unit
    attacker_side: Fighter
    defender_side: Fighter
    theme: Theme  # the words the output uses (status names, Deactivated)


def _status(database: Database, name: str | None):
    """A status by id or by the theme's printed name (case-insensitive)."""
    if name is None:
        return None
    theme = database.theme
    wanted = name.strip().lower()
    for status_id, printed in sorted(theme.statuses.items()):
        if wanted in (status_id, printed.lower()):
            return theme.status(status_id)
    options = ", ".join(f"{sid} ({printed})" for sid, printed in sorted(theme.statuses.items()))
    raise UsageError(f"unknown status '{name}' for theme '{theme.id}'; choose one of: {options}")


def _unit(database: Database, unit_id: str) -> Unit:
    entry = database.units.get(unit_id)
    if entry is None:
        close = difflib.get_close_matches(unit_id, list(database.units), n=1)
        hint = f"; did you mean '{close[0]}'?" if close else ""
        raise UsageError(f"no unit '{unit_id}' in theme '{database.theme.id}'{hint}")
    return entry.value


def _module_effects(module: Module) -> ModuleEffect:
    effect = module.effect
    if effect.kind == "damage_bonus" and effect.amount is not None:
        return ModuleEffect(damage_bonus=effect.amount)
    if effect.kind == "star_bonus" and effect.amount is not None:
        return ModuleEffect(star_bonus=effect.amount)
    if effect.kind == "respin":
        return ModuleEffect(respin=True)
    raise UsageError(f"module '{module.id}' ({effect.kind}) does not change a battle's odds")


def own_aura(unit: Unit) -> int:
    """A unit's own structured damage aura that covers itself (M-490: 'your Hydro-type units deal +20')."""
    effect = unit.subroutine.effect if unit.subroutine is not None else None
    if effect is None or effect.kind != "type_damage_bonus" or effect.others_only:
        return 0
    return effect.amount if set(unit.types) & set(effect.types) else 0


def setup_battle(database: Database, attacker_id: str, defender_id: str, *,
                 attacker_status: str | None = None, defender_status: str | None = None,
                 attacker_stage: int | None = None, defender_stage: int | None = None,
                 module_id: str | None = None) -> BattleSetup:
    """Stages default to each unit's place in its upgrade chain; a module is played by the attacker."""
    attacker, defender = _unit(database, attacker_id), _unit(database, defender_id)
    reasons = unplayable(database.unit_defs())
    broken = [f"{uid}: {reasons[uid]}" for uid in dict.fromkeys((attacker_id, defender_id)) if uid in reasons]
    if broken:
        raise UnitNotPlayable(f"cannot compute these odds ({'; '.join(broken)}); `duelkit validate` shows "
                              "what to fix")
    stages = upgrade_stages(database.unit_defs())
    extra = ModuleEffect()
    if module_id is not None:
        entry = database.modules.get(module_id)
        if entry is None:
            close = difflib.get_close_matches(module_id, list(database.modules), n=1)
            hint = f"did you mean '{close[0]}'?" if close else "modules: " + ", ".join(database.modules)
            raise UsageError(f"no module '{module_id}' in theme '{database.theme.id}'; {hint}")
        extra = _module_effects(entry.value)
    for stage in (attacker_stage, defender_stage):
        if stage is not None and not 0 <= stage <= 5:
            raise UsageError("an upgrade stage is 0 to 5")
    attacker_side = Fighter(attacker.disk, stages[attacker.id] if attacker_stage is None else attacker_stage,
                            _status(database, attacker_status), damage_bonus=own_aura(attacker) + extra.damage_bonus,
                            star_bonus=extra.star_bonus, respin=extra.respin)
    defender_side = Fighter(defender.disk, stages[defender.id] if defender_stage is None else defender_stage,
                            _status(database, defender_status), damage_bonus=own_aura(defender))
    return BattleSetup(attacker, defender, attacker_side, defender_side, database.theme)


def odds_json(setup: BattleSetup, odds: BattleOdds) -> str:
    a_disk, d_disk = spun_disks(setup.attacker_side, setup.defender_side)

    def segment(disk, index):
        if index is None:
            return None
        s = disk[index]
        return {"index": index, "move": s.move, "color": s.color.value}

    data = {
        "attacker": setup.attacker.id,
        "defender": setup.defender.id,
        "attacker_wins": float(odds.attacker_wins),
        "defender_wins": float(odds.defender_wins),
        "draw": float(odds.draw),
        "attacker_deactivated": float(odds.attacker_deactivated),
        "defender_deactivated": float(odds.defender_deactivated),
        "effect_applied": float(odds.effect_applied),
        "exact": {name: str(getattr(odds, name)) for name in (
            "attacker_wins", "defender_wins", "draw", "attacker_deactivated", "defender_deactivated",
            "effect_applied", "attacker_effect", "defender_effect")},
        "outcomes": [
            {"attacker_segment": segment(a_disk, o.attacker_segment),
             "defender_segment": segment(d_disk, o.defender_segment),
             "winner": o.winner.value, "consequence": o.consequence, "probability": float(o.probability)}
            for o in odds.outcomes
        ],
    }
    return json.dumps(data, indent=2, ensure_ascii=False)


def _pct(value: Fraction) -> str:
    return f"{float(value) * 100:6.2f} %"


def odds_text(setup: BattleSetup, odds: BattleOdds) -> str:
    a, d = setup.attacker, setup.defender
    deactivated = setup.theme.terms.deactivated.lower()
    rows = [
        ("attacker wins", odds.attacker_wins), ("defender wins", odds.defender_wins), ("draw", odds.draw),
        (f"{a.id} {deactivated}", odds.attacker_deactivated),
        (f"{d.id} {deactivated}", odds.defender_deactivated),
        ("a Purple effect applies", odds.effect_applied),
    ]
    width = max(len(label) for label, _ in rows)
    lines = [f"{a.name} ({a.id}) attacks {d.name} ({d.id})"]
    modifiers = []
    for label, side in (("attacker", setup.attacker_side), ("defender", setup.defender_side)):
        if side.stage:
            modifiers.append(f"{label} stage {side.stage}")
        if side.status:
            modifiers.append(f"{label} {setup.theme.statuses[side.status.id]}")
        if side.damage_bonus:
            modifiers.append(f"{label} +{side.damage_bonus} damage")
        if side.star_bonus:
            modifiers.append(f"{label} +{side.star_bonus} star")
        if side.respin:
            modifiers.append(f"{label} re-spins once when it pays, after seeing the spins (the "
                             f"{setup.theme.terms.module} is committed in the Module Phase)")
    if modifiers:
        lines.append("with " + ", ".join(modifiers))
    lines.append("")
    lines += [f"  {label:<{width}}  {_pct(value)}" for label, value in rows]
    lines += ["", *segment_table(setup, odds)]
    return "\n".join(lines)


def _segment_label(segment: Segment) -> str:
    value = f" {segment.damage}" if segment.damage is not None else f" {'*' * segment.stars}" if segment.stars else ""
    return f"{segment.move} ({segment.color.letter}{value})"


def _result_text(setup: BattleSetup, outcome: PairOutcome, move: Segment | None) -> str:
    """What one pair of spins does, in the theme's words (`move`: the winning segment)."""
    a, d = setup.attacker.id, setup.defender.id
    deactivated = setup.theme.terms.deactivated.lower()
    if outcome.consequence == "both self-hit":
        return f"both hit themselves: both {deactivated}"
    if outcome.consequence == "self-hit":
        loser = d if outcome.winner is Outcome.ATTACKER else a
        return f"{loser} hits itself: {loser} {deactivated}"
    if outcome.winner is Outcome.DRAW:
        return "draw"
    winner, loser = (a, d) if outcome.winner is Outcome.ATTACKER else (d, a)
    if outcome.consequence == "deactivate":
        return f"{winner} wins: {loser} {deactivated}"
    if outcome.consequence == "effect" and move is not None and move.inflicts in setup.theme.statuses:
        return f"{winner} wins: {loser} gets {setup.theme.statuses[move.inflicts]}"
    if outcome.consequence == "effect":
        return f"{winner} wins: its effect on {loser}"
    if move is not None and move.color is Color.BLUE:
        return f"{winner} dodges"
    return f"{winner} wins: no effect"


def segment_table(setup: BattleSetup, odds: BattleOdds) -> list[str]:
    """Every pair of final spins (wheel order), its chance and what it does: where the odds come from."""
    a_disk, d_disk = spun_disks(setup.attacker_side, setup.defender_side)
    rows = []
    for outcome in odds.outcomes:
        move = None
        if outcome.attacker_segment is None or outcome.defender_segment is None:
            left, right = "(confusion: self-hit spin)", ""
        else:
            a, d = a_disk[outcome.attacker_segment], d_disk[outcome.defender_segment]
            left, right = _segment_label(a), _segment_label(d)
            move = a if outcome.winner is Outcome.ATTACKER else d
        rows.append((left, right, _pct(outcome.probability), _result_text(setup, outcome, move)))
    a_width = max([len(setup.attacker.id), *(len(row[0]) for row in rows)])
    d_width = max([len(setup.defender.id), *(len(row[1]) for row in rows)])
    lines = ["segment by segment (each pair of spins):",
             f"  {setup.attacker.id:<{a_width}}  {setup.defender.id:<{d_width}}  {'chance':>8}  result"]
    lines += [f"  {left:<{a_width}}  {right:<{d_width}}  {chance}  {result}" for left, right, chance, result in rows]
    return lines


@dataclass(frozen=True)
class MatchupRow:
    """One line of `duelkit odds UNIT --vs all`: what the unit does attacking one defender."""

    defender: Unit
    knockout: Fraction  # the defender is Deactivated
    effect: Fraction  # the unit's own Purple effect lands
    dodge: Fraction  # the unit's Blue wins (a wash)
    knocked_out: Fraction  # the unit is Deactivated

    @property
    def rating(self) -> Fraction:
        """Counted as the balance rating counts consequences (one source: odds.consequence weights)."""
        return self.knockout * KNOCKOUT_VALUE + self.effect * EFFECT_VALUE - self.knocked_out * KNOCKOUT_VALUE


def against_all(database: Database, attacker_id: str, **options: str | int | None) -> list[MatchupRow]:
    """The unit attacking every other playable unit, best matchup first (ties by defender id)."""
    reasons = unplayable(database.unit_defs())
    rows = []
    for defender_id in sorted(database.units):
        if defender_id == attacker_id or defender_id in reasons:
            continue
        setup = setup_battle(database, attacker_id, defender_id, **options)  # type: ignore[arg-type]
        odds = compute(setup)
        a_disk, _ = spun_disks(setup.attacker_side, setup.defender_side)
        dodge = sum((o.probability for o in odds.outcomes if o.winner is Outcome.ATTACKER
                     and o.attacker_segment is not None and a_disk[o.attacker_segment].color is Color.BLUE),
                    Fraction(0))
        rows.append(MatchupRow(setup.defender, odds.defender_deactivated, odds.attacker_effect, dodge,
                               odds.attacker_deactivated))
    rows.sort(key=lambda row: (-row.rating, row.defender.id))
    return rows


def against_all_text(database: Database, attacker_id: str, rows: list[MatchupRow]) -> str:
    unit = database.units[attacker_id].value
    terms = database.theme.terms
    header = ("#", "defender", "knocks out", "effect", "dodges", f"{terms.deactivated.lower()}", "rating")
    id_width = max([len(header[1]), *(len(row.defender.id) for row in rows)])
    lines = [f"{unit.name} ({unit.id}) attacks each of {len(rows)} other {terms.units.lower()}, best matchup first",
             "rating = knocks out + 1/2 x effect - " + terms.deactivated.lower() + " (as the balance report counts)",
             "",
             f"  {header[0]:>3}  {header[1]:<{id_width}}  {header[2]:>10}  {header[3]:>8}  {header[4]:>8}  "
             f"{header[5]:>12}  {header[6]:>6}"]
    for rank, row in enumerate(rows, start=1):
        lines.append(f"  {rank:>3}  {row.defender.id:<{id_width}}  {_pct(row.knockout):>10}  {_pct(row.effect):>8}  "
                     f"{_pct(row.dodge):>8}  {_pct(row.knocked_out):>12}  {float(row.rating):+6.2f}")
    if rows:
        n = len(rows)
        mean = [sum((getattr(row, name) for row in rows), Fraction(0)) / n
                for name in ("knockout", "effect", "dodge", "knocked_out")]
        rating = sum((row.rating for row in rows), Fraction(0)) / n
        lines.append(f"  {'':>3}  {'average':<{id_width}}  {_pct(mean[0]):>10}  {_pct(mean[1]):>8}  "
                     f"{_pct(mean[2]):>8}  {_pct(mean[3]):>12}  {float(rating):+6.2f}")
    return "\n".join(lines)


def against_all_json(attacker_id: str, rows: list[MatchupRow]) -> str:
    return json.dumps({"attacker": attacker_id, "defenders": [
        {"defender": row.defender.id, "knockout": float(row.knockout), "effect": float(row.effect),
         "dodge": float(row.dodge), "knocked_out": float(row.knocked_out), "rating": float(row.rating),
         "exact": {"knockout": str(row.knockout), "effect": str(row.effect), "dodge": str(row.dodge),
                   "knocked_out": str(row.knocked_out)}} for row in rows]}, indent=2, ensure_ascii=False)


def compute(setup: BattleSetup) -> BattleOdds:
    """The exact odds, or BattleRefused (worded with the theme) when the battle cannot happen."""
    try:
        return battle_odds(setup.attacker_side, setup.defender_side)
    except BattleNotPossible as exc:
        theme = setup.theme
        status = theme.statuses[exc.status.id]
        raise BattleRefused(
            f"{setup.attacker.id} cannot attack: in {theme.name} a unit with the {theme.terms.status.lower()} "
            f"{status} cannot initiate an attack, so there is no battle to compute (a defender with {status} "
            "can be attacked: use --defender-status)") from exc
