"""The board sheet and the token sheets, checked the way a player would look at the printout."""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Iterator
from functools import cache

import pytest

from toolkit.figure.database import find_datasets, load_database
from toolkit.figure.kit.board_sheet import board_drawing, build_board, node_radius
from toolkit.figure.kit.context import KitContext
from toolkit.figure.kit.tokens import MARKER_DIAMETER, PAGE_MARGIN, build_tokens, designation
from toolkit.kit.bleed import TOKEN_BLEED
from toolkit.kit.palette import TEAM
from toolkit.render.fonts import text_width
from toolkit.render.impose import PAPER_SIZES
from toolkit.render.pdf import render_pdf
from toolkit.render.scene import PT_TO_MM, Circle, Document, Group, Line, Polygon, Shape, Text

THEMES = ("duel-protocol", "chimera")
OTHER = {"duel-protocol": "chimera", "chimera": "duel-protocol"}


@cache
def _db(theme: str):
    dataset = next(ds for ds in find_datasets(None)[0] if ds.theme_id == theme)
    return load_database(dataset)


def ctx_for(theme: str, paper: str = "a4") -> KitContext:
    return KitContext(_db(theme), paper)


def flatten(items, dx: float = 0.0, dy: float = 0.0, rotate: float = 0.0) -> Iterator[tuple[Shape, float, float]]:
    """Every leaf shape with the absolute position of its anchor (circle centre, text point, ...)."""
    cos, sin = math.cos(math.radians(rotate)), math.sin(math.radians(rotate))

    def place(x: float, y: float) -> tuple[float, float]:
        return dx + x * cos - y * sin, dy + x * sin + y * cos

    for item in items:
        if isinstance(item, Group):
            gx, gy = place(item.dx, item.dy)
            yield from flatten(item.items, gx, gy, rotate + item.rotate)
        elif isinstance(item, Circle):
            yield (item, *place(item.cx, item.cy))
        elif isinstance(item, Text):
            yield (item, *place(item.x, item.y))
        elif isinstance(item, Line):
            x1, y1 = place(item.x1, item.y1)
            x2, y2 = place(item.x2, item.y2)
            yield (Line(x1, y1, x2, y2, item.style), x1, y1)
        elif isinstance(item, Polygon):
            points = tuple(place(x, y) for x, y in item.points)
            yield (Polygon(points, item.style), *points[0])
        else:
            yield (item, dx, dy)


def texts(items) -> list[str]:
    return [shape.text for shape, _, _ in flatten(items) if isinstance(shape, Text)]


def luminance(color: str) -> float:
    r, g, b = (int(color[i:i + 2], 16) / 255 for i in (1, 3, 5))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


# --- board -------------------------------------------------------------------------------------------

@pytest.mark.parametrize("theme", THEMES)
def test_board_nodes_are_token_sized_circles_at_their_coordinates(theme):
    ctx = ctx_for(theme)
    board = ctx.db.board
    drawing = board_drawing(ctx)
    ox, oy = drawing.origin
    circles = [(shape, x, y) for shape, x, y in flatten(drawing.items) if isinstance(shape, Circle)]
    found = set()
    for name, node in board.nodes.items():
        for circle, x, y in circles:
            if math.isclose(x, ox + node.x, abs_tol=1e-6) and math.isclose(y, oy + node.y, abs_tol=1e-6) \
                    and 2 * circle.r >= board.token_diameter_mm + 0.9:
                found.add(name)
    assert len(board.nodes) == 28
    assert found == set(board.nodes)
    # node circles never touch each other
    names = sorted(board.nodes)
    radius = node_radius(board)
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            na, nb = board.nodes[a], board.nodes[b]
            assert math.dist((na.x, na.y), (nb.x, nb.y)) > 2 * radius + 1


@pytest.mark.parametrize("theme", THEMES)
def test_board_draws_every_route_once_as_a_dark_line(theme):
    ctx = ctx_for(theme)
    board = ctx.db.board
    drawing = board_drawing(ctx)
    ox, oy = drawing.origin
    centres = {(round(ox + n.x, 4), round(oy + n.y, 4)): name for name, n in board.nodes.items()}
    routes = []
    for shape, _, _ in flatten(drawing.items):
        if isinstance(shape, Line):
            a = centres.get((round(shape.x1, 4), round(shape.y1, 4)))
            b = centres.get((round(shape.x2, 4), round(shape.y2, 4)))
            if a and b:
                routes.append(frozenset((a, b)))
                assert shape.style.width >= 0.8
                assert luminance(shape.style.stroke) < 0.3
    assert len(routes) == 34
    assert set(routes) == {frozenset(route) for route in board.routes}


