"""Module cards, the d10 table, spinner discs and the print test, for both bundled themes."""

from __future__ import annotations

import itertools
import math
import re
from collections.abc import Iterator

import pytest

from toolkit.figure.constants import DISK_TOTAL
from toolkit.figure.database import find_datasets, load_database
from toolkit.figure.kit.colors import SEGMENT
from toolkit.figure.kit.context import KitContext
from toolkit.figure.kit.d10_sheet import build_d10
from toolkit.figure.kit.module_cards import build_modules, effect_tag
from toolkit.figure.kit.print_test import build_print_test
from toolkit.figure.kit.spinners import build_spinners
from toolkit.figure.rules.disk import d10_pair_to_roll, ranges
from toolkit.kit.component import Component
from toolkit.kit.print_test import MARK_R, RULER_MM
from toolkit.render.impose import BLEED, PAPER_SIZES
from toolkit.render.pdf import render_pdf
from toolkit.render.scene import Circle, Document, Group, Line, Page, Rect, Shape, Text, Wedge

DATASETS = {dataset.theme_id: dataset for dataset in find_datasets(None)[0]}
THEMES = sorted(DATASETS)
BUILDERS = [build_modules, build_d10, build_spinners, build_print_test]


@pytest.fixture(scope="module", params=THEMES)
def ctx(request: pytest.FixtureRequest) -> KitContext:
    return KitContext(load_database(DATASETS[request.param]), "a4")


def flat(items: list[Shape] | tuple[Shape, ...], dx: float = 0.0, dy: float = 0.0) -> Iterator[Shape]:
    """Leaf shapes with unrotated groups' offsets applied (rotated groups are yielded whole)."""
    for item in items:
        if isinstance(item, Group) and not item.rotate:
            yield from flat(item.items, dx + item.dx, dy + item.dy)
        elif isinstance(item, Group):
            yield item
        elif isinstance(item, Text):
            yield Text(item.x + dx, item.y + dy, item.text, item.size, item.font, item.color, item.anchor)
        elif isinstance(item, Line):
            yield Line(item.x1 + dx, item.y1 + dy, item.x2 + dx, item.y2 + dy, item.style)
        elif isinstance(item, Circle):
            yield Circle(item.cx + dx, item.cy + dy, item.r, item.style)
        elif isinstance(item, Wedge):
            yield Wedge(item.cx + dx, item.cy + dy, item.r, item.start, item.extent, item.style)
        else:
            yield item


def texts(items: list[Shape] | tuple[Shape, ...]) -> list[str]:
    """Every string on a page, including those inside rotated groups."""
    found = []
    for item in items:
        if isinstance(item, Group):
            found += texts(item.items)
        elif isinstance(item, Text):
            found.append(item.text)
    return found


# Module cards -------------------------------------------------------------------------------------------

def test_module_cards_one_deck_per_side_with_backs_after_fronts(ctx: KitContext) -> None:
    component = build_modules(ctx)
    modules = sorted(ctx.db.modules)
    assert modules, "the bundled themes ship modules"
    fronts = [page for page in component.pages if page.label.endswith("front")]
    cards = [item for page in fronts for item in page.items if isinstance(item, Group)]
    assert len(cards) == sum(ctx.module_copies().values()) > len(modules)  # both squads share some modules
    # Every front sheet is followed by its back sheet, with as many cards on it.
    assert [page.label.endswith("front") for page in component.pages] == [True, False] * len(fronts)
    for front, back in zip(component.pages[::2], component.pages[1::2], strict=True):
        assert front.label.replace("front", "back") == back.label
        count = sum(isinstance(item, Group) for item in front.items)
        assert sum(isinstance(item, Group) for item in back.items) == count
    slugs = [slug for slug, _ in component.pieces]
    sides = ctx.squads_by_side()
    expected = []
    for mid in modules:
        owners = [side.value.lower() for side, squad in sides.items() if squad and mid in squad.modules]
        expected += [f"module-{owner}-{mid}" for owner in owners] or [f"module-{mid}"]
    assert slugs == [*expected, "back-module"]
    for _, piece in component.pieces:
        assert (piece.width, piece.height) == pytest.approx((63.5 + 2 * BLEED, 88.9 + 2 * BLEED))


