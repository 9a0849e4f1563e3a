"""The sword-duel printable kit: what a player would notice on the printed pages."""

from __future__ import annotations

import io
import math
from collections.abc import Iterator

import pikepdf
import pytest
import yaml

import toolkit.sword.kit.reference as sword_reference
from toolkit.kit.cards import SAFE
from toolkit.kit.component import Component
from toolkit.paths import bundled_root
from toolkit.render.fonts import printable, text_width
from toolkit.render.impose import BLEED, PAPER_SIZES, card_grid
from toolkit.render.pdf import render_pdf
from toolkit.render.scene import PT_TO_MM, Circle, Document, Group, Line, Rect, Reuse, Shape, Text
from toolkit.render.svg import render_svg
from toolkit.sword import constants
from toolkit.sword.context import SwordContext, SwordDatabase
from toolkit.sword.kit.build import build_sword_components
from toolkit.sword.kit.cards import CARD_H, CARD_W, build_action_cards, build_role_cards, build_technique_cards
from toolkit.sword.kit.common import LOOKS, RANGE_SHORT, Cuts, raised_cap
from toolkit.sword.kit.reference import (
    DRAFT_STEPS,
    build_draft_sheet,
    draft_counts,
    quick_reference_page,
    range_table,
)
from toolkit.sword.kit.sheets import BOX, build_attribute_sheets, build_player_mats, tracks
from toolkit.sword.kit.tokens import build_tokens, token_rows
from toolkit.sword.model import Build, Draft, Technique
from toolkit.sword.rules.positions import Move, Range, resolve_position

TECHNIQUES = bundled_root() / "techniques"
PAPERS = sorted(PAPER_SIZES)


def load_database() -> SwordDatabase:
    techniques = {}
    for path in sorted(TECHNIQUES.glob("*.yaml")):
        technique = Technique.model_validate(yaml.safe_load(path.read_text(encoding="utf-8")))
        techniques[technique.id] = technique
    draft = Draft.model_validate(yaml.safe_load((TECHNIQUES / "kits" / "standard.yaml").read_text(encoding="utf-8")))
    raw_builds = yaml.safe_load((TECHNIQUES / "kits" / "builds.yaml").read_text(encoding="utf-8"))["builds"]
    builds = {raw["id"]: Build.model_validate(raw) for raw in raw_builds}
    return SwordDatabase(techniques, draft, builds)


@pytest.fixture(scope="module")
def db() -> SwordDatabase:
    return load_database()


@pytest.fixture(scope="module", params=PAPERS)
def ctx(request: pytest.FixtureRequest, db: SwordDatabase) -> SwordContext:
    return SwordContext(db, request.param)


def leaves(items: list[Shape] | tuple[Shape, ...]) -> Iterator[Shape]:
    for item in items:
        if isinstance(item, Group | Reuse):
            yield from leaves(item.items)
        else:
            yield item


def texts(items: list[Shape] | tuple[Shape, ...]) -> list[str]:
    return [item.text for item in leaves(items) if isinstance(item, Text)]


def words(text: str) -> str:
    return " ".join(text.split())


def piece(component: Component, slug: str):
    return dict(component.pieces)[slug]


# --- action cards --------------------------------------------------------------------------------------

ACTION_NAMES = {"Attack", "Defend", "Advance", "Retreat", "Insight"}


def luminance(color: str) -> float:
    r, g, b = (int(color[i:i + 2], 16) / 255 for i in (1, 3, 5))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def test_ten_action_cards_in_two_sets_told_apart_by_colour_letter_and_pattern(ctx: SwordContext) -> None:
    component = build_action_cards(ctx)
    fronts = [(slug, page) for slug, page in component.pieces if slug.startswith("action-")]
    assert len(fronts) == 10
    for side in LOOKS:
        own = [page for slug, page in fronts if slug.startswith(f"action-{side.key.lower()}-")]
        assert len(own) == 5
        assert {name for page in own for name in texts(page.items)} >= ACTION_NAMES
        for page in own:
            shapes = list(leaves(page.items))
            assert side.key in texts(page.items)  # the letter
            assert any(isinstance(s, Rect) and s.style.fill == side.fill for s in shapes)  # the colour
            if side.pattern == "stripes":  # the pattern: stripes for one set, dots for the other
                assert any(isinstance(s, Line) and s.style.stroke == side.pattern_ink for s in shapes)
            else:
                assert any(isinstance(s, Circle) and s.style.fill == side.pattern_ink for s in shapes)
    a, b = LOOKS
    assert a.player != b.player
    assert a.pattern != b.pattern
    assert abs(luminance(a.fill) - luminance(b.fill)) > 0.4  # still different on a greyscale print
    # each set has its own back
    back_a, back_b = piece(component, "back-action-a"), piece(component, "back-action-b")
    assert "A" in texts(back_a.items)
    assert "B" in texts(back_b.items)


