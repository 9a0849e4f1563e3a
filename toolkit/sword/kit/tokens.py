"""sword-duel token sheet: the range track (three range tokens and the position token), each player's
initiative tokens up to the highest Initiative the kit's techniques allow, the evade tokens, and each
player's Momentum / Balance / Health track markers.

Every piece carries its own thin cut line (the disc or square outline) in its contrasting ink, and its
colour runs TOKEN_BLEED past that line (`toolkit.kit.bleed`), with room for scissors between pieces.
With `--layout fold` each piece is printed beside its back to fold and glue (`toolkit.kit.fold`): the
same face, except an initiative token's, whose back hides its value.
"""

from __future__ import annotations

from dataclasses import dataclass

from toolkit.kit.bleed import CUT_NOTE, TOKEN_BLEED, Cutout, Trim, placed_guides
from toolkit.kit.component import Component
from toolkit.kit.fold import FOLD_NOTE, PAIR_GAP, FoldPair
from toolkit.kit.palette import INK
from toolkit.players import Player
from toolkit.render.fonts import text_width
from toolkit.render.impose import PAPER_SIZES
from toolkit.render.scene import Circle, Group, Line, Page, Rect, Shape, Style, Text, filled
from toolkit.sword.context import SwordContext
from toolkit.sword.kit.common import (
    EVADE_TOKENS,
    LOOKS,
    MUTED_INK,
    RANGE_FILL,
    RANGE_NAME,
    RANGE_ORDER,
    RULE_INK,
    SUMI,
    VERMILION,
    Cuts,
    PlayerLook,
    icon,
    initiative_values,
    ring_pattern,
)
from toolkit.sword.rules.positions import Range

MARGIN = 12.0
ROW_HEAD = 12.0  # a row's heading, note and rule, above the bleed of its pieces
ROW_SPACE = 9.0  # from a row's last cut line to the next row's heading
GAP = 5.0  # between cut lines: room for scissors, and paper between the bleeds
DISC = 20.0  # initiative and position tokens
EVADE_DISC = 13.0  # evade tokens sit in the mats' 14 mm turn boxes
MARKER = 14.0  # track markers: they sit in the mats' 17 mm track boxes
SQUARE = 40.0  # range tokens
EVADE_FILL = "#e9e3d6"

RANGE_RULE = {
    Range.APART: "No attacks · Insight only",
    Range.SWORD: "Attack and Defend",
    Range.CLOSE: "Attacks +1 · close techniques",
}
RANGE_GAP = {Range.APART: 7.0, Range.SWORD: 4.2, Range.CLOSE: 1.9}  # half the pictogram's distance, mm


@dataclass(frozen=True)
class Token:
    """One piece to cut out, with (0, 0) at the top-left of its w x h trim footprint. `back`: what its
    other side shows when folded (`--layout fold`); None when the back repeats the front."""

    kind: str  # initiative / range / position / evade / marker
    label: str  # the value or name it shows
    side: Player | None  # None for shared pieces
    w: float
    h: float
    piece: Cutout
    back: Cutout | None = None

    @property
    def art(self) -> tuple[Shape, ...]:
        """As printed on the token sheet: with bleed and cut line."""
        return self.piece.printed()

    def pair(self) -> FoldPair:
        return FoldPair(self.piece, self.back or self.piece)


def _round(diameter: float, fill: str, ink: str, art: list[Shape]) -> Cutout:
    """A disc whose `art` is drawn about its centre, in a footprint with (0, 0) at its top-left."""
    r = diameter / 2
    return Cutout(Trim.disc(r, r, diameter), fill, ink, (Group(tuple(art), dx=r, dy=r),))


def _disc(kind: str, label: str, side: Player | None, diameter: float, fill: str, ink: str,
          art: list[Shape], back: Cutout | None = None) -> Token:
    """A round piece whose `art` is drawn about its centre."""
    return Token(kind, label, side, diameter, diameter, _round(diameter, fill, ink, art), back)


def _initiative_face(side: PlayerLook) -> list[Shape]:
    """What both sides of an initiative token show: the player's colour, pattern ring and frame."""
    r = DISC / 2
    return [*ring_pattern(side, r - 0.5, r - 2.3, side.pattern_ink), Circle(0, 0, r - 2.5, Style(stroke=side.ink,
                                                                                                width=0.3))]


INITIATIVE_BASELINE = 6.2  # the word clear of the value above and inside the frame ring (6.6 put it on the ring)


def initiative_token(side: PlayerLook, value: int) -> Token:
    art = _initiative_face(side)
    art += [Text(0, 3.6, str(value), 19, "bold", side.ink, "middle"),
            Text(0, -4.4, side.key, 6, "bold", side.ink, "middle"),
            Text(0, INITIATIVE_BASELINE, "INITIATIVE", 3.6, "condensed-bold", side.ink, "middle")]
    return _disc("initiative", str(value), side.player, DISC, side.fill, side.ink, art, initiative_back(side))


