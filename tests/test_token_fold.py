"""`--layout fold` token sheets, read back from the built PDFs: every piece is printed beside its back
with a dashed fold line between them, the back's trim exactly mirrored across that line from the front's
(so folding puts it behind the front), each face keeping its cut line, bleed and safe zone; backs repeat
their front except initiative tokens, whose backs carry no number; nothing reaches the printer's dead
zone; the pieces are the same as in the grid layout; `--guides` shows both faces' zones; the print plan
says how to make folded tokens."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pdfplumber
import pytest

from tests.sword.test_kit import load_database as load_sword_database
from tests.test_token_bleed import (
    GAMES,
    ONLY_TOKENS,
    PAPER_BETWEEN_BLEEDS,
    PAPERS,
    Outline,
    Piece,
    assert_clear_of_the_dead_zone,
    expected_trims,
    guides,
    inset_in,
    rgb,
    same_colour,
    sheets,
    token_pdf,
)
from toolkit.cli import main
from toolkit.kit.bleed import CUT_NOTE, TOKEN_BLEED, TOKEN_SAFE
from toolkit.kit.component import Component
from toolkit.kit.fold import FOLD_NOTE, FOLD_ROOM, PAIR_EDGE, PAIR_GAP
from toolkit.kit.options import PrintOptions
from toolkit.kit.plan import kit_layout
from toolkit.render.impose import FOLD_STYLE, GUIDE_BLEED, GUIDE_SAFE, GUIDE_TRIM
from toolkit.render.scene import Page, Text
from toolkit.sword.context import SwordContext
from toolkit.sword.kit.common import initiative_values
from toolkit.sword.kit.tokens import DISC

MM = 72 / 25.4
FOLD_PAGES = {("duel-protocol", "a4"): 3, ("duel-protocol", "letter"): 3, ("chimera", "a4"): 3,
              ("chimera", "letter"): 3, ("sword-duel", "a4"): 2, ("sword-duel", "letter"): 3}


@dataclass(frozen=True)
class Pair:
    fold_x: float  # mm from the left
    top: float  # the fold line's ends, mm from the top
    bottom: float
    front: Piece
    back: Piece


@pytest.fixture(scope="module", params=PAPERS)
def folded(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> tuple[str, Path]:
    out = tmp_path_factory.mktemp(f"fold-{request.param}")
    assert main(["build", "--paper", request.param, "--layout", "fold", *ONLY_TOKENS, "--out", str(out)]) == 0
    return request.param, out


@cache
def fold_lines(path: Path) -> list[list[tuple[float, float, float]]]:
    """(x, top, bottom) in mm of every dashed vertical line in the fold style, per page."""
    found = []
    with pdfplumber.open(path) as pdf:
        for page in pdf.pages:
            found.append([(line["x0"] / MM, line["top"] / MM, line["bottom"] / MM) for line in page.lines
                          if line.get("dash") and line["dash"][0] and abs(line["x0"] - line["x1"]) < 0.01
                          and same_colour(tuple(line["stroking_color"]), rgb(FOLD_STYLE.stroke or ""))])
    return found


def pairs_on(path: Path) -> list[list[Pair]]:
    """Each fold line with the two pieces beside it, per page; every piece belongs to exactly one."""
    result = []
    for page, lines in zip(sheets(path), fold_lines(path), strict=True):
        found = []
        for x, top, bottom in lines:
            beside = [p for p in page.pieces if top < p.trim.cy < bottom and abs(p.trim.cx - x) < p.trim.w + 3]
            assert len(beside) == 2, (x, top, beside)
            front, back = sorted(beside, key=lambda p: p.trim.cx)
            found.append(Pair(x, top, bottom, front, back))
        assert Counter(id(p) for pair in found for p in (pair.front, pair.back)) == Counter(
            id(p) for p in page.pieces)
        result.append(found)
    return result


def letters_in(trim: Outline, chars: list[dict]) -> list[tuple[str, float, float, float]]:
    """(letter, dx, dy, size) of every letter drawn on the piece, placed from the trim's centre, in reading
    order (line by line, left to right)."""
    found = []
    for char in chars:
        x, y = (char["x0"] + char["x1"]) / 2 / MM, (char["top"] + char["bottom"]) / 2 / MM
        if abs(x - trim.cx) < trim.w / 2 and abs(y - trim.cy) < trim.h / 2:
            found.append((char["text"], x - trim.cx, y - trim.cy, char["size"]))
    return sorted(found, key=lambda letter: (round(letter[2], 1), letter[1]))


def same_letters(a: list[tuple[str, float, float, float]], b: list[tuple[str, float, float, float]]) -> bool:
    return len(a) == len(b) and all(x[0] == y[0] and x[1:] == pytest.approx(y[1:], abs=0.01)
                                    for x, y in zip(a, b, strict=True))


@pytest.mark.parametrize("game", GAMES)
def test_each_back_lies_mirrored_across_its_fold_line_from_its_front(folded: tuple[str, Path], game: str) -> None:
    paper, out = folded
    path = token_pdf(out, game)
    assert len(sheets(path)) == FOLD_PAGES[(game, paper)]
    pairs = [pair for page in pairs_on(path) for pair in page]
    # the same pieces as the grid layout, each once with its back
    assert Counter((p.front.trim.round, round(p.front.trim.w, 2), round(p.front.trim.h, 2))
                   for p in pairs) == expected_trims(game, paper)
    room = TOKEN_BLEED + FOLD_ROOM
    for pair in pairs:
        front, back = pair.front.trim, pair.back.trim
        # folded on the line, the back's cut line lands exactly on the front's
        assert back.cx == pytest.approx(2 * pair.fold_x - front.cx, abs=0.01)
        assert back.cy == pytest.approx(front.cy, abs=0.01)
        assert (back.round, back.w, back.h) == pytest.approx((front.round, front.w, front.h), abs=0.01)
        # two touching halves, each `room` larger than the trim: the fold line is their common edge
        assert pair.fold_x - front.cx == pytest.approx(front.w / 2 + room, abs=0.01)
        assert (pair.top, pair.bottom) == pytest.approx((front.cy - front.h / 2 - room, front.cy + front.h / 2 + room),
                                                        abs=0.01)
        # each face keeps its bleed, on its own side of the fold
        assert pair.front.bleed.cx + pair.front.bleed.w / 2 == pytest.approx(pair.fold_x - FOLD_ROOM, abs=0.01)
        assert pair.back.bleed.cx - pair.back.bleed.w / 2 == pytest.approx(pair.fold_x + FOLD_ROOM, abs=0.01)
        assert pair.front.bleed.fill == pair.back.bleed.fill


@pytest.mark.parametrize("game", GAMES)
def test_backs_repeat_their_front_and_initiative_backs_carry_no_number(folded: tuple[str, Path], game: str) -> None:
    _, out = folded
    path = token_pdf(out, game)
    initiative = 0
    for page, pairs in zip(sheets(path), pairs_on(path), strict=True):
        for pair in pairs:
            front, back = letters_in(pair.front.trim, page.chars), letters_in(pair.back.trim, page.chars)
            front_text, back_text = "".join(letter[0] for letter in front), "".join(letter[0] for letter in back)
            assert front
            if not front_text.endswith("INITIATIVE") or pair.front.trim.w != pytest.approx(DISC, abs=0.01):
                assert same_letters(back, front), (front_text, back_text)  # it reads the same from both sides
                continue
            initiative += 1
            player, value = front_text[0], front_text[1:-len("INITIATIVE")]  # 'A', '7', 'INITIATIVE'
            assert player in "AB"
            assert value.isdigit()
            assert back_text == player + "INITIATIVE"  # the player's letter and the word, never the value
    values = initiative_values(SwordContext(load_sword_database(), "a4"))
    assert initiative == (2 * len(values) if game == "sword-duel" else 0)


@pytest.mark.parametrize("game", GAMES)
def test_fold_sheets_keep_paper_between_pieces_and_clear_of_the_dead_zone(folded: tuple[str, Path],
                                                                          game: str) -> None:
    _, out = folded
    path = token_pdf(out, game)
    edge = rgb(PAIR_EDGE.stroke or "")
    for page in sheets(path):
        assert FOLD_NOTE in page.text
        assert CUT_NOTE not in page.text
        for index, a in enumerate(page.pieces):
            for b in page.pieces[index + 1:]:
                assert a.bleed.gap(b.bleed) >= PAPER_BETWEEN_BLEEDS - 1e-3
        outlines = [s for s in page.outlines if not s.round and s.fill is None and same_colour(s.stroke, edge)]
        assert len(outlines) == len(page.pieces) // 2
        for index, a in enumerate(outlines):  # room for scissors between the pairs
            for b in outlines[index + 1:]:
                assert a.gap(b) >= PAIR_GAP - 1e-3
        assert_clear_of_the_dead_zone(page)


@pytest.mark.parametrize("game", GAMES)
def test_text_of_both_faces_stays_in_the_safe_zone(folded: tuple[str, Path], game: str) -> None:
    _, out = folded
    checked = 0
    for page in sheets(token_pdf(out, game)):
        for piece in page.pieces:
            trim = piece.trim
            for char in page.chars:
                inside = inset_in(char, trim)
                if inside is None:
                    continue
                assert inside >= TOKEN_SAFE - 1e-3, (char["text"], trim)
                checked += 1
    assert checked > 200


def test_guides_show_the_zones_of_both_faces(tmp_path: Path) -> None:
    assert main(["build", "--layout", "fold", "--guides", *ONLY_TOKENS, "--out", str(tmp_path)]) == 0
    for game in GAMES:
        checked = 0
        for page in sheets(token_pdf(tmp_path, game)):
            cut_lines = [p for p in page.pieces if not same_colour(p.trim.stroke, rgb(GUIDE_TRIM.stroke or ""))]
            for piece in cut_lines:
                assert len(guides(page, piece.trim, GUIDE_TRIM, 0.0)) == 1
                assert len(guides(page, piece.trim, GUIDE_BLEED, TOKEN_BLEED)) == 1
                assert len(guides(page, piece.trim, GUIDE_SAFE, -TOKEN_SAFE)) == 1
                checked += 1
        assert checked == 2 * sum(expected_trims(game, "a4").values())


def plan_text(folds: list[str]) -> str:
    """The 'how to print' steps of a fold kit whose pages hold these kinds of glue-and-fold pairs."""
    pages = [Page(210, 297, label=f"page {n}", folds=kind) for n, kind in enumerate(folds)]  # type: ignore[arg-type]
    layout = kit_layout([Component("part", "Part", pages=pages)], "Game", PrintOptions(layout="fold"))
    return " ".join(item.text for item in layout.plan[0].items if isinstance(item, Text))


def test_the_print_plan_says_how_to_make_the_folded_pieces_it_holds() -> None:
    both = plan_text(["cards", "tokens", ""])
    assert "cut each card and token out with its back as one piece" in both
    assert "cut each token through both layers on the front's thin line" in both
    cards = plan_text(["cards", ""])
    assert "cut each card out" in cards
    assert "token" not in cards
    tokens = plan_text(["tokens"])
    assert "cut each token out" in tokens
    assert "card" not in tokens
    assert "double-sided" not in tokens