def test_action_cards_say_what_they_do(db: SwordDatabase) -> None:
    component = build_action_cards(SwordContext(db, "a4"))
    said = {key: words(" ".join(texts(piece(component, f"action-a-{key}").items)))
            for key in ("attack", "defend", "advance", "retreat", "insight")}
    assert "+1 Momentum" in said["advance"]
    assert "−1 Balance" in said["advance"]
    assert "+1 Attack" in said["advance"]
    assert "−1 Momentum" in said["retreat"]
    assert "+1 Defense" in said["retreat"]
    assert "from turn 4" in said["retreat"]
    assert "dishonor" in said["retreat"]
    assert "Speed, Strength or Defense" in said["insight"]
    assert "cannot defend" in said["insight"]
    assert "Strength" in said["attack"]
    assert "Defense Total" in said["defend"]


# --- technique and role cards --------------------------------------------------------------------------

def test_one_technique_card_per_draft_technique_with_its_words(ctx: SwordContext) -> None:
    component = build_technique_cards(ctx)
    draft = ctx.db.draft_techniques()
    fronts = [slug for slug, _ in component.pieces if slug != "back-technique"]
    assert fronts == [f"technique-{t.id}" for t in draft]
    assert len(fronts) == 10
    for technique in draft:
        shown = texts(piece(component, f"technique-{technique.id}").items)
        assert technique.name in shown
        joined = words(" ".join(shown))
        for rule in technique.rules_text:  # printed as written
            assert words(rule) in joined
        for part in (technique.translation, technique.flavor, technique.philosophy):
            assert part is None or words(part) in joined
    assert not component.warnings


def test_role_cards_show_starting_resources_and_honor(db: SwordDatabase) -> None:
    component = build_role_cards(SwordContext(db, "letter"))
    challenger = words(" ".join(texts(piece(component, "role-challenger").items)))
    defender = words(" ".join(texts(piece(component, "role-defender").items)))
    assert "Challenger" in challenger
    assert "ready to strike" in challenger
    assert "Defender" in defender
    assert "composed and ready" in defender
    for said in (challenger, defender):
        assert "turn 4" in said
        assert "dishonor" in said
    assert "1 Momentum" in challenger
    assert "1 Balance" in defender


def test_a_card_too_wordy_to_fit_is_cut_and_reported(db: SwordDatabase) -> None:
    long_rule = "Special: " + "an extremely long clause that keeps going " * 60
    technique = db.techniques["mushin"].model_copy(update={"rules_text": (long_rule,)})
    wordy = SwordDatabase({"mushin": technique}, Draft(id="one", name="One", techniques=("mushin",)), {})
    component = build_technique_cards(SwordContext(wordy, "a4"))
    assert [p.code for p in component.warnings] == ["R001"]
    assert "mushin" in component.warnings[0].message


# --- tokens --------------------------------------------------------------------------------------------

def test_token_sheet_holds_initiative_range_and_evade_tokens(ctx: SwordContext) -> None:
    tokens = [token for row in token_rows(ctx, Cuts()) for token in row.tokens]
    initiative = [t for t in tokens if t.kind == "initiative"]
    # Initiative = Speed + Balance: up to the highest Speed plus the highest Balance cap of the kit's
    # techniques (Fudoshin raises it to 6 in the standard draft: 4 + 6 = 10)
    cap, raisers = raised_cap(ctx, "balance")
    assert (cap, raisers) == (6, ["Fudoshin"])
    highest = constants.ATTRIBUTE_MAX + cap
    assert highest == 10
    assert len(initiative) == 2 * highest
    for look in LOOKS:
        assert sorted(int(t.label) for t in initiative if t.side is look.player) == list(range(1, highest + 1))
    assert [t.label for t in tokens if t.kind == "range"] == ["Apart", "Sword Range", "Close Combat"]
    assert len([t for t in tokens if t.kind == "position"]) == 1
    assert len([t for t in tokens if t.kind == "evade"]) == 6
    component = build_tokens(ctx)
    assert len(component.pages) == (1 if ctx.paper == "a4" else 2)  # ten initiative tokens a side
    placed = [item for page in component.pages for item in page.items if isinstance(item, Group)]
    assert len(placed) == len(tokens)
    width, height = PAPER_SIZES[ctx.paper]
    for token, group in zip(tokens, placed, strict=True):  # every piece lies on the paper
        assert 0 <= group.dx <= width - token.w
        assert 0 <= group.dy <= height - token.h