def initiative_back(side: PlayerLook) -> Cutout:
    """The other side of an initiative token (`--layout fold`): the player's colour, pattern, letter and
    INITIATIVE, but no value. Speed is secret and a token is shown only when evades are resolved, so it
    waits face down without giving the Initiative away."""
    art = _initiative_face(side)
    art += [Text(0, 3.0, side.key, 15, "bold", side.ink, "middle"),
            Text(0, INITIATIVE_BASELINE, "INITIATIVE", 3.6, "condensed-bold", side.ink, "middle")]
    return _round(DISC, side.fill, side.ink, art)


def evade_token() -> Token:
    r = EVADE_DISC / 2
    art: list[Shape] = [Circle(0, 0, r - 0.9, Style(stroke=SUMI, width=0.25, dash=(0.8, 0.6)))]
    art += icon("evade", 0, -1.4, 3.0, SUMI)
    art.append(Text(0, 3.7, "EVADED", 5, "condensed-bold", SUMI, "middle"))  # 1 mm inside the cut (TOKEN_SAFE)
    return _disc("evade", "Evaded", None, EVADE_DISC, EVADE_FILL, SUMI, art)


def position_token() -> Token:
    r = DISC / 2
    art: list[Shape] = [Circle(0, 0, r - 1.2, Style(stroke="#ffffff", width=0.3))]
    art += icon("swords", 0, -1.2, 4.6, "#ffffff")
    art.append(Text(0, 6.4, "POSITION", 4.2, "condensed-bold", "#ffffff", "middle"))
    return _disc("position", "Position", None, DISC, VERMILION, "#ffffff", art)


def marker_token(side: PlayerLook, resource: str, cuts: Cuts) -> Token:
    r = MARKER / 2
    art = ring_pattern(side, r - 0.4, r - 1.7, side.pattern_ink)
    art.append(Circle(0, 0, r - 1.9, Style(stroke=side.ink, width=0.25)))
    art.append(Text(0, -1.9, side.key, 6, "bold", side.ink, "middle"))
    art.append(cuts.text(0, 2.6, resource, 2 * (r - 2.6), "condensed-bold", 5.0, 3.8, f"track marker '{resource}'",
                         side.ink, "middle"))
    return _disc("marker", resource, side.player, MARKER, side.fill, side.ink, art)


def range_token(distance: Range, number: int, cuts: Cuts) -> Token:
    s = SQUARE
    art: list[Shape] = [Rect(1.5, 1.5, s - 3, s - 3, Style(stroke=SUMI, width=0.25), radius=1.0)]
    art.append(cuts.text(s / 2, 8.0, RANGE_NAME[distance], s - 8, "bold", 9, 6, f"range token '{distance.value}'",
                         SUMI, "middle"))
    art.append(Text(4.0, 6.0, str(number), 6, "bold", VERMILION))
    art.append(Text(s - 4.0, 6.0, str(number), 6, "bold", VERMILION, "end"))
    cx, cy = s / 2, s / 2 + 1.5
    art.append(Circle(cx, cy, DISC / 2 + 0.8, Style(fill="#ffffff", stroke=SUMI, width=0.25, dash=(1.0, 0.8))))
    half = RANGE_GAP[distance]
    for sign in (-1, 1):  # two duellists, the distance between them
        x = cx + sign * half
        art += [Circle(x, cy - 2.6, 1.3, filled(SUMI)),
                Rect(x - 1.0, cy - 1.1, 2.0, 4.0, filled(SUMI), radius=0.6)]
    art.append(Line(cx - half + 1.8, cy + 4.8, cx + half - 1.8, cy + 4.8, Style(stroke=VERMILION, width=0.35))
               if half > 2.5 else Line(cx - 3, cy + 4.8, cx + 3, cy + 4.8, Style(stroke=VERMILION, width=0.35)))
    art.append(cuts.text(s / 2, s - 3.6, RANGE_RULE[distance], s - 6, "condensed-bold", 5.6, 4.2,
                         f"range token '{distance.value}'", INK, "middle"))
    return Token("range", RANGE_NAME[distance], None, s, s, Cutout(Trim.rect(0, 0, s, s), RANGE_FILL[distance], SUMI,
                                                                  tuple(art)))


@dataclass(frozen=True)
class TokenRow:
    heading: str
    note: str
    tokens: tuple[Token, ...]
    breaks: tuple[int, ...] = ()  # extra space before these indexes (separates groups in a row)


def token_rows(ctx: SwordContext, cuts: Cuts) -> list[TokenRow]:
    """What the sheet holds, in order."""
    track = [range_token(distance, n, cuts) for n, distance in enumerate(RANGE_ORDER, start=1)] + [position_token()]
    rows = [TokenRow("Range track", "Lay the three range tokens in a row, Apart to Close Combat. The position token "
                     "starts on Apart and moves after every position resolution.", tuple(track), breaks=(3,))]
    for side in LOOKS:
        rows.append(TokenRow(f"Initiative tokens · {side.name}",
                             "Initiative = Speed + current Balance: show yours when evades are resolved "
                             "(highest first).", tuple(initiative_token(side, v) for v in initiative_values(ctx))))
    rows.append(TokenRow("Evade tokens", "Put one on the mat's turn track for each turn in which an attack was "
                         "evaded.",
                         tuple(evade_token() for _ in range(EVADE_TOKENS))))
    markers = [marker_token(side, resource, cuts) for side in LOOKS for resource in ("Momentum", "Balance", "Health")]
    rows.append(TokenRow("Track markers", "One per track on each player mat.", tuple(markers), breaks=(3,)))
    return rows


