"""The protocol manual as data: sections of paragraphs, lists, tables and drawn figures.

Every rule statement is computed here from the rules model and worded with the theme's terms, so the
printed rules cannot drift from the code: the matrix cells call `matchup_rule`, the status table reads
the theme's status variant, the numbers come from `toolkit.figure.constants`, the d10 table calls
`d10_pair_to_roll`. The HTML (jinja2) and PDF renderers only lay this model out.
"""

from __future__ import annotations

from dataclasses import replace

from toolkit.figure import constants
from toolkit.figure.database import Database
from toolkit.figure.kit.colors import SEGMENT
from toolkit.figure.kit.manual_model import Block, Bullets, Figure, Manual, Para, Section, Table
from toolkit.figure.kit.manual_teach import repair_cycle, surround_example, teach_sections, themed
from toolkit.figure.model import Color, Squad
from toolkit.figure.rules import combat
from toolkit.figure.rules.disk import d10_pair_to_roll
from toolkit.figure.rules.status import VARIANTS, SelfHit, StatusRule
from toolkit.figure.theme import Terms, Theme
from toolkit.kit.palette import INK, TEAM
from toolkit.players import Player
from toolkit.render.scene import Circle, Line, Page, Shape, Style, Text, filled

__all__ = ["Block", "Bullets", "Figure", "Manual", "Para", "Section", "Table", "build_manual"]

MATRIX_ORDER: tuple[Color, ...] = tuple(Color)  # Table 2.1's rows and columns: `Color` is declared in that order


def color_label(theme: Theme, color: Color) -> str:
    return f"{color.value.title()} ({theme.colors[color]})"


_CELL_CLASS = {
    combat.Rule.ATTACKER_WINS: "att", combat.Rule.DEFENDER_WINS: "def", combat.Rule.DRAW: "draw",
    combat.Rule.HIGHER_DAMAGE: "cmp", combat.Rule.HIGHER_STARS: "cmp",
}


def matrix_table(theme: Theme) -> Table:
    """Table 2.1, every cell from `matchup_rule` (looked up at call time, so a changed rule shows)."""
    header = ("Attacker / Defender", *(color_label(theme, c) for c in MATRIX_ORDER))
    rows, classes = [], []
    for attacker in MATRIX_ORDER:
        rules = [combat.matchup_rule(attacker, defender) for defender in MATRIX_ORDER]
        rows.append((color_label(theme, attacker), *(rule.value for rule in rules)))
        classes.append(("head", *(_CELL_CLASS[rule] for rule in rules)))
    return Table(header, tuple(rows), tuple(classes), row_headers=True)


def describe_status(rule: StatusRule, terms: Terms, miss: str) -> str:
    """One status in plain words, generated from the rule the engine applies."""
    parts = []
    if rule.damage_modifier:
        parts.append(f"White and Gold attacks deal {-rule.damage_modifier} less damage (add up every bonus and "
                     "reduction first; damage never goes below 0).")
    if rule.spun_damage_modifier:
        parts.append(f"At the end of its owner's turn, if it did not battle, spin its {terms.data_disk}: a White "
                     f"or Gold attack it lands on deals {-rule.spun_damage_modifier} less damage from then on.")
    if rule.miss_replaces_largest:
        parts.append(f"Its largest segment that is not a {miss} counts as a {miss} (Red) segment.")
    if rule.self_hit is SelfHit.EXTRA_SPIN:
        parts.append(f"In battle its {terms.data_disk} is spun an additional time: on a White or Gold attack it "
                     f"hits itself and is {terms.deactivated}.")
    if rule.self_hit is SelfHit.BEFORE_BATTLE:
        parts.append(f"Before it battles, spin its {terms.data_disk}: on a White or Gold attack it hits itself "
                     f"and is {terms.deactivated}; the battle is cancelled.")
    barred = [text for allowed, text in ((rule.can_move, "be selected to move"),
                                         (rule.can_initiate, "initiate an attack")) if not allowed]
    if barred:
        parts.append(f"It cannot {' or '.join(barred)}.")
    if not rule.spins_when_attacked:
        parts.append(f"Attacked, it does not spin: it counts as a {miss} (Red).")
    elif not rule.can_initiate:
        parts.append(f"Attacked, it still spins its {terms.data_disk} as usual.")
    if rule.can_be_passed:
        parts.append("Opposing units may move past it.")
    if rule.cured_when_attacked:
        parts.append("The effect ends when it is attacked.")
    if rule.wake_by_spin:
        parts.append(f"At the start of its owner's turn, the owner may spend the move to spin it: anything "
                     f"but a {miss} ends the effect.")
    if rule.cured_after_own_turns:
        parts.append(f"The effect ends after it has been on the field for {rule.cured_after_own_turns} of its "
                     "owner's turns.")
    return " ".join(parts)