def test_module_cards_use_the_theme_words_and_data(ctx: KitContext) -> None:
    component = build_modules(ctx)
    terms = ctx.theme.terms
    pieces = dict(component.pieces)
    for module_id, entry in ctx.db.modules.items():
        module = entry.value
        words = texts(next(piece for slug, piece in component.pieces
                           if slug in (f"module-{module_id}", f"module-a-{module_id}", f"module-b-{module_id}")).items)
        assert module.name in words
        assert terms.module.upper() in words
        assert "Used" in words
        assert effect_tag(module, ctx.theme.terms) in words
        amount = getattr(module.effect, "amount", None)
        if amount is not None:
            assert str(amount) in effect_tag(module, terms)
        body = " ".join(words)
        assert all(word in body for word in module.text.split()[:3])
    assert terms.module in texts(pieces["back-module"].items)
    assert terms.game in texts(pieces["back-module"].items)
    assert not component.warnings


def test_module_text_stays_inside_the_safe_area(ctx: KitContext) -> None:
    from toolkit.kit.cards import SAFE
    from toolkit.render.fonts import text_width

    for slug, piece in build_modules(ctx).pieces:
        if slug == "back-module":
            continue
        for item in flat(piece.items, -BLEED, -BLEED):
            if isinstance(item, Text):
                width = text_width(item.text, item.font, item.size)
                left = {"start": item.x, "middle": item.x - width / 2, "end": item.x - width}[item.anchor]
                assert left >= SAFE - 1e-6, (slug, item.text)
                assert left + width <= 63.5 - SAFE + 1e-6, (slug, item.text)
                assert SAFE <= item.y <= 88.9 - SAFE, (slug, item.text)


def test_overlong_module_text_is_cut_with_a_warning(ctx: KitContext) -> None:
    module_id, entry = sorted(ctx.db.modules.items())[0]
    long_module = entry.value.model_copy(update={"text": "word " * 400})
    db = ctx.db
    original = db.modules[module_id]
    db.modules[module_id] = type(original)(long_module, original.source, original.data, original.where)
    try:
        component = build_modules(KitContext(db, "a4"))
    finally:
        db.modules[module_id] = original
    assert [w.code for w in component.warnings] == ["R001"]
    assert module_id in component.warnings[0].message
    cards = [piece for slug, piece in component.pieces
             if slug in (f"module-{module_id}", f"module-a-{module_id}", f"module-b-{module_id}")]
    assert any(text.endswith("…") for card in cards for text in texts(card.items))


# d10 table ----------------------------------------------------------------------------------------------

def test_d10_grid_matches_the_rules(ctx: KitContext) -> None:
    component = build_d10(ctx)
    assert len(component.pages) == 1
    assert [slug for slug, _ in component.pieces] == ["d10"]
    page = component.pages[0]
    assert (page.width, page.height) == PAPER_SIZES["a4"]
    cells = [item for item in flat(page.items) if isinstance(item, Text)
             and (re.fullmatch(r"\d\d", item.text) or item.text == "again")]
    assert len(cells) == 100
    rows = sorted({round(cell.y, 3) for cell in cells})
    cols = sorted({round(cell.x, 3) for cell in cells})
    assert len(rows) == 10
    assert len(cols) == 10
    grid = {(rows.index(round(c.y, 3)), cols.index(round(c.x, 3))): c.text for c in cells}
    for tens in range(10):
        for ones in range(10):
            roll = d10_pair_to_roll(tens, ones)
            assert grid[tens, ones] == ("again" if roll is None else f"{roll:02d}")
    numbers = sorted(int(text) for text in grid.values() if text != "again")
    assert numbers == list(range(1, DISK_TOTAL + 1))
    assert list(grid.values()).count("again") == 4
    # 'again' cells are shaded, and everything lies inside the 12 mm margins.
    shaded = [item for item in page.items if isinstance(item, Rect) and item.style.fill == "#d9d9d9"]
    assert len(shaded) == 4
    for item in flat(page.items):
        if isinstance(item, Text):
            assert 12 - 1e-6 <= item.y <= page.height - 12 + 3


