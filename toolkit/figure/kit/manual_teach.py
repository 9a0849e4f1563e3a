"""The manual's teaching pages: setup, a battle step by step, the upgrade procedure, a surround and a
Repair Bay cycle worked through, and the table rulings (every switch the engine plays by).

Examples are computed, not typed: the battle uses the first unit of each side's squad, its real ranges
and `combat.resolve`; the surround uses the board graph's node names (the ones `duelkit play` and game
records print); the rulings come from the engine's `rulings_table()` and the values of `RULES_DEFAULT`,
so the printed rulings and the engine cannot disagree. Text speaks the engine's vocabulary ("unit");
`themed` puts the project's own words (`terms:`) in at the end.
"""

from __future__ import annotations

import re
from typing import Any

from toolkit.figure import constants
from toolkit.figure.database import Database
from toolkit.figure.engine.rules import RULES_DEFAULT, rulings_table
from toolkit.figure.kit.manual_model import Block, Bullets, Para, Section, Table
from toolkit.figure.model import Color, Segment, Squad, Unit
from toolkit.figure.rules import combat
from toolkit.figure.rules.disk import range_label, ranges
from toolkit.figure.theme import Terms, Theme, load_theme
from toolkit.players import Player

KEEP_OPEN, KEEP_CLOSE = "\x02", "\x03"  # around data text (names) that `themed` must leave as written
# the engine's own lowercase words, and the theme term each stands for
_ENGINE_WORDS = {"unit": "unit", "units": "units", "module": "module", "modules": "modules", "player": "player",
                 "players": "players", "subroutine": "subroutine"}
VOCABULARY_THEME = "duel-protocol"  # the rulings and the engine's messages are worded in this theme's terms
_PATTERNS: dict[tuple[Any, ...], tuple[re.Pattern[str], dict[str, str]]] = {}


def keep(text: str) -> str:
    """Data text (a unit's or a move's name) marked so `themed` leaves it as the designer wrote it."""
    return f"{KEEP_OPEN}{text}{KEEP_CLOSE}"


def _capital(word: str) -> str:
    return word[:1].upper() + word[1:]


def _vocabulary(theme: Theme) -> tuple[re.Pattern[str], dict[str, str]]:
    """One pattern for every word to replace and what each becomes (one pass, so a replacement is never
    replaced again: chimera's 'Robot Unit' contains 'Unit')."""
    terms = theme.terms.model_dump()
    key = (tuple(sorted(terms.items())), tuple(sorted(theme.statuses.items())))
    if key in _PATTERNS:
        return _PATTERNS[key]
    source = load_theme(VOCABULARY_THEME)
    mapping: dict[str, str] = {}
    for name, word in source.terms.model_dump().items():
        if name != "game":
            mapping[word] = terms[name]
            if " " in word:  # 'strategic module', as a sentence lower-cases it
                mapping.setdefault(word.lower(), terms[name].lower())
    for name, word in terms.items():  # the theme's own words of several, matched whole: no part is replaced
        if name != "game" and " " in word:
            mapping.setdefault(word, word)
            mapping.setdefault(word.lower(), word.lower())
    for status_id, name in source.statuses.items():
        mapping[name] = theme.statuses.get(status_id, name)
    for word, name in _ENGINE_WORDS.items():
        mapping.setdefault(word, terms[name])
        mapping.setdefault(_capital(word), _capital(terms[name]))
    mapping.setdefault("subroutines", terms["subroutine"] + "s")
    # words that stay as they are stay in the pattern too: "Strategic Module" must be matched whole, or its
    # "Module" would be replaced on its own ("Strategic Strategic Module")
    alternatives = sorted(mapping, key=len, reverse=True)
    pattern = re.compile(r"\b(?:([Aa]n?) )?(" + "|".join(re.escape(word) for word in alternatives) + r")\b"
                         if alternatives else r"(?!x)x")
    _PATTERNS[key] = (pattern, mapping)
    return pattern, mapping