def _placed(items: tuple[Shape, ...], dx: float = 0.0, dy: float = 0.0) -> Iterator[tuple[Shape, float, float]]:
    for item in items:
        if isinstance(item, Group):
            yield from _placed(item.items, dx + item.dx, dy + item.dy)
        else:
            yield item, dx, dy


def test_round_token_words_stay_inside_their_frame_ring(ctx: SwordContext) -> None:
    """Every word on a disc (both faces) lies inside the innermost ring drawn around it: INITIATIVE sat on
    the initiative tokens' ring, its first and last letters crossed by the line."""
    checked = 0
    for token in (t for row in token_rows(ctx, Cuts()) for t in row.tokens if t.piece.trim.round):
        for face in (token.piece, token.back or token.piece):
            shapes = list(_placed(face.art))
            cx, cy = face.trim.x + face.trim.w / 2, face.trim.y + face.trim.h / 2
            frame = min(s.r - s.style.width / 2 for s, _, _ in shapes
                        if isinstance(s, Circle) and s.style.stroke and s.style.fill is None and s.r > 3)
            for text, dx, dy in shapes:
                if not isinstance(text, Text):
                    continue
                assert text.anchor == "middle"
                half = text_width(text.text, text.font, text.size) / 2
                x, base = text.x + dx - cx, text.y + dy - cy
                top = base - 0.75 * text.size * PT_TO_MM  # about the cap height
                corners = max(math.hypot(x + side * half, y) for side in (-1, 1) for y in (base, top))
                assert corners < frame, (token.kind, token.label, text.text, round(corners, 2), round(frame, 2))
                checked += 1
    assert checked > 40


# --- quick reference -----------------------------------------------------------------------------------

def test_quick_reference_range_cells_come_from_resolve_position(ctx: SwordContext) -> None:
    page, cells = quick_reference_page(ctx, Cuts())
    combinations = 0
    for start in Range:
        assert range_table(start) == {(a, b): resolve_position(start, a, b) for a in Move for b in Move}
        for mine in Move:
            for theirs in Move:
                cell = cells[start][(mine, theirs)]
                assert cell.text == RANGE_SHORT[resolve_position(start, mine, theirs)]
                assert cell in page.items  # the printed cell, not a copy
                combinations += 1
    assert combinations == 27


def test_quick_reference_follows_the_engine_not_a_typed_table(db: SwordDatabase,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sword_reference, "resolve_position", lambda *_: Range.APART)
    _, cells = quick_reference_page(SwordContext(db, "a4"), Cuts())
    assert {cell.text for table in cells.values() for cell in table.values()} == {"Apart"}


# --- mats and sheets -----------------------------------------------------------------------------------

def test_tracks_have_the_right_number_of_boxes(ctx: SwordContext) -> None:
    momentum, balance, health = tracks(ctx)
    assert momentum.values == (0, 1, 2, 3)
    assert not momentum.raised
    assert balance.values == tuple(range(7))
    assert balance.raised == (4, 5, 6)
    assert balance.raised_by == ("Fudoshin",)
    assert health.values == (3, 2, 1, 0)
    component = build_player_mats(ctx)
    assert len(component.pages) == 2
    for page in component.pages:
        boxes = [s for s in leaves(page.items) if isinstance(s, Rect) and s.w == BOX and s.h == BOX]
        assert len(boxes) == 4 + 7 + 4
        shown = texts(page.items)
        assert "Momentum" in shown
        assert "Balance" in shown
        assert "Health" in shown
        assert sum(t.count("Technique") for t in shown) >= 2
        assert "Played this turn" in shown
        assert "turn 4" in words(" ".join(shown))


