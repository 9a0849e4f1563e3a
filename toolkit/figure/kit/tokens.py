"""Unit tokens, status markers and Wait markers, laid out in cut-out grids on the paper.

A unit token is a disc exactly as wide as the board's token diameter, filled in its team colour, with
the unit's short designation, its name (when it fits) and its MP. Each side gets a token for every unit
of its squad and for every upgrade form those units can reach. Markers are smaller discs that sit on a
token: one set of every status of the theme, and Wait markers. Every piece is printed with bleed (its
colour runs TOKEN_BLEED past its thin cut line, `toolkit.kit.bleed`), so a cut a little wide shows no paper.
With `--layout fold` each piece is printed beside its back (the same face) to fold and glue (`toolkit.kit.fold`).
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cached_property, partial

from toolkit.figure.kit.context import KitContext, look_key
from toolkit.figure.model import Unit
from toolkit.kit.art import framed
from toolkit.kit.bleed import CUT_NOTE, TOKEN_BLEED, Cutout, Trim, placed_guides
from toolkit.kit.component import Component
from toolkit.kit.fits import data_spot
from toolkit.kit.fold import FOLD_NOTE, PAIR_GAP, FoldPair
from toolkit.kit.memo import Same, computed_for, laid_out_reporting
from toolkit.kit.palette import INK, MUTED, RULE, TEAM
from toolkit.players import PLAYERS, Player
from toolkit.render.fonts import printable, text_width
from toolkit.render.impose import PAPER_SIZES
from toolkit.render.scene import PT_TO_MM, Circle, FontName, Group, Line, Page, Shape, Style, Text
from toolkit.render.textfit import fit_line

PAGE_MARGIN = 8.0  # to the cut line; the bleed ends TOKEN_BLEED nearer the edge, still clear of SHEET_MARGIN
TOKEN_GAP = 4.0  # between neighbouring cut lines: room for scissors, and paper between the two bleeds
MARKER_DIAMETER = 14.0
STATUS_COPIES = 3
WAIT_COPIES = 6
HEADING_SIZE = 9.0
SUBHEADING_SIZE = 7.0
SECTION_GAP = 6.0
ASCENT, DESCENT = 0.8, 0.25  # of the font size, for keeping text inside a disc
INSET = 1.2  # text keeps this far from a disc's edge (inside the TOKEN_SAFE zone)
MARKER_RING = 0.9  # a marker's inner ring sits this far inside its cut line
RING_CLEAR = 0.5  # words on a token or marker keep this far inside its ring (the ring's line included)
NOTE_SIZE = 6.5
STATUS_FILLS = {  # light tints keyed by internal status id, so markers differ at a glance and stay legible
    "poison": "#e3d2ef", "noxious": "#cdb0e3", "paralysis": "#fbeea0", "burn": "#f8c9a8",
    "confusion": "#f5c6dc", "sleep": "#cfdcec", "frozen": "#c8eef2",
}
MARKER_FILL = "#eeeeee"
WAIT_FILL, WAIT_INK = "#3d3d3d", "#ffffff"


@dataclass(frozen=True)
class Disc:
    """One piece to cut out: a disc of `diameter` about (0, 0), filled to its bleed. Every figure token
    reads the same from both sides: folded (`--layout fold`), its back repeats its front."""

    diameter: float
    piece: Cutout

    @cached_property
    def art(self) -> tuple[Shape, ...]:
        """As printed on the token sheet: with bleed and cut line (made once: a remembered token is the
        same object at every rebuild)."""
        return self.piece.printed()

    def pair(self) -> FoldPair:
        return FoldPair(self.piece, self.piece)


def _disc(diameter: float, fill: str, ink: str, art: list[Shape]) -> Disc:
    return Disc(diameter, Cutout(Trim.disc(0, 0, diameter), fill, ink, tuple(art)))


@dataclass(frozen=True)
class Section:
    heading: str
    rows: tuple[tuple[str, tuple[Disc, ...]], ...]  # (sub-heading or "", discs) laid out in a grid
    column_major: int = 0  # when > 0, discs fill columns of this height (one marker kind per column)


# --- text inside a disc ------------------------------------------------------------------------------

def _half_chord(r: float, y: float) -> float:
    return math.sqrt(max(0.0, r * r - y * y))


def line_room(r: float, baseline: float, size: float, inset: float = INSET) -> float:
    """Widest text whose box (ascent above, descent below the baseline) stays `inset` inside a disc of
    radius r."""
    top = baseline - size * PT_TO_MM * ASCENT
    bottom = baseline + size * PT_TO_MM * DESCENT
    reach = max(abs(top), abs(bottom))  # the narrowest chord the text box meets
    return 2 * _half_chord(r - inset, reach) if reach < r - inset else 0.0


def _words(text: str) -> list[str]:
    """Break opportunities: spaces, and after a hyphen ('Cryo-' / 'Stasis')."""
    return [part for word in text.split() for part in re.findall(r"[^-]+-?|-", word)]


def _wrap_words(text: str, width: float, font: FontName, size: float) -> list[str] | None:
    """Greedy wrap that never breaks inside a word; None when a single word is wider than the line."""
    lines: list[str] = []
    for word in _words(text):
        if text_width(word, font, size) > width:
            return None
        if lines:
            joiner = "" if lines[-1].endswith("-") else " "
            if text_width(lines[-1] + joiner + word, font, size) <= width:
                lines[-1] += joiner + word
                continue
        lines.append(word)
    return lines


def fit_in_disc(text: str, r: float, centre_y: float, font: FontName, size: float, min_size: float,
                max_lines: int, color: str, inset: float = INSET) -> list[Text] | None:
    """Centred lines around `centre_y` that stay `inset` inside the disc of radius r, wrapped at words and
    shrunk; None if the text cannot be shown whole."""
    text = printable(text, font)
    current = size
    while current >= min_size - 1e-6:
        height = current * PT_TO_MM * 1.12
        for count in range(1, max_lines + 1):
            first = centre_y - (count - 1) * height / 2 + current * PT_TO_MM * (ASCENT - DESCENT) / 2
            baselines = [first + i * height for i in range(count)]
            width = min(line_room(r, b, current, inset) for b in baselines)
            lines = _wrap_words(text, width, font, current) if width > 0 else None
            if lines is not None and len(lines) <= count:
                baselines = baselines[:len(lines)] if len(lines) == count else [
                    centre_y - (len(lines) - 1) * height / 2 + current * PT_TO_MM * (ASCENT - DESCENT) / 2
                    + i * height for i in range(len(lines))]
                pairs = zip(baselines, lines, strict=True)
                return [Text(0, base, line, current, font, color, "middle") for base, line in pairs]
        current -= 0.25
    return None


def abbreviate(name: str) -> str:
    """'Logic Scramble' -> 'Logic Scr.'; single long words keep their first six letters."""
    words = name.split()
    if len(words) == 1:
        return name if len(name) <= 7 else name[:6] + "."
    return " ".join([words[0]] + [w if len(w) <= 4 else w[:3] + "." for w in words[1:]])


# --- the pieces --------------------------------------------------------------------------------------

def designation(unit: Unit) -> str:
    """The short code printed big on a token: the unit id in capitals (v-k4 -> V-K4)."""
    return unit.id.upper()


def short_name(unit: Unit, unit_word: str) -> str:
    """The name without its designation and without the theme's generic unit word."""
    words = unit.name.split()
    if words and words[-1].upper() == designation(unit):
        words = words[:-1]
    text = " ".join(words)
    if unit_word and text.lower().endswith(" " + unit_word.lower()):
        text = text[: -len(unit_word) - 1]
    return text.strip()