def themed(text: str, theme: Theme) -> str:
    """Text worded in the engine's vocabulary in the project's own words (`terms:`, statuses): "unit" becomes
    `terms.unit`, "Hangar" the theme's word for it, and so on, in one pass. Data text marked with `keep`
    is left alone (a unit called "Tide-Class Unit" keeps its name); the marks are removed."""
    pattern, mapping = _vocabulary(theme)
    parts = re.split(f"({KEEP_OPEN}[^{KEEP_CLOSE}]*{KEEP_CLOSE})", text)
    return "".join(part[1:-1] if part.startswith(KEEP_OPEN) else pattern.sub(lambda m: _swapped(m, mapping), part)
                   for part in parts)


def _swapped(match: re.Match[str], mapping: dict[str, str]) -> str:
    """One word in the project's words; an article before it follows the new word ("a player" -> "an
    Operator"), unless both words start alike ("a unit" -> "a Unit": the article was right)."""
    article, word = match.group(1), match.group(2)
    new = mapping[word]
    if not article:
        return new
    if new[:1].lower() != word[:1].lower():
        an = new[:1].lower() in "aeio"
        article = article[0] + ("n" if an else "")
    return f"{article} {new}"


def _units(db: Database, squad: Squad | None) -> list[Unit]:
    ids = squad.units if squad is not None else sorted(db.units)
    return [db.units[uid].value for uid in ids if uid in db.units]


def _squad_name(squad: Squad | None, side: Player) -> str:
    return keep(squad.name or squad.id) if squad is not None else f"squad {side.value}"


def first_turn_deploys(mp: int) -> bool:
    """Whether a unit of `mp` can deploy on the first player's first move, under the engine's rulings."""
    return max(mp - constants.FIRST_TURN_MP_PENALTY, RULES_DEFAULT.min_mp) >= constants.DEPLOY_COST_MP


def setup_section(sides: dict[Player, Squad | None], t: Terms) -> Section:
    a, b = sides[Player.A], sides[Player.B]
    half = constants.D10_PAIR_MAX // 2  # a fair roll: no number is rolled again
    return Section("setup", "Setting up", (
        Bullets((
            f"Lay the board between the two {t.players}: {t.player} A sits at the bottom ({_squad_name(a, Player.A)}), "
            f"{t.player} B at the top ({_squad_name(b, Player.B)}). Each side's {t.hangar} and {t.repair_bay} "
            "are printed at its end of the board.",
            f"Each {t.player} takes the squad sheet of their side, its unit tokens (their team colour, A or B on "
            f"each), the {t.schematic} cards of its units and the {t.module} cards marked with their letter.",
            f"Every unit starts in its {t.hangar}: put all {constants.HANGAR_SLOTS} tokens on your {t.hangar} "
            "circles. The field starts empty.",
            f"Lay your {t.module} cards face up beside you: each is used once per duel.",
            f"Who goes first is random: roll the two d10 (tens, then ones; 0-0 is {constants.D10_PAIR_MAX}): "
            f"1-{half} {t.player} A goes first, {half + 1}-{constants.D10_PAIR_MAX} {t.player} B (or flip a "
            "coin: heads, A). A spinner will not do: it shows a "
            "wedge, not a number.",
            f"The first {t.player}'s first move has {constants.FIRST_TURN_MP_PENALTY} {t.mp} less than the unit's "
            f"{t.mp} (deploying costs {constants.DEPLOY_COST_MP}, so a unit with {t.mp} 1 "
            f"{'can still deploy' if first_turn_deploys(1) else 'cannot deploy on that move'})."),
            ordered=True),
    ))


def _example_pair(db: Database, sides: dict[Player, Squad | None]) -> tuple[Unit, Unit] | None:
    mine, theirs = _units(db, sides[Player.A]), _units(db, sides[Player.B])
    return (mine[0], theirs[0]) if mine and theirs else None


def _value(segment: Segment) -> str:
    if segment.color.deals_damage:
        return f" {segment.damage or 0}"
    if segment.color is Color.PURPLE:
        return f" {'★' * (segment.stars or 0)}"
    return ""