def test_d10_how_to_and_theme_words(ctx: KitContext) -> None:
    words = " ".join(texts(build_d10(ctx).pages[0].items))
    assert ctx.theme.terms.data_disk in words
    assert "0-0 reads 100" in words
    assert "97-100" in words
    assert "again" in words


# Spinners ------------------------------------------------------------------------------------------------

def test_one_spinner_per_unit_with_proportional_wedges(ctx: KitContext) -> None:
    component = build_spinners(ctx)
    units = ctx.units()
    assert [slug for slug, _ in component.pieces] == [f"spinner-{unit.id}" for unit in units]
    for unit, (_, piece) in zip(units, component.pieces, strict=True):
        wedges = [item for item in flat(piece.items) if isinstance(item, Wedge)]
        assert len(wedges) == len(unit.disk)
        assert sum(w.extent for w in wedges) == pytest.approx(360)
        start = 0.0
        for wedge, segment, (low, _) in zip(wedges, unit.disk, ranges(unit.disk), strict=True):
            assert wedge.start == pytest.approx(start) == pytest.approx((low - 1) * 360 / DISK_TOTAL)
            assert wedge.extent == pytest.approx(segment.size * 360 / DISK_TOTAL)
            assert wedge.style.fill == SEGMENT[segment.color].fill
            start += wedge.extent
        assert 2 * wedges[0].r == pytest.approx(80, abs=5)
        words = texts(piece.items)
        assert "".join(words[-len(unit.name):]) == unit.name  # letter by letter along the bottom arc
        assert "pierce here" in words
        for segment in unit.disk:
            assert SEGMENT[segment.color].letter in words


def test_spinner_pages_hold_four_or_six_discs_with_cut_circles(ctx: KitContext) -> None:
    component = build_spinners(ctx)
    per_page = [sum(isinstance(i, Wedge) and i.start == 0 for i in page.items) for page in component.pages]
    assert sum(per_page) == len(ctx.units())
    assert per_page[0] in (4, 6)
    assert all(count <= per_page[0] for count in per_page)
    assert len(component.pages) == math.ceil(len(ctx.units()) / per_page[0])
    for page in component.pages:
        cut = [item for item in page.items if isinstance(item, Circle) and item.style.dash]
        discs = [item for item in page.items if isinstance(item, Wedge) and item.start == 0]
        assert len(cut) == len(discs)
        for circle in cut:
            assert circle.cx - circle.r >= 0
            assert circle.cx + circle.r <= page.width
            assert circle.cy - circle.r >= 0
            assert circle.cy + circle.r <= page.height
        for a in cut:  # cut circles never overlap
            for b in cut:
                if a is not b:
                    assert math.dist((a.cx, a.cy), (b.cx, b.cy)) >= a.r + b.r


def test_letter_paper_spinners_fit() -> None:
    ctx = KitContext(load_database(DATASETS[THEMES[0]]), "letter")
    component = build_spinners(ctx)
    for page in component.pages:
        assert (page.width, page.height) == PAPER_SIZES["letter"]
        for item in page.items:
            if isinstance(item, Circle):
                assert item.cy + item.r <= page.height - 5


# Print test ----------------------------------------------------------------------------------------------