def unit_token(ctx: KitContext, unit: Unit, side: Player) -> Disc:
    """A unit's token for one side. Laid out once per watch for the same unit, side, art, token size and
    theme (`laid_out_reporting`: its text cut short is reported again at each rebuild)."""
    inputs = (Same(unit), side, ctx.db.board.token_diameter_mm, ctx.db.art.get(("unit", unit.id)), look_key(ctx))
    return laid_out_reporting("unit_token", inputs, ctx.fits, partial(_unit_token, ctx, unit, side))


def _unit_token(ctx: KitContext, unit: Unit, side: Player) -> Disc:
    team = TEAM[side]
    diameter = ctx.db.board.token_diameter_mm
    r = diameter / 2
    s = diameter / 24  # the art is designed at 24 mm and scales with the board's token size
    ring = r - 1.3 * s  # every word fits inside the ring, not just inside the cut line
    art: list[Shape] = [Circle(0, 0, ring, Style(stroke=team.ink, width=0.25))]
    code_base = 1.9 * s
    code_size = 13.0 * s
    # measured for the largest size: a smaller size only has more room
    code = fit_line(designation(unit), line_room(ring, code_base, code_size, RING_CLEAR), "bold", code_size, 6)
    if code.overflow:
        ctx.fits.cut(data_spot(unit.id, "id"), unit.id)
    art.append(Text(0, code_base, code.lines[0], code.size, "bold", team.ink, "middle"))
    name = short_name(unit, ctx.theme.terms.unit)
    picture = ctx.db.art.get(("unit", unit.id))
    if picture is not None:  # the unit's picture in a small frame above its code, where the name would go
        box = 6.5 * s
        art += framed(picture, -box / 2, -6.2 * s - box / 2 - 0.6 * s, box, box, team.ink, width=0.2)
    elif name:  # the name, else its short form (Conductor-Class -> Conductor-Cl.): a token names its unit
        lines = (fit_in_disc(name, ring, -6.2 * s, "condensed", 5.5 * s, 4.0, 1, team.ink, RING_CLEAR)
                 or fit_in_disc(abbreviate(name), ring, -6.2 * s, "condensed", 5.5 * s, 4.0, 1, team.ink, RING_CLEAR))
        art += lines or []
    mp = fit_in_disc(f"{ctx.theme.terms.mp} {unit.mp}", ring, 6.9 * s, "bold", 7.0 * s, 5.0, 1, team.ink, RING_CLEAR)
    if mp is None:
        ctx.fits.cut(data_spot(unit.id, "mp"), f"{ctx.theme.terms.mp} {unit.mp}")
    art += mp or []
    return _disc(diameter, team.fill, team.ink, art)