def test_without_fudoshin_the_balance_track_stops_at_the_cap(db: SwordDatabase) -> None:
    ids = tuple(tid for tid in db.draft.techniques if tid != "fudoshin")
    smaller = SwordDatabase(db.techniques, Draft(id="nine", name="Nine", techniques=ids), db.builds)
    _momentum, balance, _health = tracks(SwordContext(smaller, "a4"))
    assert balance.values == (0, 1, 2, 3)
    assert not balance.raised


def test_attribute_sheets_are_secret_and_show_the_example_builds(ctx: SwordContext) -> None:
    component = build_attribute_sheets(ctx)
    assert len(component.pages) == 2
    for page in component.pages:
        said = words(" ".join(texts(page.items)))
        assert "Speed + Strength + Defense = 6" in said
        assert "from 1 to 4" in said
        for build in ctx.db.builds.values():
            assert build.name in said
        _width, height = PAPER_SIZES[ctx.paper]
        fold = [s for s in page.items if isinstance(s, Line) and s.style.dash and abs(s.y1 - height / 2) < 1e-6]
        assert fold, "a fold line across the middle"
        assert any(isinstance(s, Group) and s.rotate == 180 for s in page.items)  # the cover faces the opponent


def test_draft_sheet_lists_the_deck_and_the_steps(ctx: SwordContext) -> None:
    component = build_draft_sheet(ctx)
    said = words(" ".join(texts(component.pages[0].items)))
    for technique in ctx.db.draft_techniques():
        assert technique.name in said
    assert "remove 1 at random" in said
    assert "Discard 2 cards at random" in said
    assert "Discard the remaining" in said
    counts = draft_counts(10)
    assert [left for _, _, left in counts] == [9, 8, 5, 3, 0]
    for role in ("challenger", "defender"):
        assert sum(kept for step, (kept, _, _) in zip(DRAFT_STEPS, counts, strict=True) if step.actor == role) == 2


# --- the whole kit -------------------------------------------------------------------------------------

CARD_COMPONENTS = ("sword-cards",)


@pytest.fixture(scope="module")
def kit(ctx: SwordContext) -> list[Component]:
    return list(build_sword_components(ctx))