def status_table(theme: Theme) -> Table:
    miss = theme.colors[Color.RED]
    rows = tuple((theme.statuses[sid], describe_status(rule, theme.terms, miss))
                 for sid, rule in VARIANTS[theme.status_variant].items())
    return Table((theme.terms.status, "Effect"), rows, row_headers=True)


def d10_table() -> Table:
    rows = []
    for tens in range(10):
        cells = []
        for ones in range(10):
            roll = d10_pair_to_roll(tens, ones)
            cells.append(f"{roll:02d}" if roll else "again")
        rows.append((str(tens), *cells))
    classes = tuple(("head", *("draw" if cell == "again" else "" for cell in row[1:])) for row in rows)
    return Table(("tens \\ ones", *(str(o) for o in range(10))), tuple(rows), classes, row_headers=True, compact=True)


def surround_figure(db: Database) -> Figure:
    """The goal of side B, surrounded by side A's units: drawn from the board graph itself."""
    board = db.board
    graph = board.graph()
    target = board.goal(Player.B)
    neighbours = sorted(graph.neighbors(target))
    shown = [target, *neighbours]
    for node in neighbours:
        shown += [n for n in sorted(graph.neighbors(node)) if n not in shown]
    xs = [board.nodes[n].x for n in shown]
    ys = [board.nodes[n].y for n in shown]
    scale = 0.5
    pad = 10.0
    left, top = min(xs), min(ys)

    def at(name: str) -> tuple[float, float]:
        node = board.nodes[name]
        return pad + (node.x - left) * scale, pad + (node.y - top) * scale

    width = (max(xs) - left) * scale + 2 * pad
    height = (max(ys) - top) * scale + 2 * pad
    items: list[Shape] = []
    for a, b in sorted(graph.edges(shown)):
        if a in shown and b in shown:
            (x1, y1), (x2, y2) = at(a), at(b)
            items.append(Line(x1, y1, x2, y2, Style(stroke=INK, width=0.5)))
    radius = board.token_diameter_mm * scale / 2
    for name in shown:
        x, y = at(name)
        if name == target:
            items += [Circle(x, y, radius, filled(TEAM[Player.B].fill, INK, 0.4)),
                      Text(x, y + 1.2, "B", 8, "bold", TEAM[Player.B].ink, "middle")]
        elif name in neighbours:
            items += [Circle(x, y, radius, filled(TEAM[Player.A].fill, INK, 0.4)),
                      Text(x, y + 1.2, "A", 8, "bold", TEAM[Player.A].ink, "middle")]
        else:
            items.append(Circle(x, y, radius, filled("#ffffff", INK, 0.4)))
    caption = (f"B's {db.theme.terms.goal} has {len(neighbours)} neighbouring points; A occupies all of them, so "
               f"the B unit there is {db.theme.terms.deactivated} without a battle.")
    return Figure(Page(width, height, items), caption)


_ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth")


def _ordinal(n: int) -> str:
    """3 -> 'third': the arrival that overflows the Repair Bay, worded from its capacity."""
    return _ORDINALS[n - 1] if 1 <= n <= len(_ORDINALS) else f"{n}th"