@pytest.mark.parametrize("theme", THEMES)
def test_board_words_come_from_the_theme(theme):
    ctx = ctx_for(theme)
    words = texts(board_drawing(ctx).items)
    terms, other = ctx.theme.terms, ctx_for(OTHER[theme]).theme.terms
    for word in (terms.hangar, terms.repair_bay, terms.goal, terms.game, terms.player):
        assert any(word in text for text in words), word
    assert sum(text == terms.entry for text in words) == 4  # two entries per side
    assert sum(text == terms.goal for text in words) == 2
    for word in (other.hangar, other.player, other.game):
        if word not in (terms.hangar, terms.player, terms.game):
            assert not any(word in text for text in words), word
    assert words.count("A") >= 4
    assert words.count("B") >= 4


def _zone_groups(drawing):
    return [item for item in drawing.items if isinstance(item, Group)
            and sum(isinstance(shape, Circle) for shape in item.items) == 8]


@pytest.mark.parametrize("theme", THEMES)
def test_each_player_has_six_hangar_and_two_repair_bay_circles_on_their_own_side(theme):
    ctx = ctx_for(theme)
    board = ctx.db.board
    drawing = board_drawing(ctx)
    zones = _zone_groups(drawing)
    assert len(zones) == 2
    _ox, oy = drawing.origin
    board_top = oy + min(n.y for n in board.nodes.values()) - node_radius(board)
    board_bottom = oy + max(n.y for n in board.nodes.values()) + node_radius(board)
    by_rotation = {zone.rotate: zone for zone in zones}
    assert set(by_rotation) == {0.0, 180.0}  # B's zone turned to read from B's side
    for rotate, below in ((0.0, True), (180.0, False)):
        zone = by_rotation[rotate]
        shapes = list(flatten([zone]))
        slots = [(s, x, y) for s, x, y in shapes if isinstance(s, Circle)]
        assert len(slots) == 8
        assert all(2 * s.r >= board.token_diameter_mm for s, _, _ in slots)
        for _, _, y in slots:
            assert (y - board.token_diameter_mm / 2 > board_bottom) if below else (
                y + board.token_diameter_mm / 2 < board_top)
        crosses = [s for s, _, _ in shapes if isinstance(s, Polygon) and len(s.points) == 12]
        assert len(crosses) == 2
        marked = set()
        for cross in crosses:
            cx = sum(p[0] for p in cross.points) / 12
            cy = sum(p[1] for p in cross.points) / 12
            marked |= {i for i, (_, x, y) in enumerate(slots) if math.dist((x, y), (cx, cy)) < 0.5}
        assert len(marked) == 2
        words = [s.text for s, _, _ in shapes if isinstance(s, Text)]
        assert ctx.theme.terms.hangar in " ".join(words)
        assert ctx.theme.terms.repair_bay.split()[0] in " ".join(words)


@pytest.mark.parametrize("theme", THEMES)
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_board_tiles_onto_two_sheets_and_renders(theme, paper):
    ctx = ctx_for(theme, paper)
    component = build_board(ctx)
    assert component.name == "board"
    assert len(component.pages) == 2
    assert all((page.width, page.height) == PAPER_SIZES[paper] for page in component.pages)
    assert [slug for slug, _ in component.pieces] == ["board"]
    piece = component.pieces[0][1]
    drawing = board_drawing(ctx)
    assert (piece.width, piece.height) == (drawing.width, drawing.height)
    assert not component.warnings
    pdf = render_pdf(Document(component.title, [*component.pages, piece]))
    assert pdf.startswith(b"%PDF")
    assert len(pdf) > 2000


@pytest.mark.parametrize("theme", THEMES)
def test_board_zone_circles_stay_clear_of_the_board_and_the_drawing_edge(theme):
    ctx = ctx_for(theme)
    drawing = board_drawing(ctx)
    circles = [(s, x, y) for s, x, y in flatten(drawing.items) if isinstance(s, Circle)]
    for circle, x, y in circles:
        assert x - circle.r >= -1e-6
        assert x + circle.r <= drawing.width + 1e-6
        assert y - circle.r >= -1e-6
        assert y + circle.r <= drawing.height + 1e-6
    big = [(c, x, y) for c, x, y in circles if c.r >= ctx.db.board.token_diameter_mm / 2]
    for i, (a, ax, ay) in enumerate(big):
        for b, bx, by in big[i + 1:]:
            distance = math.dist((ax, ay), (bx, by))
            assert distance < 1e-6 or distance >= a.r + b.r, "two circles overlap"