@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_print_test_ruler_and_mirrored_duplex_marks(paper: str) -> None:
    ctx = KitContext(load_database(DATASETS[THEMES[0]]), paper)
    component = build_print_test(ctx)
    assert len(component.pages) == 2
    assert [slug for slug, _ in component.pieces] == ["print-test-front", "print-test-back"]
    front, back = component.pages
    width, _ = PAPER_SIZES[paper]
    assert (front.width, front.height) == (back.width, back.height) == PAPER_SIZES[paper]

    # The ruler: numbers 0, 10, ..., 100 exactly 10 mm apart, a tick every millimetre, 100 mm in all.
    labels = {item.text: item for item in flat(front.items) if isinstance(item, Text)
              and re.fullmatch(r"\d+", item.text) and int(item.text) % 10 == 0 and int(item.text) <= RULER_MM}
    assert sorted(map(int, labels)) == list(range(0, RULER_MM + 1, 10))
    assert labels[str(RULER_MM)].x - labels["0"].x == pytest.approx(100.0)
    for mm in range(0, RULER_MM + 1, 10):
        assert labels[str(mm)].x - labels["0"].x == pytest.approx(mm)
    ticks = [item for item in flat(front.items) if isinstance(item, Line) and item.x1 == item.x2
             and labels["0"].x - 1e-6 <= item.x1 <= labels[str(RULER_MM)].x + 1e-6
             and labels["0"].y - 12 < item.y1 < labels["0"].y]
    xs = sorted({round(tick.x1, 6) for tick in ticks})
    assert len(xs) == RULER_MM + 1
    assert xs[-1] - xs[0] == pytest.approx(100.0)
    assert all(b - a == pytest.approx(1.0) for a, b in itertools.pairwise(xs))

    # The 80 x 50 mm box and its label.
    assert any(isinstance(item, Rect) and (item.w, item.h) == (80, 50) for item in front.items)
    words = " ".join(texts(front.items))
    assert "80 × 50 mm" in words
    assert "100%" in words
    assert "100 mm" in words

    # Duplex marks: the back has each front mark at paper_width - x, same y.
    marks_front = sorted((c.cx, c.cy) for c in flat(front.items) if isinstance(c, Circle) and c.r == MARK_R)
    marks_back = sorted((c.cx, c.cy) for c in flat(back.items) if isinstance(c, Circle) and c.r == MARK_R)
    assert len(marks_front) == 2
    mirrored_front = sorted((width - x, y) for x, y in marks_front)
    for (x1, y1), (x2, y2) in zip(mirrored_front, marks_back, strict=True):
        assert (x1, y1) == (pytest.approx(x2), pytest.approx(y2))
    assert all(x != pytest.approx(width / 2) for x, _ in marks_front)  # a centred mark would prove nothing
    assert "A back" in texts(back.items)
    assert "A front" in texts(front.items)


# Rendering ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("build", BUILDERS, ids=lambda b: b.__name__)
def test_components_render_to_pdf(build, paper: str) -> None:
    for theme in THEMES:
        component: Component = build(KitContext(load_database(DATASETS[theme]), paper))
        assert component.pages
        assert component.pieces
        assert not component.warnings
        pdf = render_pdf(Document(component.title, component.pages))
        assert pdf.startswith(b"%PDF")
        assert pdf.count(b"/Type /Page\n") + pdf.count(b"/Type /Page ") >= 1
        assert all(isinstance(page, Page) for _, page in component.pieces)


def test_each_spinner_name_lies_inside_its_cut_circle() -> None:
    from toolkit.figure.kit.spinners import CUT_GAP, DIAMETER, arc_name

    radius = DIAMETER / 2
    letters, overflow = arc_name("Conductor-Class Unit M-490", 0.0, 0.0, radius)
    assert not overflow
    for letter in letters:
        assert isinstance(letter, Group)
        distance = math.hypot(letter.dx, letter.dy)
        assert radius < distance < radius + CUT_GAP  # between the disc and the dashed cut line
        assert letter.dy > 0  # along the bottom, upright