def build_manual(db: Database, sides: dict[Player, Squad | None] | None = None, with_d10_table: bool = True) -> Manual:
    """The manual of a database: how to set up and play (the teaching pages), then the reference. `sides`:
    the squads each side plays (the kit's; default the first two by id); `with_d10_table`: False in a kit,
    whose d10 sheet prints the table (so it is printed once)."""
    theme = db.theme
    t = theme.terms
    miss = theme.colors[Color.RED]
    priority = " > ".join(color_label(theme, c) for c in combat.priority_order())
    if sides is None:
        squads = [entry.value for _, entry in sorted(db.squads.items())]
        sides = {Player.A: squads[0] if squads else None,
                 Player.B: squads[1] if len(squads) > 1 else (squads[0] if squads else None)}
    teach = teach_sections(db, sides, {c: color_label(theme, c) for c in Color})
    sections = [
        teach["setup"],
        teach["battle"],
        Section("matrix", "Attack priority matrix", (
            Para(f"Both units spin their {t.data_disk} (a number 1-{constants.DISK_TOTAL} on the unit's "
                 f"{t.schematic}). Rows are the attacker's colour, columns the defender's. Priority: {priority}. "
                 "White and Gold compare damage after every modifier, Purple against Purple compares stars; "
                 "equal numbers are a draw."),
            matrix_table(theme),
            Bullets((f"A White or Gold win: the loser is {t.deactivated} and goes to the {t.repair_bay}; "
                     "the winner stays where it is.",
                     "A Purple win: its effect happens (often a status or a push); nobody is knocked out.",
                     "A Blue win: usually a wash, nothing happens unless its text says so.",
                     f"A {miss} never wins.",
                     "A draw: nothing happens; both units stay where they are and the turn ends.")),
        )),
        Section("statuses", t.statuses, (
            Para(f"A unit has at most one {t.status.lower()}: a new one replaces the old. All are cleared "
                 f"when the unit is {t.deactivated}."),
            status_table(theme),
        )),
        Section("turn", "Turn sequence", (
            Bullets((f"{t.module} phase: you may use one of your {t.modules} (each once per duel). A re-spin "
                     f"{t.module.lower()} is used here too, before you move: it lets the unit that battles this "
                     "turn spin again once, after seeing the spins.",
                     f"{t.subroutine} phase: you may activate one {t.subroutine}; many end the turn.",
                     f"Move (mandatory): move one unit on the field, or deploy one from your {t.hangar}.",
                     "Battle (optional): if the moved unit ends next to an enemy unit, you may battle it."),
                    ordered=True),
            Para("Phases never go back: once you move, the module and subroutine phases are over. "
                 f"The first player's first move has {constants.FIRST_TURN_MP_PENALTY} {t.mp} less (so a "
                 f"{constants.DEPLOY_COST_MP} {t.mp} unit cannot deploy on that move)."),
        )),
        Section("movement", "Movement and deployment", (
            Bullets((f"A unit moves along routes up to its {t.mp} ({t.mp_long}), never through another unit.",
                     f"Deploying onto a free {t.entry} of your own costs {constants.DEPLOY_COST_MP} {t.mp}; "
                     "leftover MP continues the move.",
                     f"An occupied {t.entry} (by anyone) cannot be used to deploy.",
                     f"Units with {t.wait} cannot be selected on their owner's next turn.")),
        )),
        Section("surround", t.surround, (
            Para(f"After a move, any enemy unit whose every neighbouring point is occupied by the mover's units "
                 f"is {t.deactivated} at once, without a battle. The enemy units are removed first; then the "
                 "mover's own units are checked (one freed by those removals survives)."),
            surround_figure(db),
            surround_example(db, t),
        )),
        Section("repair", f"{t.repair_bay} and {t.wait}", (
            Bullets((f"{t.deactivated} units go to their owner's {t.repair_bay}, which holds "
                     f"{constants.REPAIR_BAY_CAPACITY}.",
                     f"A {_ordinal(constants.REPAIR_BAY_CAPACITY + 1)} arrival pushes the unit that has waited longest "
                     f"back to the {t.hangar} with "
                     f"{t.wait} {constants.WAIT_TURNS}: it cannot be selected on its owner's next turn.",
                     f"Units whose {t.subroutine} removes them from the duel go nowhere.",
                     f"The {t.hangar} has {constants.HANGAR_SLOTS} places; a squad is {constants.SQUAD_UNITS} units "
                     f"and up to {constants.SQUAD_MAX_MODULES} different {t.modules}.")),
            repair_cycle(db, sides, t),
        )),
        Section("victory", "Victory", (
            Bullets((f"{t.goal_capture}: put one of your units on the enemy {t.goal} by a move, a {t.module.lower()} "
                     "or its own Purple move; the duel ends at once. A unit the opponent pushes there does not win.",
                     f"{t.time_out}: both {t.players} have a {constants.CLOCK_MINUTES}-minute clock that runs on their "
                     "own turn; whoever runs out loses.",
                     f"{t.lockout}: {t.players} with no legal move at the start of their turn lose.")),
        )),
        teach["upgrades"],
        Section("modules", t.modules, (
            Table(("Name", "Effect"), tuple((entry.value.name, entry.value.text)
                                            for _, entry in sorted(db.modules.items())), row_headers=True)
            if db.modules else Para(f"This database has no {t.modules}."),
        )),
        Section("d10", f"{t.data_disk} without a spinner: the d10 table", (
            Para(f"Roll two d10 of different colours, tens then ones; 0-0 reads 100. 01-{constants.DISK_TOTAL} "
                 f"are the ranges on the {t.schematic}; {constants.DISK_TOTAL + 1}-100: roll both again (so every "
                 "number is exactly as likely as on a spinner)."),
            d10_table() if with_d10_table else Para("The table is on the d10 sheet of this kit: find the tens "
                                                 "die's row and the ones die's column."),
        )),
        teach["rulings"],
    ]
    sections = [section if section.id == "modules" else themed_section(section, theme) for section in sections]
    quick = tuple(themed_section(section, theme) for section in (
        Section("q-turn", "Turn", (Bullets((f"{t.module}", f"{t.subroutine}",
                                            f"Move a unit, or deploy one (the {t.entry} costs "
                                            f"{constants.DEPLOY_COST_MP} {t.mp})",
                                            "Battle (optional)"),
                                           ordered=True),)),
        Section("q-matrix", "Who wins", (matrix_table(theme),)),
        Section("q-rules", "Remember", (Bullets((
            f"{t.surround}: all neighbours enemy = {t.deactivated}.",
            f"{t.repair_bay} holds {constants.REPAIR_BAY_CAPACITY}; the {_ordinal(constants.REPAIR_BAY_CAPACITY + 1)} "
            f"pushes the oldest out with {t.wait} "
            f"{constants.WAIT_TURNS}.",
            f"First move: {t.mp} - {constants.FIRST_TURN_MP_PENALTY}.",
            f"Win: {t.goal_capture}, {t.time_out} ({constants.CLOCK_MINUTES} min), {t.lockout}.",
            f"d10: 01-{constants.DISK_TOTAL}; {constants.DISK_TOTAL + 1}-100 roll again.")),)),
        Section("q-status", t.statuses, (Bullets(tuple(
            f"{theme.statuses[sid]}: {describe_status(rule, t, miss)}"
            for sid, rule in VARIANTS[theme.status_variant].items())),)),
    ))
    return Manual(theme.id, f"{t.game}: protocol manual",
                  f"Rules reference · with the {t.modules} of this set", tuple(sections), quick)


def themed_section(section: Section, terms: Theme) -> Section:
    """A generated section in the project's own words (`themed`): every paragraph, list item, table cell
    and caption. Data text (the module table) is the designer's and is left as written."""
    blocks: list[Block] = []
    for block in section.blocks:
        if isinstance(block, Para):
            blocks.append(Para(themed(block.text, terms)))
        elif isinstance(block, Bullets):
            blocks.append(replace(block, items=tuple(themed(item, terms) for item in block.items)))
        elif isinstance(block, Table):
            blocks.append(replace(block, header=tuple(themed(cell, terms) for cell in block.header),
                                  rows=tuple(tuple(themed(cell, terms) for cell in row) for row in block.rows)))
        else:
            blocks.append(Figure(block.page, themed(block.caption, terms)))
    return Section(section.id, themed(section.title, terms), tuple(blocks))


def segment_swatches() -> dict[str, tuple[str, str]]:
    """Fill and ink of each colour, for the renderers."""
    return {color.value: (swatch.fill, swatch.ink) for color, swatch in SEGMENT.items()}