# --- tokens ------------------------------------------------------------------------------------------

def _token_groups(page):
    """Every disc on a sheet: a group whose first shape is its background, TOKEN_BLEED past its cut circle."""
    return [item for item in page.items if isinstance(item, Group) and item.items
            and isinstance(item.items[0], Circle)]


def _cut_radius(group) -> float:
    return group.items[0].r - TOKEN_BLEED


def _expected_side(ctx: KitContext, side: str) -> list[str]:
    units = {unit.id: unit for unit in ctx.units()}
    squad = ctx.squads_by_side()[side]
    if squad is None:
        return sorted(units)
    wanted = list(squad.units)
    for uid in squad.units:
        nxt = units[uid].upgrades_to
        while nxt and nxt not in wanted:
            wanted.append(nxt)
            nxt = units[nxt].upgrades_to
    return wanted


def _tokens_by_side(component, diameter: float):
    result: dict[str, list[list[str]]] = {"A": [], "B": []}
    for page in component.pages:
        for group in _token_groups(page):
            background = group.items[0]
            if math.isclose(2 * _cut_radius(group), diameter):
                side = next(s for s, swatch in TEAM.items() if swatch.fill == background.style.fill)
                result[side].append([t.text for t in group.items if isinstance(t, Text)])
    return result


@pytest.mark.parametrize("theme", THEMES)
def test_each_side_gets_its_squad_and_every_upgrade_form(theme):
    ctx = ctx_for(theme)
    diameter = ctx.db.board.token_diameter_mm
    tokens = _tokens_by_side(build_tokens(ctx), diameter)
    units = {unit.id: unit for unit in ctx.units()}
    for side in ("A", "B"):
        expected = _expected_side(ctx, side)
        assert len(expected) > 6  # the bundled squads include units that upgrade
        # the squad and its upgrade forms come first; every other unit follows, so squads can be changed
        assert len(tokens[side]) == len(units)
        codes = sorted(next(text for text in token if text == designation(units[uid]))
                       for token, uid in zip(tokens[side][: len(expected)], expected, strict=True))
        assert codes == sorted(uid.upper() for uid in expected)
        for token, uid in zip(tokens[side][: len(expected)], expected, strict=True):
            assert f"{ctx.theme.terms.mp} {units[uid].mp}" in token


def test_without_squads_each_side_gets_one_token_per_unit():
    db = load_database(next(ds for ds in find_datasets(None)[0] if ds.theme_id == "duel-protocol"))
    db.squads = {}
    ctx = KitContext(db, "a4")
    tokens = _tokens_by_side(build_tokens(ctx), db.board.token_diameter_mm)
    assert len(tokens["A"]) == len(tokens["B"]) == len(ctx.units())


def test_team_colours_differ_in_grey():
    assert abs(luminance(TEAM["A"].fill) - luminance(TEAM["B"].fill)) > 0.4
    for swatch in TEAM.values():  # the ink on each fill is readable
        assert abs(luminance(swatch.fill) - luminance(swatch.ink)) > 0.4


@pytest.mark.parametrize("theme", THEMES)
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_every_text_stays_inside_its_disc(theme, paper):
    component = build_tokens(ctx_for(theme, paper))
    checked = 0
    for page in component.pages:
        for group in _token_groups(page):
            r = _cut_radius(group)
            for item in group.items:
                if not isinstance(item, Text):
                    continue
                half = text_width(item.text, item.font, item.size) / 2
                top = item.y - item.size * PT_TO_MM * 0.75
                bottom = item.y + item.size * PT_TO_MM * 0.22
                for x in (item.x - half, item.x + half):
                    for y in (top, bottom):
                        assert math.hypot(x, y) <= r, f"'{item.text}' leaves its {2 * r:g} mm disc"
                checked += 1
    assert checked > 60


@pytest.mark.parametrize("theme", THEMES)
def test_marker_words_stay_inside_the_marker_ring(theme):
    """A status or Wait marker's words keep a visible gap to the thin ring inside its cut line: 'Confusion',
    'Scramble' and 'Rebooting' came within 0.3 mm of it (fitted to the cut line, not the ring)."""
    assert _words_clear_of_the_ring(build_tokens(ctx_for(theme)), MARKER_DIAMETER) > 20


