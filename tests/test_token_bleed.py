"""Every cut-out token of every kit is printed with bleed, read back from the built PDFs: its background
runs TOKEN_BLEED past a thin cut line in a contrasting ink, its trim keeps the size it always had,
neighbours keep paper between their bleeds, nothing reaches the printer's dead zone, each sheet says how
to cut, and `--guides` shows every piece's trim, bleed and safe zone. Digital tokens (exports) stay at trim.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pdfplumber
import pypdfium2  # type: ignore[import-untyped]
import pytest

from tests.sword.test_kit import load_database as load_sword_database
from toolkit.cli import main
from toolkit.export.raster import rasterise
from toolkit.figure.database import find_datasets, load_database
from toolkit.figure.kit.context import KitContext
from toolkit.figure.kit.tokens import MARKER_DIAMETER, STATUS_COPIES, WAIT_COPIES
from toolkit.kit.bleed import CUT_NOTE, CUT_WIDTH, TOKEN_BLEED, TOKEN_SAFE
from toolkit.registry import discover
from toolkit.render.impose import GUIDE_BLEED, GUIDE_SAFE, GUIDE_TRIM, SHEET_MARGIN
from toolkit.render.scene import Style
from toolkit.sword.context import SwordContext
from toolkit.sword.kit import tokens as sword_tokens
from toolkit.sword.kit.common import EVADE_TOKENS, initiative_values

MM = 72 / 25.4
PAPERS = ("a4", "letter")
GAMES = {"duel-protocol": "tokens.pdf", "chimera": "tokens.pdf", "sword-duel": "sword-tokens.pdf"}
PAGES = {("duel-protocol", "a4"): 2, ("duel-protocol", "letter"): 2, ("chimera", "a4"): 2, ("chimera", "letter"): 2,
         ("sword-duel", "a4"): 1, ("sword-duel", "letter"): 2}  # as before the bleed: no page more
PAPER_BETWEEN_BLEEDS = 1.0  # mm of white paper left between two neighbours' bleeds, at the least


@dataclass(frozen=True)
class Outline:
    """A circle or rectangle read back from a PDF page, in mm from the top-left."""

    cx: float
    cy: float
    w: float
    h: float
    round: bool
    fill: tuple[float, ...] | None
    stroke: tuple[float, ...] | None
    width: float
    dashed: bool

    def gap(self, other: Outline) -> float:
        """Distance between the two outlines' edges (negative when they overlap)."""
        if self.round and other.round:
            return math.dist((self.cx, self.cy), (other.cx, other.cy)) - (self.w + other.w) / 2
        if self.round or other.round:
            disc, box = (self, other) if self.round else (other, self)
            dx = max(abs(disc.cx - box.cx) - box.w / 2, 0.0)
            dy = max(abs(disc.cy - box.cy) - box.h / 2, 0.0)
            return math.hypot(dx, dy) - disc.w / 2
        dx = abs(self.cx - other.cx) - (self.w + other.w) / 2
        dy = abs(self.cy - other.cy) - (self.h + other.h) / 2
        return math.hypot(max(dx, 0.0), max(dy, 0.0)) if dx > 0 or dy > 0 else max(dx, dy)

    def same_place(self, other: Outline, grown: float) -> bool:
        """`other` is this outline, `grown` mm further out, about the same centre."""
        return (self.round == other.round and abs(self.cx - other.cx) < 0.02 and abs(self.cy - other.cy) < 0.02
                and abs(other.w - self.w - 2 * grown) < 0.02 and abs(other.h - self.h - 2 * grown) < 0.02)


@dataclass(frozen=True)
class Piece:
    trim: Outline  # the thin cut line
    bleed: Outline  # the background, TOKEN_BLEED past it


def rgb(color: str) -> tuple[float, ...]:
    return tuple(int(color[i:i + 2], 16) / 255 for i in (1, 3, 5))


def same_colour(a: tuple[float, ...] | None, b: tuple[float, ...]) -> bool:
    return a is not None and len(a) == len(b) and all(abs(x - y) < 0.005 for x, y in zip(a, b, strict=True))