def _footprint(token: Token, fold: bool) -> tuple[float, float]:
    """The width and height a piece takes on the sheet: its trim, or its glue-and-fold pair."""
    if fold:
        pair = token.pair()
        return pair.w, pair.h
    return token.w, token.h


def _gap(fold: bool) -> float:
    """Between neighbouring pieces: each glue-and-fold pair already has FOLD_ROOM of paper inside it."""
    return PAIR_GAP if fold else GAP


def _wrap_row(row: TokenRow, width: float, fold: bool) -> int:
    """How many lines a row of tokens takes at `width`."""
    lines, x = 1, 0.0
    for index, token in enumerate(row.tokens):
        token_w, _ = _footprint(token, fold)
        if index in row.breaks:
            x += 2 * _gap(fold)
        if x + token_w > width + 1e-6:
            lines, x = lines + 1, 0.0
        x += token_w + _gap(fold)
    return lines


def _draw(page: Page, token: Token, x: float, y: float, fold: bool) -> None:
    """The piece (or its pair) with its top-left at (x, y), and its guides."""
    if fold:
        pair = token.pair()
        page.add(Group(pair.printed(), dx=x, dy=y))
        page.guides.append(Group(pair.guides(), dx=x, dy=y))
        return
    page.add(Group(token.art, dx=x, dy=y))
    page.guides.append(placed_guides(token.piece, x, y))


def build_tokens(ctx: SwordContext) -> Component:
    """Every token on as few pages as the rows need (one page on A4; two on US Letter when Initiative
    reaches 10); with `--layout fold` each token beside its back, on more pages."""
    width, height = PAPER_SIZES[ctx.paper]
    inner = width - 2 * MARGIN
    cuts = Cuts(ctx.locate)
    fold = ctx.options.layout == "fold"
    gap = _gap(fold)
    pages: list[Page] = []
    page: Page | None = None
    y = 0.0
    cut_note = cuts.line(FOLD_NOTE if fold else CUT_NOTE, inner / 2, "regular", 7, 5.5, "token sheet note")
    note_w = text_width(cut_note.lines[0], "regular", cut_note.size)
    title = cuts.line(f"{ctx.name}: tokens", inner - note_w - 4.0, "bold", 14, 9, "token sheet title")

    def new_page() -> Page:
        fresh = Page(width, height, label=f"Tokens {len(pages) + 1}" + (" (fold)" if fold else ""),
                     folds="tokens" if fold else "")
        pages.append(fresh)
        fresh.add(Text(MARGIN, MARGIN + 5.5, title.lines[0], title.size, "bold", SUMI))
        fresh.add(Rect(MARGIN, MARGIN + 8.0, inner, 0.8, filled(VERMILION)))
        fresh.add(Text(width - MARGIN, MARGIN + 5.5, cut_note.lines[0], cut_note.size, "regular", MUTED_INK, "end"))
        return fresh

    for row in token_rows(ctx, cuts):
        row_h = max(_footprint(token, fold)[1] for token in row.tokens)
        lines = _wrap_row(row, inner, fold)
        need = ROW_HEAD - 1.0 + TOKEN_BLEED + lines * (row_h + gap) - gap
        if page is None or y + need > height - MARGIN:
            page = new_page()
            y = MARGIN + 14.0
        page.add(Text(MARGIN, y + 3.4, row.heading, 9.5, "bold", SUMI))
        note = cuts.line(row.note, inner, "regular", 7, 5.5, f"token sheet note '{row.heading}'")
        page.add(Text(MARGIN, y + 7.6, note.lines[0], note.size, "regular", MUTED_INK))
        page.add(Line(MARGIN, y + 9.3, MARGIN + inner, y + 9.3, Style(stroke=RULE_INK, width=0.25)))
        y += ROW_HEAD + TOKEN_BLEED
        x = MARGIN
        for index, token in enumerate(row.tokens):
            token_w, token_h = _footprint(token, fold)
            if index in row.breaks:
                x += 2 * gap
            if x + token_w > MARGIN + inner + 1e-6:  # the row continues on a new line
                x, y = MARGIN, y + row_h + gap
            _draw(page, token, x, y + (row_h - token_h) / 2, fold)
            x += token_w + gap
        y += row_h + ROW_SPACE - TOKEN_BLEED
    component = Component("sword-tokens", f"{ctx.name}: tokens", pages=pages, warnings=cuts.problems)
    component.pieces = [(f"tokens-p{k}", p) for k, p in enumerate(pages, start=1)]
    return component