def status_marker(ctx: KitContext, status_id: str) -> Disc:
    r = MARKER_DIAMETER / 2
    ring = r - MARKER_RING  # the words fit inside the ring, not just the cut line (they sat on the ring)
    name = ctx.theme.statuses[status_id]
    art: list[Shape] = [Circle(0, 0, ring, Style(stroke=MUTED, width=0.2))]
    lines = (fit_in_disc(name, ring, 0, "condensed-bold", 6.5, 4.5, 2, INK, RING_CLEAR)
             or fit_in_disc(abbreviate(name), ring, 0, "condensed-bold", 6.5, 4.5, 2, INK, RING_CLEAR))
    if lines is None:
        ctx.fits.note(f"status marker '{name}' does not fit a {MARKER_DIAMETER:g} mm marker and was cut short",
                      THEME_HINT)
        fitted = fit_line(name, line_room(ring, 1.0, 4.5, RING_CLEAR), "condensed-bold", 4.5, 4.5)
        lines = [Text(0, 1.0, fitted.lines[0], fitted.size, "condensed-bold", INK, "middle")]
    art += lines
    return _disc(MARKER_DIAMETER, STATUS_FILLS.get(status_id, MARKER_FILL), INK, art)


def wait_marker(ctx: KitContext) -> Disc:
    r = MARKER_DIAMETER / 2
    ring = r - MARKER_RING
    word = ctx.theme.terms.wait
    art: list[Shape] = [Circle(0, 0, ring, Style(stroke=WAIT_INK, width=0.2))]
    lines = fit_in_disc(word, ring, -2.2, "condensed-bold", 6.0, 4.0, 1, WAIT_INK, RING_CLEAR)
    if lines is None:
        ctx.fits.note(f"Wait marker word '{word}' does not fit a {MARKER_DIAMETER:g} mm marker", THEME_HINT)
        fitted = fit_line(word, line_room(ring, -1.4, 4.0, RING_CLEAR), "condensed-bold", 4.0, 4.0)
        lines = [Text(0, -1.4, fitted.lines[0], fitted.size, "condensed-bold", WAIT_INK, "middle")]
    art += lines
    art.append(Text(0, 4.6, "1", 11.0, "bold", WAIT_INK, "middle"))
    return _disc(MARKER_DIAMETER, WAIT_FILL, WAIT_INK, art)


THEME_HINT = "use a shorter name in the theme"


# --- what each side gets -----------------------------------------------------------------------------

def upgrade_forms(units: dict[str, Unit], start: Iterable[str]) -> list[str]:
    """Every form reachable through `upgrades_to` from `start`, in chain order, without repeats."""
    seen = set(start)
    forms: list[str] = []
    for uid in start:
        current = units.get(uid)
        while current is not None and current.upgrades_to and current.upgrades_to not in seen:
            seen.add(current.upgrades_to)
            forms.append(current.upgrades_to)
            current = units.get(current.upgrades_to)
    return [form for form in forms if form in units]


def side_units(ctx: KitContext, side: Player) -> tuple[str, list[Unit], list[Unit]]:
    """(heading, squad units, upgrade forms) for one side; with no squads every unit, and no extra forms."""
    units = {unit.id: unit for unit in ctx.units()}
    squad = ctx.squads_by_side()[side]
    player = ctx.theme.terms.player
    if squad is None:
        return f"{player} {side} — {ctx.theme.terms.units}", list(units.values()), []
    members = [units[uid] for uid in squad.units if uid in units]
    forms = [units[uid] for uid in upgrade_forms(units, [u.id for u in members])]
    return f"{player} {side} — {squad.name or squad.id}", members, forms