@pytest.mark.parametrize("theme", THEMES)
def test_unit_token_words_stay_inside_the_token_ring_even_for_long_names(theme):
    """A long class name or MP word is shrunk or left off; it never runs over the token's ring (it was
    fitted to the cut line, 0.1 mm outside the ring)."""
    db = _db(theme)
    # names and designations of every length, so some fill their line to the last tenth of a millimetre
    long_named = {uid: dataclasses.replace(entry, value=entry.value.model_copy(update={
        "name": "Wm" * (3 + index), "id": "W" * (3 + index % 6)}))
        for index, (uid, entry) in enumerate(db.units.items())}
    ctx = KitContext(dataclasses.replace(db, units=long_named), "a4")
    assert _words_clear_of_the_ring(build_tokens(ctx), ctx.db.board.token_diameter_mm) > 40


def _words_clear_of_the_ring(component, diameter: float) -> int:
    """Checks every word of every disc of `diameter` keeps 0.4 mm inside its innermost ring; returns how many."""
    checked = 0
    for page in component.pages:
        for group in _token_groups(page):
            if not math.isclose(2 * _cut_radius(group), diameter):
                continue
            ring = min(c.r - c.style.width / 2 for c in group.items
                       if isinstance(c, Circle) and c.style.fill is None and c.r < _cut_radius(group) - 0.5)
            for item in group.items:
                if not isinstance(item, Text) or not item.text.replace("-", "").replace(" ", "").isalnum():
                    continue
                if item.text == "1" and diameter == MARKER_DIAMETER:
                    continue  # the Wait marker's big '1' sits below the ring's word
                half = text_width(item.text, item.font, item.size) / 2
                top, bottom = item.y - item.size * PT_TO_MM * 0.75, item.y + item.size * PT_TO_MM * 0.22
                far = max(math.hypot(x, y) for x in (item.x - half, item.x + half) for y in (top, bottom))
                assert ring - far >= 0.4, (item.text, round(far, 2), round(ring, 2))
                checked += 1
    return checked

@pytest.mark.parametrize("theme", THEMES)
def test_status_and_wait_markers(theme):
    ctx = ctx_for(theme)
    component = build_tokens(ctx)
    markers = [group for page in component.pages for group in _token_groups(page)
               if math.isclose(2 * _cut_radius(group), MARKER_DIAMETER)]
    printed = []
    for group in markers:
        lines = [t.text for t in group.items if isinstance(t, Text)]
        printed.append(" ".join(lines).replace("- ", "-"))
    for name in ctx.theme.statuses.values():
        assert printed.count(name) == 3, name
    wait = f"{ctx.theme.terms.wait} 1"
    assert printed.count(wait) == 6
    assert len(markers) == 3 * len(ctx.theme.statuses) + 6
    assert not component.warnings


@pytest.mark.parametrize("theme", THEMES)
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_token_sheets_are_tidy_and_render(theme, paper):
    ctx = ctx_for(theme, paper)
    component = build_tokens(ctx)
    assert component.name == "tokens"
    assert [slug for slug, _ in component.pieces] == [f"tokens-p{i}" for i in range(1, len(component.pages) + 1)]
    width, height = PAPER_SIZES[paper]
    words = texts([item for page in component.pages for item in page.items])
    for side in ("A", "B"):
        squad = ctx.squads_by_side()[side]
        assert any(squad.name in text and side in text for text in words)
    assert not any(OTHER_WORD in " ".join(words) for OTHER_WORD in
                   {ctx_for(OTHER[theme]).theme.terms.wait, ctx_for(OTHER[theme]).theme.terms.player})
    for page in component.pages:
        assert (page.width, page.height) == (width, height)
        discs = [(group.dx, group.dy, _cut_radius(group)) for group in _token_groups(page)]
        for x, y, r in discs:
            assert x - r >= PAGE_MARGIN - 1e-6
            assert x + r <= width - PAGE_MARGIN + 1e-6
            assert y - r >= PAGE_MARGIN - 1e-6
            assert y + r <= height - PAGE_MARGIN + 1e-6
        for i, (ax, ay, ar) in enumerate(discs):
            for bx, by, br in discs[i + 1:]:
                assert math.dist((ax, ay), (bx, by)) >= ar + br + 2, "discs too close to cut apart"
    pdf = render_pdf(Document(component.title, component.pages))
    assert pdf.startswith(b"%PDF")