def luminance(color: tuple[float, ...]) -> float:
    r, g, b = color
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def outlines(page) -> list[Outline]:
    found = []
    for kind, shapes in (("round", page.curves), ("rect", page.rects)):
        for s in shapes:
            w, h = (s["x1"] - s["x0"]) / MM, (s["bottom"] - s["top"]) / MM
            if kind == "round" and abs(w - h) > 0.02:
                continue
            dash = s.get("dash")
            found.append(Outline((s["x0"] + s["x1"]) / 2 / MM, (s["top"] + s["bottom"]) / 2 / MM, w, h,
                                 kind == "round", tuple(s["non_stroking_color"]) if s.get("fill") else None,
                                 tuple(s["stroking_color"]) if s.get("stroke") else None,
                                 s["linewidth"] / MM, bool(dash and dash[0])))
    return found


def pieces(page) -> list[Piece]:
    """Each cut line (a thin solid stroke, no fill) with the unstroked background TOKEN_BLEED wider around it."""
    shapes = outlines(page)
    backgrounds = [s for s in shapes if s.fill is not None and s.stroke is None]
    found = []
    for trim in shapes:
        if trim.fill is not None or trim.stroke is None or trim.dashed:
            continue
        bleed = next((b for b in backgrounds if trim.same_place(b, TOKEN_BLEED)), None)
        if bleed is not None:
            found.append(Piece(trim, bleed))
    return found


@dataclass(frozen=True)
class Sheet:
    """One token page as read back, parsed once."""

    width: float
    height: float
    outlines: list[Outline]
    pieces: list[Piece]
    chars: list[dict]
    ink: list[dict]  # every drawn object: curves, rectangles, lines and letters
    text: str


@cache
def sheets(path: Path) -> list[Sheet]:
    with pdfplumber.open(path) as pdf:
        return [Sheet(page.width / MM, page.height / MM, outlines(page), pieces(page), page.chars,
                      page.curves + page.rects + page.lines + page.chars, " ".join((page.extract_text() or "").split()))
                for page in pdf.pages]


@cache
def figure_ctx(game: str, paper: str) -> KitContext:
    return KitContext(load_database(next(ds for ds in find_datasets(None)[0] if ds.theme_id == game)), paper)


def expected_trims(game: str, paper: str) -> Counter[tuple[bool, float, float]]:
    """(round, w, h) of every piece the kit defines, at the sizes the kits have always had."""
    if game == "sword-duel":
        ctx = SwordContext(load_sword_database(), paper)
        disc, square = sword_tokens.DISC, sword_tokens.SQUARE
        return Counter({(False, square, square): 3, (True, disc, disc): 1 + 2 * len(initiative_values(ctx)),
                        (True, sword_tokens.EVADE_DISC, sword_tokens.EVADE_DISC): EVADE_TOKENS,
                        (True, sword_tokens.MARKER, sword_tokens.MARKER): 6})
    ctx = figure_ctx(game, paper)
    unit = ctx.db.board.token_diameter_mm
    markers = STATUS_COPIES * len(ctx.theme.statuses) + WAIT_COPIES
    return Counter({(True, unit, unit): 2 * len(ctx.units()), (True, MARKER_DIAMETER, MARKER_DIAMETER): markers})


ONLY_TOKENS = ["--only", "tokens,sword-tokens"]