def sections(ctx: KitContext) -> list[Section]:
    result: list[Section] = []
    for side in PLAYERS:
        heading, members, forms = side_units(ctx, side)
        rows: list[tuple[str, tuple[Disc, ...]]] = [
            ("", tuple(unit_token(ctx, u, side) for u in members for _ in range(u.copies)))]
        if forms:
            rows.append((ctx.theme.terms.upgrade, tuple(unit_token(ctx, u, side) for u in forms)))
        listed = {u.id for u in members} | {u.id for u in forms}
        others = [u for u in ctx.units() if u.id not in listed]
        if others:  # so a designer can swap squad members without drawing tokens by hand
            rows.append((f"Other {ctx.theme.terms.units.lower()}",
                         tuple(unit_token(ctx, u, side) for u in others)))
        result.append(Section(heading, tuple(rows)))
    markers: list[Disc] = []
    for status_id in ctx.theme.statuses:
        markers += [status_marker(ctx, status_id)] * STATUS_COPIES
    wait = wait_marker(ctx)
    markers += [wait] * WAIT_COPIES
    heading = f"{ctx.theme.terms.statuses} · {ctx.theme.terms.wait}"
    result.append(Section(heading, (("", tuple(markers)),), column_major=STATUS_COPIES))
    return result


# --- layout ------------------------------------------------------------------------------------------

class _Sheets:
    """Fills pages top to bottom; a band of discs that does not fit starts a new page. Every page says
    how to cut, at the right of its first heading."""

    def __init__(self, paper: str, fold: bool) -> None:
        self.width, self.height = PAPER_SIZES[paper]
        self.pages: list[Page] = []
        self.y = self.height  # forces a first page
        self.fold = fold
        self.note = fit_line(FOLD_NOTE if fold else CUT_NOTE, (self.width - 2 * PAGE_MARGIN) / 2, "regular",
                             NOTE_SIZE, 5.5)

    def new_page(self) -> None:
        label = f"Tokens {len(self.pages) + 1}" + (" (fold)" if self.fold else "")
        self.pages.append(Page(self.width, self.height, label=label, folds="tokens" if self.fold else ""))
        self.y = PAGE_MARGIN
        self.add(Text(self.width - PAGE_MARGIN, PAGE_MARGIN + HEADING_SIZE * PT_TO_MM * ASCENT, self.note.lines[0],
                      self.note.size, "regular", MUTED, "end"))

    def note_room(self) -> float:
        """What the cut note leaves of the width for a heading on the same line."""
        return text_width(self.note.lines[0], "regular", self.note.size) + 4.0

    def room(self) -> float:
        return self.height - PAGE_MARGIN - self.y

    def add(self, *items: Shape) -> None:
        self.pages[-1].add(*items)