def _pick(attacker: Unit, defender: Unit) -> tuple[int, int]:
    """Segment indices for the example: the attacker's first damaging segment and the first defender
    segment it beats (a knockout shows the most), else the defender's first."""
    hits = [i for i, s in enumerate(attacker.disk) if s.color.deals_damage] or [0]
    first = hits[0]
    for index, segment in enumerate(defender.disk):
        if combat.resolve(attacker.disk[first], segment) is combat.Outcome.ATTACKER:
            return first, index
    return first, 0


def _d10(roll: int) -> str:
    tens, ones = divmod(roll % 100, 10)
    return f"{tens} on the tens die and {ones} on the ones die read {roll:02d}"


def battle_section(db: Database, sides: dict[Player, Squad | None], t: Terms, colour: dict[Color, str]) -> Section:
    steps: list[str] = [
        "A battle is optional and comes last in your turn: the unit you just moved may attack one enemy unit "
        "on a point next to it.",
        f"Both {t.players} spin their own unit: with the paperclip spinner, hold a pencil point through the "
        "paperclip at the centre of that unit's disc and flick the clip; the wedge under its tip is the move. "
        f"Without a spinner, roll two d10 (tens, then ones; 0-0 is 100): {constants.DISK_TOTAL + 1}-100 roll "
        "again, otherwise find the "
        f"number in the Range column of the unit's {t.schematic}.",
        "Read the attack priority matrix: the attacker's colour is the row, the defender's the column. White "
        "and Gold against White and Gold: higher damage wins; Purple against Purple: more stars wins; equal is a "
        "draw.",
        f"The result: the loser of a White or Gold win is {t.deactivated} and goes to its owner's "
        f"{t.repair_bay}; a Purple win does what its text says (a {t.status.lower()}, a push); a Blue win is "
        "usually a wash; a draw changes nothing. The winner stays where it is. The turn ends.",
    ]
    blocks: list[Block] = [Bullets(tuple(steps), ordered=True)]
    pair = _example_pair(db, sides)
    if pair is not None:
        attacker, defender = pair
        ai, di = _pick(attacker, defender)
        a_seg, d_seg = attacker.disk[ai], defender.disk[di]
        a_name, d_name, a_move, d_move = keep(attacker.name), keep(defender.name), keep(a_seg.move), keep(d_seg.move)
        a_low, a_high = ranges(attacker.disk)[ai]
        d_low, d_high = ranges(defender.disk)[di]
        a_roll, d_roll = (a_low + a_high) // 2, (d_low + d_high) // 2
        outcome = combat.resolve(a_seg, d_seg)
        rule = combat.matchup_rule(a_seg.color, d_seg.color).value
        result = {
            combat.Outcome.ATTACKER: f"{a_name} wins: {d_name} is {t.deactivated} and goes to B's "
                                     f"{t.repair_bay}; {a_name} stays on its point",
            combat.Outcome.DEFENDER: f"{d_name} wins: {a_name} is {t.deactivated} and goes to A's "
                                     f"{t.repair_bay}",
            combat.Outcome.DRAW: "a draw: nothing happens",
        }[outcome]
        blocks.append(Para(
            f"Worked example. A's {a_name} ({t.mp} {attacker.mp}) ends its move next to B's {d_name} "
            f"and attacks. A flicks the paperclip on {a_name}'s spinner: it stops in the "
            f"{range_label(a_low, a_high)} wedge, {a_move} ({colour[a_seg.color]}{_value(a_seg)}); a roll of "
            f"{a_roll:02d} would say the same. B rolls the two d10: {_d10(d_roll)}, which is in "
            f"{d_name}'s {range_label(d_low, d_high)} range, {d_move} ({colour[d_seg.color]}"
            f"{_value(d_seg)}). Row {colour[a_seg.color]}, column {colour[d_seg.color]}: \"{rule}\", so "
            f"{result}."))
    return Section("battle", "A battle, step by step", tuple(blocks))