def test_every_page_renders_on_the_chosen_paper(ctx: SwordContext, kit: list[Component]) -> None:
    width, height = PAPER_SIZES[ctx.paper]
    pages = [page for component in kit for page in component.pages]
    # the print test (2 pages); 22 cards: 3 sheets of 8 on A4, 4 of 6 on Letter (front and back each);
    # tokens take 2 pages on Letter
    assert len(pages) == {"a4": 15, "letter": 18}[ctx.paper]
    cards = next(component for component in kit if component.name == "sword-cards")
    assert len(cards.deck) == 22
    assert len(cards.pages) == 2 * -(-22 // card_grid(ctx.paper, CARD_W, CARD_H).per_sheet)
    assert all((page.width, page.height) == (width, height) for page in pages)
    pdf = render_pdf(Document("sword-duel kit", pages))
    assert len(pikepdf.open(io.BytesIO(pdf)).pages) == len(pages)
    assert not [w for component in kit for w in component.warnings]
    for component in kit:
        for slug, page in component.pieces:
            assert render_svg(page, slug).lstrip().startswith("<svg")


def test_card_fronts_are_followed_by_their_mirrored_backs(ctx: SwordContext, kit: list[Component]) -> None:
    grid = card_grid(ctx.paper, CARD_W, CARD_H)
    for component in (c for c in kit if c.name in CARD_COMPONENTS):
        pages = component.pages
        assert len(pages) % 2 == 0
        for front, back in zip(pages[::2], pages[1::2], strict=True):
            assert front.label.endswith("front")
            assert back.label.endswith("back")
            front_cards = [g for g in front.items if isinstance(g, Group)]
            back_cards = [g for g in back.items if isinstance(g, Group)]
            assert len(front_cards) == len(back_cards) > 0
            for slot, (f, b) in enumerate(zip(front_cards, back_cards, strict=True)):
                assert (f.dx, f.dy, f.rotate) == pytest.approx(grid.placement(slot))
                assert (b.dx, b.dy, b.rotate) == pytest.approx(grid.placement(slot, back=True))
        for slug, page in component.pieces:  # unimposed cards keep their bleed
            assert (page.width, page.height) == pytest.approx((CARD_W + 2 * BLEED, CARD_H + 2 * BLEED)), slug



def text_boxes(items, dx: float = 0.0, dy: float = 0.0, turn: float = 0.0) -> Iterator[tuple[str, float, float,
                                                                                              float, float]]:
    """(text, left, top, right, bottom) of every text on a page, through moved and turned groups."""
    c, s = math.cos(math.radians(turn)), math.sin(math.radians(turn))
    for item in items:
        if isinstance(item, Group):
            yield from text_boxes(item.items, dx + item.dx * c - item.dy * s, dy + item.dx * s + item.dy * c,
                                  turn + item.rotate)
        elif isinstance(item, Reuse):
            yield from text_boxes(item.items, dx, dy, turn)
        elif isinstance(item, Text):
            width = text_width(printable(item.text, item.font), item.font, item.size)
            left = item.x - {"start": 0.0, "middle": width / 2, "end": width}[item.anchor]
            corners = [(x, y) for x in (left, left + width)
                       for y in (item.y - item.size * PT_TO_MM * 0.8, item.y + item.size * PT_TO_MM * 0.25)]
            xs = [dx + x * c - y * s for x, y in corners]
            ys = [dy + x * s + y * c for x, y in corners]
            yield item.text, min(xs), min(ys), max(xs), max(ys)


def test_no_text_leaves_its_card_or_the_printable_page_or_overlaps_other_text(kit: list[Component]) -> None:
    for component in kit:
        for slug, page in component.pieces:
            is_card = component.name in CARD_COMPONENTS
            edge = BLEED + SAFE - 1.5 if is_card else 4.0  # inside the card frame / the printer's margin
            boxes = list(text_boxes(page.items))
            for text, left, top, right, bottom in boxes:
                assert left >= edge - 1e-6, (slug, text)
                assert right <= page.width - edge + 1e-6, (slug, text)
                assert top >= edge - 1e-6, (slug, text)
                assert bottom <= page.height - edge + 1e-6, (slug, text)
            for i, a in enumerate(boxes):
                for b in boxes[i + 1:]:
                    overlap_x = min(a[3], b[3]) - max(a[1], b[1])
                    overlap_y = min(a[4], b[4]) - max(a[2], b[2])
                    assert overlap_x <= 0.2 or overlap_y <= 0.2, (slug, a[0], b[0])


def test_mats_carry_a_turn_track_with_the_honor_turns_marked(monkeypatch) -> None:
    from toolkit.sword.kit.sheets import build_player_mats

    for honor_turn in (4, 6):
        monkeypatch.setattr(constants, "HONOR_TURN", honor_turn)
        mats = build_player_mats(SwordContext(load_database(), "letter"))
        for page in mats.pages:
            words = texts(page.items)
            assert "Turn track" in words
            assert words.count("no Retreat") == constants.TURN_LIMIT - honor_turn + 1
            numbers = [str(turn) for turn in range(1, constants.TURN_LIMIT + 1)]
            assert all(number in words for number in numbers)
        assert not mats.warnings


def test_the_kit_starts_with_its_own_print_test(ctx: SwordContext, kit: list[Component]) -> None:
    """Printed first, with the colours this kit prints (each with its letter), mirrored duplex marks, and the
    smallest text of the rest of the kit stated as measured."""
    assert kit[0].name == "sword-print-test"
    front, back = kit[0].pages
    assert (front.side, back.side) == ("front", "back")
    printed = texts(front.items)
    assert {side.key for side in LOOKS} | {"C", "D", "1", "2", "3"} <= set(printed)
    assert "Range: Close" in printed
    smallest = min(item.size for part in kit[1:] for page in part.pages for item in leaves(page.items)
                   if isinstance(item, Text) and item.text.strip())
    assert f"smallest text in this kit is {smallest:.1f} pt" in words(" ".join(printed))
    width = PAPER_SIZES[ctx.paper][0]
    marks = [sorted((round(c.cx, 3), round(c.cy, 3)) for c in leaves(page.items) if isinstance(c, Circle)
                    and c.r == 3.0) for page in (front, back)]
    assert len(marks[0]) == 2
    assert sorted((round(width - x, 3), y) for x, y in marks[0]) == marks[1]
