"""Rulings where the specs are silent or disagree: one frozen `Rules` value, each field a named switch.

Each ruling is declared once, in `RULINGS`: its default, the source of that default, the alternatives a
designer may try; `Rules` takes its defaults from there, and the engine package docstring and DESIGN.md
list the same (tests/figure/engine/test_rulings_declared_once.py checks both). A game record stores
`Rules.as_dict()` so a replay uses the rulings the game was played with.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Any

from toolkit.errors import DuelkitError


class RulesError(DuelkitError):
    """A rules switch with an unknown name or a value it does not accept."""


@dataclass(frozen=True)
class Ruling:
    default: Any
    source: str
    alternative: str
    choices: tuple[str, ...] = ()
    lowest: int = 1  # the smallest value a whole-number switch takes


RULINGS: dict[str, Ruling] = {
    "surround_order": Ruling(
        "enemies_first", "shared DESIGN section 2 (Turn): enemies are removed first, then the mover's side is "
        "re-checked, so a unit freed by those removals survives",
        "simultaneous: both sides judged on one snapshot", ("enemies_first", "simultaneous")),
    "goal_capture_by": Ruling(
        "owner_action", "specs 000 2.1 ('The simulation ends immediately upon the occupation of this node') / 001 "
        "1.1 ('The duel ends immediately upon a unit occupying this space'): a unit its owner puts on the enemy "
        "Goal Point by any action wins at once: its move, a swap module, its own Purple move (Fly Over, a swap "
        "with the loser, moving an ally); a unit pushed there by the opponent does not win",
        "own_move: only the turn's move onto the goal wins; any_placement: a unit placed there by either "
        "player (an opponent's push too) wins", ("owner_action", "own_move", "any_placement")),
    "lockout": Ruling(
        "no_move_at_turn_start", "specs 000 2.1 / 001 1.1 (System Lockout: no legal move at the start of the turn; "
        "modules and subroutines are not counted)",
        "off: a player with no move passes the turn", ("no_move_at_turn_start", "off")),
    "wait_counts": Ruling(
        "owner_turns", "spec 000 2.6 ('cannot select it for movement on their next turn')",
        "all_turns: Wait also counts down on the opponent's turns", ("owner_turns", "all_turns")),
    "turn_limit": Ruling(
        300, "specs silent (the original ends on the 5-minute clocks); 300 turns in all",
        "any whole number of turns"),
    "turn_limit_result": Ruling(
        "draw", "specs silent: a game stopped by the turn limit is a draw ('turn limit')",
        "fewer_units_lost: the side with more units on the field and in the Hangar wins",
        ("draw", "fewer_units_lost")),
    "repetition_limit": Ruling(
        3, "specs silent; chess's threefold repetition (same position, same player to move) is a draw",
        "any whole number of repetitions"),
    "upgrade_offer": Ruling(
        "after_battle_knockout", "spec 000 3.6 ('after the base-form unit Deactivates an opposing unit'): offered "
        "when a form that has an upgrade Deactivates an enemy in battle",
        "never: upgrades are switched off", ("after_battle_knockout", "never")),
    "reset_form_on_deactivation": Ruling(
        True, "specs silent; statuses clear on Deactivation (Table 2.2 notes), and so does the upgrade",
        "false: an upgraded unit keeps its form through the Repair Bay"),
    "min_mp": Ruling(
        0, "specs 000 2.3 / 001 1.3 (the first mover's unit 'has its MP reduced by one for that move only') and "
        "000 2.4 / 001 2.1 (deploying 'costs 1 MP'): nothing raises MP back, so a 1 MP unit cannot deploy on the "
        "first turn", "any whole number: MP never below it (1: a first-turn 1 MP unit may still deploy, the reading "
        "of one unit's card text, S-TRM's '(to a minimum of 1)')", lowest=0),
    "both_confused": Ruling(
        "independent", "repo DESIGN (Odds: both units confused): both seeds word the self-hit spin per unit, so "
        "each confused unit makes its own; one that hits itself is Deactivated and the battle is cancelled, both "
        "hitting themselves Deactivates both (as `duelkit odds` computes)",
        "attacker_first / defender_first: that unit spins first and a self-hit ends the battle before the other "
        "spins", ("independent", "attacker_first", "defender_first")),
    "paralysis_tie": Ruling(
        "first_in_wheel_order", "repo DESIGN (Rules: Paralysis): the largest non-Miss segment, the first on a tie",
        "none yet: the one reading written so far", ("first_in_wheel_order",)),
    "sleeper_passable": Ruling(
        "theme_table", "each theme's Table 2.2: duel-protocol's Standby Mode 'can be moved past by opposing units'; "
        "chimera's Sleep blocks like any unit", "never: a sleeping unit blocks; always: anyone may pass it",
        ("theme_table", "never", "always")),
    "attacked_sleeper_spins": Ruling(
        False, "shared DESIGN section 6: duel-protocol's Sleep/Frozen unit counts as a Miss in the battle that "
        "cures it", "true: the attack cures it first and it spins normally"),
    "surround_after": Ruling(
        "any_position_change", "specs 000 2.7 / 001 2.4 ('if it becomes surrounded'): checked after every move, "
        "swap, push or Purple move", "move_only: only the turn's move triggers a surround",
        ("any_position_change", "move_only")),
}

@dataclass(frozen=True)
class Rules:
    """The rulings a game is played with; each default is the one `RULINGS` declares (with its source and
    alternatives), so a ruling is written once."""

    surround_order: str = RULINGS["surround_order"].default
    goal_capture_by: str = RULINGS["goal_capture_by"].default
    lockout: str = RULINGS["lockout"].default
    wait_counts: str = RULINGS["wait_counts"].default
    turn_limit: int = RULINGS["turn_limit"].default
    turn_limit_result: str = RULINGS["turn_limit_result"].default
    repetition_limit: int = RULINGS["repetition_limit"].default
    upgrade_offer: str = RULINGS["upgrade_offer"].default
    reset_form_on_deactivation: bool = RULINGS["reset_form_on_deactivation"].default
    min_mp: int = RULINGS["min_mp"].default
    both_confused: str = RULINGS["both_confused"].default
    paralysis_tie: str = RULINGS["paralysis_tie"].default
    sleeper_passable: str = RULINGS["sleeper_passable"].default
    attacked_sleeper_spins: bool = RULINGS["attacked_sleeper_spins"].default
    surround_after: str = RULINGS["surround_after"].default

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Rules:
        """Rules from a record or the command line; unknown names and bad values are RulesError."""
        known = {f.name: f for f in fields(cls)}
        values: dict[str, Any] = {}
        for name, value in data.items():
            if name in RETIRED:
                raise RulesError(f"rules switch '{name}' no longer exists: {RETIRED[name]}")
            if name not in known:
                raise RulesError(f"unknown rules switch '{name}'; known: {', '.join(sorted(known))}")
            values[name] = value
        rules = cls(**values)
        rules.check()
        return rules

    def check(self) -> None:
        for name, ruling in RULINGS.items():
            value = getattr(self, name)
            if isinstance(ruling.default, bool):
                if not isinstance(value, bool):
                    raise RulesError(f"rules switch '{name}' is true or false, not {value!r}")
            elif isinstance(ruling.default, int):
                if isinstance(value, bool) or not isinstance(value, int) or not ruling.lowest <= value <= 100_000:
                    raise RulesError(f"rules switch '{name}' is a whole number from {ruling.lowest} to 100000, "
                                     f"not {value!r}")
            elif value not in ruling.choices:
                raise RulesError(f"rules switch '{name}' is one of {', '.join(ruling.choices)}, not {value!r}")


# Switches of earlier versions, with why they went (a record or `--rules` naming one is told so).
RETIRED = {
    "respin_holder": "re-spin modules are committed in the Module Phase of their holder's own turn (specs 000 2.3 "
                     "and 2.8, 001 1.3 and 4.1), so only the player whose turn it is can re-spin",
}

RULES_DEFAULT = Rules()


def rulings_table() -> list[tuple[str, Any, str, str]]:
    """(name, default, source, alternative) for every switch, in declaration order."""
    return [(f.name, RULINGS[f.name].default, RULINGS[f.name].source, RULINGS[f.name].alternative)
            for f in fields(Rules)]