def upgrade_section(t: Terms) -> Section:
    rules = RULES_DEFAULT
    if rules.upgrade_offer == "never":
        return Section("upgrades", t.upgrade, (Para("Upgrades are switched off in this rule set."),))
    keep = ("Deactivated, it goes to the {bay} as its base form again (the upgraded token goes back in the box)"
            if rules.reset_form_on_deactivation else "it keeps its upgraded form through the {bay}")
    return Section("upgrades", f"{t.upgrade}: how to upgrade", (
        Bullets((
            f"When a unit that has an upgraded form (its {t.schematic} says 'upgrades to') has "
            f"{t.deactivated.lower()} an enemy unit in battle, its owner may upgrade it at once.",
            "Take its token off the board and put the upgraded form's token on the same point; swap its "
            f"{t.schematic} card for the upgraded form's card.",
            f"Each upgrade stage adds +{constants.UPGRADE_DAMAGE_BONUS} damage to White and Gold attacks and "
            f"+{constants.UPGRADE_STAR_BONUS} star to Purple moves; the upgraded card already prints them with "
            "the bonus.",
            f"Its {t.status.lower()}, if any, stays. " + keep.format(bay=t.repair_bay) + "."),
            ordered=True),
    ))


def surround_example(db: Database, t: Terms) -> Para:
    """Spelled out on the board's own node names: B's goal, its neighbours, the move that closes it."""
    graph = db.board.graph()
    goal = db.board.goal(Player.B)
    around = sorted(graph.neighbors(goal))
    held, last = around[:-1], around[-1]
    held_text = " and ".join(held) if held else "none"
    return Para(
        f"Example: B's unit stands on B's {t.goal} ({goal}), whose neighbouring points are {', '.join(around)}. "
        f"A already holds {held_text}; A moves a unit onto {last}. Now every neighbour of {goal} holds an A unit: "
        f"B's unit is {t.deactivated} at once, without a battle, and goes to B's {t.repair_bay}. (The point names "
        "are printed small on the board and used by duelkit's game records.)")


def repair_cycle(db: Database, sides: dict[Player, Squad | None], t: Terms) -> Para:
    units = _units(db, sides[Player.A])
    names = [keep(unit.name) for unit in units[:constants.REPAIR_BAY_CAPACITY + 1]]
    while len(names) < constants.REPAIR_BAY_CAPACITY + 1:
        names.append(f"unit {len(names) + 1}")
    *waiting, arriving = names
    return Para(
        f"Example: A's {t.repair_bay} holds {' then '.join(waiting)} ({waiting[0]} arrived first). "
        f"{arriving} is {t.deactivated} and arrives: the {t.repair_bay} holds only "
        f"{constants.REPAIR_BAY_CAPACITY}, so {waiting[0]} leaves for A's {t.hangar} with a {t.wait} "
        f"{constants.WAIT_TURNS} marker on it. On A's next turn {waiting[0]} cannot be deployed; remove the marker "
        "at the end of that turn, and it can be deployed from the turn after.")


def _words(name: str) -> str:
    return re.sub(r"\bmp\b", "MP", name.replace("_", " ").capitalize())


def _shown(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value).replace("_", " ")


def rulings_section() -> Section:
    """Every switch of the engine's `Rules`, its value in play, and why: straight from `rulings_table()`."""
    rows = tuple((_words(name), _shown(getattr(RULES_DEFAULT, name, default)), source, alternative)
                 for name, default, source, alternative in rulings_table())
    return Section("rulings", "Table rulings", (
        Para("Where the rules above are silent or the source documents disagree, duelkit's engine (used by "
             "`duelkit play`, `simulate` and the balance reports) plays by these rulings. Play them at the "
             "table too, so your games and the computer's agree."),
        Table(("Ruling", "In play", "Why", "Other choice"), rows, row_headers=True, widths=(0.17, 0.14, 0.42, 0.27)),
    ))


def teach_sections(db: Database, sides: dict[Player, Squad | None], colour: dict[Color, str]) -> dict[str, Section]:
    """The teaching sections by id, for `build_manual` to place among the reference sections."""
    t = db.theme.terms
    return {
        "setup": setup_section(sides, t),
        "battle": battle_section(db, sides, t, colour),
        "upgrades": upgrade_section(t),
        "rulings": rulings_section(),
    }