def _grid_columns(cell_w: float, area_w: float, gap: float = TOKEN_GAP) -> int:
    return max(1, int((area_w + gap + 1e-6) // (cell_w + gap)))


def _heading_height(size: float) -> float:
    """From the top of a heading to the cut line of the discs under it: the bleed keeps clear of the
    heading's rule (2 mm) or of a sub-heading's letters (1 mm)."""
    return size * PT_TO_MM * 1.25 + (2.0 if size == HEADING_SIZE else 1.0) + TOKEN_BLEED


def _heading(sheets: _Sheets, text: str, size: float, color: str, x: float, width: float) -> None:
    text_room = width - (sheets.note_room() if sheets.y == PAGE_MARGIN else 0.0)  # beside the cut note
    fitted = fit_line(text, text_room, "bold", size, 6)
    sheets.add(Text(x, sheets.y + size * PT_TO_MM * ASCENT, fitted.lines[0], fitted.size, "bold", color))
    if size == HEADING_SIZE:
        rule_y = sheets.y + size * PT_TO_MM * 1.25
        sheets.add(Line(x, rule_y, x + width, rule_y, Style(stroke=RULE, width=0.3)))
    sheets.y += _heading_height(size)


def _place(discs: tuple[Disc, ...], column_major: int, cols: int) -> list[tuple[int, int, Disc]]:
    """(row, column, disc); column-major fills columns of `column_major` discs, so each kind lines up."""
    if column_major:
        return [(i % column_major, i // column_major, disc) for i, disc in enumerate(discs)]
    return [(i // cols, i % cols, disc) for i, disc in enumerate(discs)]


def _footprint(disc: Disc, fold: bool) -> tuple[float, float]:
    """The width and height a piece takes on the sheet: its disc, or its glue-and-fold pair."""
    if fold:
        pair = disc.pair()
        return pair.w, pair.h
    return disc.diameter, disc.diameter


def _draw(sheets: _Sheets, disc: Disc, cx: float, cy: float) -> None:
    """The piece (or its pair) centred on (cx, cy), with its guides."""
    if sheets.fold:
        pair = disc.pair()
        x, y = cx - pair.w / 2, cy - pair.h / 2
        sheets.add(Group(pair.printed(), dx=x, dy=y))
        sheets.pages[-1].guides.append(Group(pair.guides(), dx=x, dy=y))
        return
    # a token laid out once is placed as the same objects again in a watch (`computed_for`): its page's
    # hash and smallest text are then found again, not computed
    sheets.add(computed_for("placed_token", disc.art, partial(Group, disc.art, dx=cx, dy=cy), (cx, cy)))
    sheets.pages[-1].guides.append(computed_for("token_guides", disc, partial(placed_guides, disc.piece, cx, cy),
                                                (cx, cy)))


def layout(ctx: KitContext, all_sections: list[Section]) -> list[Page]:
    """Each section under its heading, its pieces in a grid of cells as large as its largest piece (its
    glue-and-fold pair with `--layout fold`)."""
    fold = ctx.options.layout == "fold"
    gap = PAIR_GAP if fold else TOKEN_GAP  # a glue-and-fold pair has FOLD_ROOM of paper inside its outline
    sheets = _Sheets(ctx.paper, fold)
    area_w = sheets.width - 2 * PAGE_MARGIN
    for section in all_sections:
        sizes = ([_footprint(disc, fold) for _, discs in section.rows for disc in discs]
                 or [_footprint(_disc(MARKER_DIAMETER, MARKER_FILL, INK, []), fold)])
        cell_w, cell_h = max(w for w, _ in sizes), max(h for _, h in sizes)
        pitch_x, pitch_y = cell_w + gap, cell_h + gap
        cols = _grid_columns(cell_w, area_w, gap)
        if section.column_major:
            cols = max(1, cols)
        first_band = (_heading_height(HEADING_SIZE) + (_heading_height(SUBHEADING_SIZE) if section.rows[0][0] else 0)
                      + cell_h)
        if sheets.pages and sheets.y > PAGE_MARGIN:
            sheets.y += SECTION_GAP
        if not sheets.pages or sheets.room() < first_band:
            sheets.new_page()
        _heading(sheets, section.heading, HEADING_SIZE, INK, PAGE_MARGIN, area_w)
        for label, discs in section.rows:
            if not discs:
                continue
            if label:
                if sheets.room() < _heading_height(SUBHEADING_SIZE) + cell_h:
                    sheets.new_page()
                    _heading(sheets, section.heading, HEADING_SIZE, INK, PAGE_MARGIN, area_w)
                _heading(sheets, label, SUBHEADING_SIZE, MUTED, PAGE_MARGIN, area_w)
            placed = _place(discs, section.column_major, cols)
            if section.column_major:  # wrap whole columns onto further bands
                per_band = cols
                placed = [(row + (col // per_band) * section.column_major, col % per_band, disc)
                          for row, col, disc in placed]
            top_row = 0
            band_top = sheets.y
            for row in sorted({row for row, _, _ in placed}):
                if band_top + (row - top_row) * pitch_y + cell_h > sheets.height - PAGE_MARGIN + 1e-6:
                    sheets.new_page()
                    _heading(sheets, section.heading, HEADING_SIZE, INK, PAGE_MARGIN, area_w)
                    band_top, top_row = sheets.y, row
                for _, col, disc in (p for p in placed if p[0] == row):
                    w, _ = _footprint(disc, fold)
                    cx = PAGE_MARGIN + w / 2 + col * pitch_x + (cell_w - w) / 2
                    cy = band_top + (row - top_row) * pitch_y + cell_h / 2
                    _draw(sheets, disc, cx, cy)
                sheets.y = band_top + (row - top_row) * pitch_y + cell_h + gap
    return sheets.pages


def build_tokens(ctx: KitContext) -> Component:
    pages = layout(ctx, sections(ctx))
    pieces = [(f"tokens-p{i}", page) for i, page in enumerate(pages, start=1)]
    return Component("tokens", "Tokens", pages=pages, pieces=pieces, warnings=ctx.fits.drain())