@pytest.fixture(scope="module", params=PAPERS)
def built(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> tuple[str, Path]:
    out = tmp_path_factory.mktemp(f"kit-{request.param}")
    assert main(["build", "--paper", request.param, *ONLY_TOKENS, "--out", str(out)]) == 0
    return request.param, out


@pytest.fixture(scope="module")
def guided(built: tuple[str, Path], tmp_path_factory: pytest.TempPathFactory) -> Path:
    paper, _ = built
    out = tmp_path_factory.mktemp(f"kit-guides-{paper}")
    assert main(["build", "--paper", paper, "--guides", *ONLY_TOKENS, "--out", str(out)]) == 0
    return out


def token_pdf(out: Path, game: str) -> Path:
    return out / game / GAMES[game]


@pytest.mark.parametrize("game", GAMES)
def test_every_token_has_its_colour_past_a_thin_cut_line_of_unchanged_size(built: tuple[str, Path],
                                                                          game: str) -> None:
    paper, out = built
    pages = sheets(token_pdf(out, game))
    assert len(pages) == PAGES[(game, paper)]
    found = [piece for page in pages for piece in page.pieces]
    trims = Counter((p.trim.round, round(p.trim.w, 2), round(p.trim.h, 2)) for p in found)
    assert trims == expected_trims(game, paper)
    for piece in found:
        assert piece.trim.width == pytest.approx(CUT_WIDTH, abs=0.01)
        assert piece.bleed.fill != (1.0, 1.0, 1.0)
        # the cut line shows on the piece's own colour, light or dark
        assert abs(luminance(piece.trim.stroke or ()) - luminance(piece.bleed.fill or ())) > 0.35


@pytest.mark.parametrize("game", GAMES)
def test_neighbours_keep_paper_between_their_bleeds_and_the_dead_zone_stays_empty(built: tuple[str, Path],
                                                                                 game: str) -> None:
    _, out = built
    for page in sheets(token_pdf(out, game)):
        found = page.pieces
        assert found
        for index, a in enumerate(found):
            for b in found[index + 1:]:
                assert a.bleed.gap(b.bleed) >= PAPER_BETWEEN_BLEEDS - 1e-3, (a.trim, b.trim)
                assert a.bleed.gap(b.trim) >= PAPER_BETWEEN_BLEEDS + TOKEN_BLEED - 1e-3
        assert_clear_of_the_dead_zone(page)



def inset_in(char: dict, trim) -> float | None:
    """How far a character's box lies inside a piece's trim (mm), or None when it is not over the piece."""
    xs, ys = (char["x0"] / MM, char["x1"] / MM), (char["top"] / MM, char["bottom"] / MM)
    x, y = sum(xs) / 2, sum(ys) / 2
    if trim.round and math.hypot(x - trim.cx, y - trim.cy) < trim.w / 2:
        return min(trim.w / 2 - math.hypot(cx - trim.cx, cy - trim.cy) for cx in xs for cy in ys)
    if not trim.round and abs(x - trim.cx) < trim.w / 2 and abs(y - trim.cy) < trim.h / 2:
        return min(xs[0] - (trim.cx - trim.w / 2), trim.cx + trim.w / 2 - xs[1],
                   ys[0] - (trim.cy - trim.h / 2), trim.cy + trim.h / 2 - ys[1])
    return None

def assert_clear_of_the_dead_zone(page) -> None:
    """No ink (strokes counted to their outer edge) within SHEET_MARGIN of the paper edge."""
    for item in page.ink:
        ink = item.get("linewidth", 0) / MM / 2 if item.get("stroke") else 0.0
        assert item["x0"] / MM - ink >= SHEET_MARGIN - 1e-3
        assert item["top"] / MM - ink >= SHEET_MARGIN - 1e-3
        assert page.width - item["x1"] / MM - ink >= SHEET_MARGIN - 1e-3
        assert page.height - item["bottom"] / MM - ink >= SHEET_MARGIN - 1e-3

@pytest.mark.parametrize("game", GAMES)
def test_the_bleed_prints_in_the_pieces_colour_where_a_wide_cut_lands(built: tuple[str, Path], game: str) -> None:
    """Rasterised as a printer would: half the bleed outside each cut line is the piece's colour, not paper."""
    _, out = built
    dpi = 100
    px = dpi / 25.4
    path = token_pdf(out, game)
    per_page = [page.pieces for page in sheets(path)]
    document = pypdfium2.PdfDocument(str(path))
    try:
        checked = 0
        for number, found in enumerate(per_page):
            image = document[number].render(scale=dpi / 72).to_pil().convert("RGB")
            for piece in found:
                trim, reach = piece.trim, TOKEN_BLEED / 2
                if trim.round:
                    r = trim.w / 2 + reach
                    spots = [(trim.cx + r * math.sin(a), trim.cy - r * math.cos(a))
                             for a in (k * math.pi / 4 for k in range(8))]
                else:
                    hw, hh = trim.w / 2 + reach, trim.h / 2 + reach
                    spots = [(trim.cx + sx * hw, trim.cy + sy * hh) for sx in (-1, 0, 1) for sy in (-1, 0, 1)
                             if sx or sy]
                want = tuple(round(v * 255) for v in piece.bleed.fill or ())
                for x, y in spots:
                    got = image.getpixel((round(x * px), round(y * px)))
                    assert max(abs(g - w) for g, w in zip(got, want, strict=True)) <= 12, (trim, (x, y), got, want)
                    checked += 1
    finally:
        document.close()
    assert checked >= 8 * 27


@pytest.mark.parametrize("game", GAMES)
def test_token_text_stays_in_the_safe_zone(built: tuple[str, Path], game: str) -> None:
    """A cut that wanders TOKEN_SAFE inwards still leaves every letter whole (letter boxes, not just ink)."""
    _, out = built
    checked = 0
    for page in sheets(token_pdf(out, game)):
        trims = [piece.trim for piece in page.pieces]
        for char in page.chars:
            for trim in trims:
                inside = inset_in(char, trim)
                if inside is None:
                    continue
                assert inside >= TOKEN_SAFE - 1e-3, (char["text"], trim)
                checked += 1
    assert checked > 100


@pytest.mark.parametrize("game", GAMES)
def test_every_token_sheet_says_to_cut_on_the_thin_line(built: tuple[str, Path], game: str) -> None:
    _, out = built
    for page in sheets(token_pdf(out, game)):
        assert CUT_NOTE in page.text


def guides(page: Sheet, trim: Outline, style: Style, grown: float) -> list[Outline]:
    """The guide outlines drawn in `style` around `trim`, `grown` mm out from it."""
    return [s for s in page.outlines if same_colour(s.stroke, rgb(style.stroke or "")) and s.fill is None
            and s.dashed == bool(style.dash) and trim.same_place(s, grown)]


@pytest.mark.parametrize("game", GAMES)
def test_guides_show_each_tokens_trim_bleed_and_safe_zone(built: tuple[str, Path], guided: Path, game: str) -> None:
    paper, out = built
    guide_colours = [rgb(style.stroke or "") for style in (GUIDE_TRIM, GUIDE_BLEED, GUIDE_SAFE)]
    plain, with_guides = sheets(token_pdf(out, game)), sheets(token_pdf(guided, game))
    assert len(plain) == len(with_guides)
    checked = 0
    for page, guided_page in zip(plain, with_guides, strict=True):
        assert not any(same_colour(s.stroke, c) for s in page.outlines for c in guide_colours)  # only when asked for
        for piece in page.pieces:
            assert len(guides(guided_page, piece.trim, GUIDE_TRIM, 0.0)) == 1
            assert len(guides(guided_page, piece.trim, GUIDE_BLEED, TOKEN_BLEED)) == 1
            assert len(guides(guided_page, piece.trim, GUIDE_SAFE, -TOKEN_SAFE)) == 1
            checked += 1
    assert checked == sum(expected_trims(game, paper).values())


def test_digital_tokens_are_cut_at_the_trim() -> None:
    """Exported token images are the piece as cut: transparent just past the disc, where print has bleed."""
    found, _ = discover(None)
    dpi = 100
    checked = 0
    for game, where in found:
        round_pieces = [p for p in game.export_set(game.load(where)).pieces if p.kind == "token" and p.round]
        for piece, image in zip(round_pieces, rasterise([p.page for p in round_pieces], dpi, transparent=True),
                                strict=True):
            r = piece.page.width / 2
            beyond = (r - (r + TOKEN_BLEED / 2) / math.sqrt(2)) * dpi / 25.4  # just past the disc, on a diagonal
            assert image.getpixel((round(beyond), round(beyond)))[3] == 0, piece.slug
            assert image.getpixel((image.width // 2, image.height // 2))[3] == 255
            checked += 1
    assert checked > 40
