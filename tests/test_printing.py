"""Home printing, measured on the PDFs: duplex parity of kit.pdf, the print plan, --simplex, --back-offset,
safe margins (frame insets, distance to the paper edge), --guides, boards that assemble, --layout fold."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pdfplumber
import pikepdf
import pypdfium2
import pytest

from toolkit.cli import main
from toolkit.render.impose import PAPER_SIZES, SHEET_MARGIN, TILE_MARGIN, seam_positions

MM = 72 / 25.4
BLANK = "this side is left blank on purpose"
UNIT = """id: {uid}
name: Unit {name}
class: C
mp: 2
disk:
  - {{move: Strike, color: white, size: 40, damage: 30}}
  - {{move: Guard, color: blue, size: 30}}
  - {{move: Miss, color: red, size: 26}}
"""


def project_with(base: Path, units: int) -> Path:
    """The base project (7 units) grown to `units` units."""
    for number in range(units - 7):
        (base / "unit_data" / f"extra-{number}.yaml").write_text(UNIT.format(uid=f"x-{number}", name=f"X{number:02d}"))
    return base


def page_texts(pdf_path: Path) -> list[str]:
    """Each page's text (pdfium: fast), with line breaks as spaces; the plan page laid out by pdfplumber."""
    document = pypdfium2.PdfDocument(str(pdf_path))
    try:
        texts = [" ".join(page.get_textpage().get_text_range().split()) for page in document]
    finally:
        document.close()
    with pdfplumber.open(pdf_path) as pdf:
        if texts and texts[0].startswith("How to print"):
            texts[0] = pdf.pages[0].extract_text() or ""
    return texts


def crop_xs(page) -> list[float]:
    """x (mm) of the short vertical crop marks above the top row of cards."""
    top_marks = [line for line in page.lines if abs(line["x0"] - line["x1"]) < 0.01
                 and 2.5 < (line["bottom"] - line["top"]) / MM < 3.5 and line["top"] / MM < 40]
    return sorted(round(line["x0"] / MM, 2) for line in top_marks)


def crop_ys(page) -> list[float]:
    """y (mm, from the top) of the short horizontal crop marks left of the card grid."""
    marks = [line for line in page.lines if abs(line["top"] - line["bottom"]) < 0.01
             and 2.5 < (line["x1"] - line["x0"]) / MM < 3.5 and line["x0"] / MM < 40]
    return sorted(round(line["top"] / MM, 2) for line in marks)


def plan_rows(text: str) -> list[tuple[int, int, str, str]]:
    """(first page, last page, how, part) for every row of the 'how to print' table."""
    rows = []
    for line in text.splitlines():
        found = re.match(r"^(\d+)(?:–(\d+))? (.*?) \d+ (double|single)-sided", line)
        if found:
            first, last = int(found.group(1)), int(found.group(2) or found.group(1))
            rows.append((first, last, found.group(4), found.group(3)))
    return rows


def plan_parts_ending_blank(text: str) -> set[str]:
    """The parts whose plan row says their last back page is blank (a text part with an odd page count)."""
    return {row[3] for row, line in zip(plan_rows(text), [ln for ln in text.splitlines()
                                                           if re.match(r"^\d+(?:–\d+)? .*-sided", ln)], strict=True)
            if "last back blank" in line}


@pytest.mark.parametrize("units", [20, 60])
def test_kit_pdf_is_duplex_safe(base_project: Path, units: int) -> None:
    project = project_with(base_project, units)
    assert main(["build", str(project)]) == 0
    kit = project / "output" / "duel-protocol" / "kit.pdf"
    texts = page_texts(kit)
    assert len(texts) % 2 == 0
    assert "How to print this kit" in texts[0]
    # blank backs only ever on even pages (the back of a sheet)
    blanks = [number for number, text in enumerate(texts, start=1) if BLANK in text]
    assert blanks
    assert all(number % 2 == 0 for number in blanks)
    # every unit's schematic front is on an odd page; the page after it is its back, mirrored for a
    # long-edge flip: the crop marks of the back are the front's, reflected about the sheet's middle
    width = PAPER_SIZES["a4"][0]
    names = [f"Unit X{n:02d}" for n in range(units - 7)]
    with pdfplumber.open(kit) as pdf:
        fronts = sorted({number for number, text in enumerate(texts, start=1) for name in names if name in text
                         and "Spinners" not in text and "spinner" not in text.lower()})
        schematic_fronts = [n for n in fronts if crop_xs(pdf.pages[n - 1])]
        assert schematic_fronts
        assert all(number % 2 == 1 for number in schematic_fronts)
        for number in schematic_fronts:
            front, back = pdf.pages[number - 1], pdf.pages[number]
            assert BLANK not in texts[number]
            assert not any(name in texts[number] for name in names)
            assert crop_xs(back) == sorted(round(width - x, 2) for x in crop_xs(front))
        # the token sheets (3 of them with 60 units) each take a sheet of their own
        tokens = [row for row in plan_rows(texts[0]) if row[3] == "Tokens"]
        assert len(tokens) == 1
        first, last = tokens[0][:2]
        assert (last - first + 1) // 2 == (3 if units == 60 else 2)
        assert all("Operator A" in texts[n - 1] or "Operator B" in texts[n - 1] or "Wait" in texts[n - 1]
                   for n in range(first, last + 1, 2))
        assert all(texts[n - 1].strip() == BLANK for n in range(first + 1, last + 1, 2))
    # the plan lists every page after itself once, each run starting on a front (odd) page
    rows = plan_rows(texts[0])
    assert rows[0][0] == 3
    assert rows[-1][1] == len(texts)
    for (first, last, _, _), following in zip(rows, [*rows[1:], (len(texts) + 1, 0, "", "")], strict=True):
        assert first % 2 == 1
        assert last % 2 == 0
        assert following[0] == last + 1
    ends_blank = plan_parts_ending_blank(texts[0])
    for first, last, how, part in rows:
        for number in range(first + 1, last + 1, 2):
            blank_back = how == "single" or (number == last and part in ends_blank)
            assert (BLANK in texts[number - 1]) == blank_back, (number, how)
    assert len({part for _, _, _, part in rows}) == len(rows)  # one row per part
    assert all(part[0].isupper() for _, _, _, part in rows)


def test_simplex_kit_has_no_backs_and_no_blanks(tmp_path: Path) -> None:
    assert main(["build", "--game", "duel-protocol", "--out", str(tmp_path / "d")]) == 0
    assert main(["build", "--game", "duel-protocol", "--simplex", "--out", str(tmp_path / "s")]) == 0
    duplex = page_texts(tmp_path / "d" / "duel-protocol" / "kit.pdf")
    simplex = page_texts(tmp_path / "s" / "duel-protocol" / "kit.pdf")
    assert not any(BLANK in text for text in simplex)
    assert not any("Print test: back" in text for text in simplex)
    card_backs = sum(1 for text in duplex if text.strip() and set(text.split()) <= {"DUEL", "PROTOCOL", "Reference",
                                                                                   "Schematic", "Strategic", "Module"})
    assert card_backs == 7  # 5 sheets of schematics, 2 of modules (a deck per side: 10 cards)
    # no card backs, no blank pages (the plan's included), no print-test back
    assert len(simplex) == len(duplex) - card_backs - sum(BLANK in text for text in duplex) - 1
    assert "single-sided" in simplex[0]
    assert "double-sided" not in simplex[0]


@pytest.mark.parametrize(("game", "options", "test_pdf"), [
    ("duel-protocol", ["--simplex"], "print-test.pdf"),
    ("sword-duel", ["--layout", "fold"], "sword-print-test.pdf")])
def test_one_sided_kit_print_test_is_one_page_without_duplex_steps(tmp_path: Path, game: str, options: list[str],
                                                                  test_pdf: str) -> None:
    """A one-sided kit leaves the print test's back out, so its front must not ask for both pages, a
    double-sided print or crosshairs to line up (the plan says: 1 sheet, single-sided)."""
    assert main(["build", "--game", game, *options, "--out", str(tmp_path)]) == 0
    kit = page_texts(tmp_path / game / "kit.pdf")
    front = kit[1]
    assert front.startswith("Print test")
    assert "Print this page at 100%" in front
    assert "single-sided" in front
    for duplex_only in ("page 1 of 2", "both pages", "double-sided", "crosshair", "A front", "--back-offset"):
        assert duplex_only not in front, duplex_only
    assert page_texts(tmp_path / game / test_pdf) == [front]
    assert re.search(r"Print test\s+1\s+single-sided", kit[0])  # the plan's row
    assert not kit[2].startswith("Print test")
    # the plan asks for the print settings in the print test's own words
    settings = '100% ("Actual size"; turn off "Fit to page" and "Shrink to fit")'
    assert settings in " ".join(kit[0].split())
    assert settings in front

def test_back_offset_moves_every_back_page(tmp_path: Path) -> None:
    assert main(["build", "--game", "duel-protocol", "--out", str(tmp_path / "plain")]) == 0
    shift = tmp_path / "shift"
    assert main(["build", "--game", "duel-protocol", "--back-offset", "1.5,-0.5", "--out", str(shift)]) == 0
    with pdfplumber.open(tmp_path / "plain" / "duel-protocol" / "kit.pdf") as plain, \
            pdfplumber.open(tmp_path / "shift" / "duel-protocol" / "kit.pdf") as shifted:
        assert len(plain.pages) == len(shifted.pages)
        moved = same = 0
        for number, (a, b) in enumerate(zip(plain.pages, shifted.pages, strict=True), start=1):
            if not crop_xs(a):
                continue
            if number % 2 == 0:  # a back: seen from the front 1.5 mm right and 0.5 mm up is cancelled by
                # moving it 1.5 mm to its own right and 0.5 mm down
                assert crop_xs(b) == pytest.approx([x + 1.5 for x in crop_xs(a)], abs=0.01)
                assert crop_ys(b) == pytest.approx([y + 0.5 for y in crop_ys(a)], abs=0.01)
                moved += 1
            else:
                assert crop_xs(b) == crop_xs(a)
                assert crop_ys(b) == crop_ys(a)
                same += 1
        assert moved >= 3
        assert same >= 3
    assert "--back-offset" in page_texts(tmp_path / "plain" / "duel-protocol" / "print-test.pdf")[0]


@pytest.mark.parametrize("value", ["1.5", "a,b", "30,0", "nan,1"])
def test_bad_back_offset_is_a_usage_error(capsys, value: str) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["build", "--back-offset", value, "--out", "/nonexistent/never"])
    assert stop.value.code == 2
    assert "--back-offset" in capsys.readouterr().err


def ink_margins(pdf_path: Path, dpi: int = 100) -> list[tuple[int, float]]:
    """(page, mm) from the paper edge to the nearest ink on every page, by rasterising the PDF: what a
    printer would have to print, clipping and all."""
    from PIL import ImageOps

    result = []
    document = pypdfium2.PdfDocument(str(pdf_path))
    try:
        for index in range(len(document)):
            image = document[index].render(scale=dpi / 72).to_pil().convert("L")
            box = ImageOps.invert(image).point(lambda v: 255 if v > 40 else 0).getbbox()
            if box is None:
                continue
            left, top, right, bottom = box
            width, height = image.size
            result.append((index + 1, min(left, top, width - right, height - bottom) * 25.4 / dpi))
    finally:
        document.close()
    return result


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_nothing_is_printed_in_the_printers_dead_zone(tmp_path: Path, paper: str) -> None:
    assert main(["build", "--paper", paper, "--out", str(tmp_path)]) == 0
    for game in ("duel-protocol", "chimera", "sword-duel"):
        for number, distance in ink_margins(tmp_path / game / "kit.pdf"):
            # one pixel at 100 dpi is 0.25 mm: the measured edge may sit that much inside the true one
            assert distance >= SHEET_MARGIN - 0.26, (game, number, distance)


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_card_frames_sit_three_mm_inside_the_trim(tmp_path: Path, paper: str) -> None:
    assert main(["build", "--game", "duel-protocol", "--paper", paper, "--out", str(tmp_path)]) == 0
    with pdfplumber.open(tmp_path / "duel-protocol" / "schematics.pdf") as pdf:
        page = pdf.pages[0]
        xs, ys = crop_xs(page), crop_ys(page)
        frames = [c for c in page.curves + page.rects if c.get("stroke") and not c.get("fill")
                  and 60 < (c["x1"] - c["x0"]) / MM < 70 and 100 < (c["bottom"] - c["top"]) / MM < 120]
        assert len(frames) == 4
        for frame in frames:
            left, top = frame["x0"] / MM, frame["top"] / MM
            trim_left = max(x for x in xs if x <= left + 1e-6)
            trim_top = max(y for y in ys if y <= top + 1e-6)
            # the frame's stroke is 0.35 mm wide: its outer edge (the ink) lies half of that outside the path
            assert left - trim_left - 0.175 >= 3.0
            assert top - trim_top - 0.175 >= 3.0


def test_guides_draw_trim_bleed_and_safe_zones(tmp_path: Path) -> None:
    assert main(["build", "--game", "duel-protocol", "--out", str(tmp_path / "plain")]) == 0
    assert main(["build", "--game", "duel-protocol", "--guides", "--out", str(tmp_path / "g")]) == 0
    with pdfplumber.open(tmp_path / "plain" / "duel-protocol" / "schematics.pdf") as plain, \
            pdfplumber.open(tmp_path / "g" / "duel-protocol" / "schematics.pdf") as guided:
        before = Counter((round(r["width"] / MM, 1), round(r["height"] / MM, 1)) for r in plain.pages[0].rects)
        after = Counter((round(r["width"] / MM, 1), round(r["height"] / MM, 1)) for r in guided.pages[0].rects)
    added = after - before
    cards = 4
    assert added[(70.0, 120.0)] == added[(76.0, 126.0)] == added[(64.0, 114.0)] == cards  # trim, bleed, safe
    assert added[(210 - 2 * SHEET_MARGIN, 297 - 2 * SHEET_MARGIN)] == 1  # the printable area


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_board_sheets_assemble(tmp_path: Path, paper: str) -> None:
    from toolkit.figure.database import find_datasets, load_database
    from toolkit.figure.kit.board_sheet import board_drawing, node_radius
    from toolkit.figure.kit.context import KitContext

    assert main(["build", "--game", "duel-protocol", "--paper", paper, "--out", str(tmp_path)]) == 0
    texts = page_texts(tmp_path / "duel-protocol" / "board.pdf")
    assert len(texts) == 2
    assert "sheet 1 of 2" in texts[0]
    assert "GLUE" in texts[0].replace("\n", " ")
    assert "Cut along the dashed line" in texts[1].replace("\n", " ")
    database = load_database(next(d for d in find_datasets(None)[0] if d.theme_id == "duel-protocol"))
    drawing = board_drawing(KitContext(database, paper))
    # the seam (where sheet 2's cut edge lies) is clear of both goal circles
    with pdfplumber.open(tmp_path / "duel-protocol" / "board.pdf") as pdf:
        cut = [line for line in pdf.pages[1].lines if abs(line["x0"] - line["x1"]) < 0.01
               and (line["bottom"] - line["top"]) / MM > 100]
        assert cut
        assert abs(cut[0]["x0"] / MM - TILE_MARGIN) < 0.01
    width, height = PAPER_SIZES[paper]
    goals = [n for n in database.board.nodes.values() if n.role == "goal"]
    assert len(goals) == 2
    assert drawing.keep_whole
    seam = seam_positions(drawing.width, width - 2 * TILE_MARGIN,
                          [(b.x, b.x + b.w) for b in drawing.keep_whole])[0]
    for goal in goals:
        centre = drawing.origin[0] + goal.x
        assert abs(seam - centre) >= node_radius(database.board) + 1.5 + 2.0
    del height


@pytest.mark.parametrize(("paper", "size"), [("a3", (420.0, 297.0)), ("tabloid", (431.8, 279.4))])
def test_board_paper_prints_the_board_on_one_sheet(tmp_path: Path, paper: str, size: tuple[float, float]) -> None:
    assert main(["build", "--game", "chimera", "--board-paper", paper, "--out", str(tmp_path)]) == 0
    pdf = pikepdf.open(tmp_path / "chimera" / "board.pdf")
    assert len(pdf.pages) == 1
    box = [float(v) / MM for v in pdf.pages[0].mediabox]
    assert box[2] == pytest.approx(size[0], abs=0.1)
    assert box[3] == pytest.approx(size[1], abs=0.1)
    plan = page_texts(tmp_path / "chimera" / "kit.pdf")[0]
    assert paper.upper() in plan.upper()
    assert "more than one paper size" in plan


def ink_coverage(pdf_path: Path, page: int, dpi: int = 30) -> float:
    """Share of the page that takes ink (any pixel not near-white)."""
    document = pypdfium2.PdfDocument(str(pdf_path))
    try:
        image = document[page - 1].render(scale=dpi / 72).to_pil().convert("L")
    finally:
        document.close()
    histogram = image.histogram()
    return 1 - sum(histogram[235:]) / sum(histogram)


def test_fold_layout_puts_each_back_beside_its_front_and_ink_saver_backs(tmp_path: Path) -> None:
    assert main(["build", "--game", "duel-protocol", "--out", str(tmp_path / "grid")]) == 0
    assert main(["build", "--game", "duel-protocol", "--layout", "fold", "--ink", "saver",
                 "--out", str(tmp_path / "fold")]) == 0
    kit = page_texts(tmp_path / "fold" / "duel-protocol" / "kit.pdf")
    assert not any(BLANK in text for text in kit)
    assert "double-sided" not in kit[0]
    # one-sided: the plan lists every page after itself once, the token sheets among them, and says how
    # to make folded cards and tokens
    rows = plan_rows(kit[0])
    assert [row[0] for row in rows] == [2] + [row[1] + 1 for row in rows[:-1]]
    assert rows[-1][1] == len(kit)
    assert all(how == "single" for _, _, how, _ in rows)
    assert [row[1] - row[0] + 1 for row in rows if row[3] == "Tokens"] == [3]
    steps = " ".join(kit[0].split())
    assert "cut each card and token out with its back as one piece" in steps
    assert "cut each token through both layers on the front's thin line" in steps
    with pdfplumber.open(tmp_path / "fold" / "duel-protocol" / "schematics.pdf") as pdf:
        for page in pdf.pages:
            text = page.extract_text() or ""
            cards = text.count("DATA DISK")
            folds = [line for line in page.lines if line.get("dash") and line["dash"][0]
                     and abs(line["x0"] - line["x1"]) < 0.01 and (line["bottom"] - line["top"]) / MM > 120]
            # a 140 x 120 mm front-and-back piece: the fold runs down its middle, the back beside the front
            assert cards
            assert len(folds) == cards
            assert text.count("Reference Schematic") >= 2 * cards
    assert ink_coverage(tmp_path / "grid" / "duel-protocol" / "schematics.pdf", 2) > 0.4  # solid backs
    assert main(["build", "--game", "duel-protocol", "--ink", "saver", "--out", str(tmp_path / "saver")]) == 0
    assert ink_coverage(tmp_path / "saver" / "duel-protocol" / "schematics.pdf", 2) < 0.1


def text_sizes(pdf_path: Path, pages: slice = slice(None)) -> list[float]:
    """Every font size (pt) set on these pages, forms included. duelkit's pages draw in millimetres
    (a page-wide scale of 72/25.4) and never scale further, so a size in the stream times that is points."""
    sizes: list[float] = []

    def walk(stream_owner) -> None:
        for operands, operator in pikepdf.parse_content_stream(stream_owner):
            if str(operator) == "Tf":
                sizes.append(round(float(operands[1]) * MM, 2))
        resources = stream_owner.get("/Resources") if hasattr(stream_owner, "get") else None
        for _, xobject in ((resources or {}).get("/XObject") or {}).items():
            if xobject.get("/Subtype") == "/Form":
                walk(xobject)

    pdf = pikepdf.open(pdf_path)
    for page in list(pdf.pages)[pages]:
        walk(page.obj)
    return sizes


@pytest.mark.parametrize(("game", "test_pdf", "reference_pdf"), [
    ("duel-protocol", "print-test.pdf", "quick-reference.pdf"),
    ("sword-duel", "sword-print-test.pdf", "sword-reference.pdf")])
def test_print_test_states_the_smallest_text_measured_and_quick_reference_is_readable(
        tmp_path: Path, game: str, test_pdf: str, reference_pdf: str) -> None:
    assert main(["build", "--game", game, "--out", str(tmp_path)]) == 0
    kit = tmp_path / game
    parts = [p for p in sorted(kit.glob("*.pdf")) if p.name not in ("kit.pdf", test_pdf)]
    assert len(parts) >= 5
    smallest = min(size for part in parts for size in text_sizes(part))
    test_text = page_texts(kit / test_pdf)
    stated = re.search(r"smallest text in this kit is ([\d.]+) pt", " ".join(test_text))
    assert stated
    assert float(stated.group(1)) == pytest.approx(smallest, abs=0.05)
    assert "100 mm" in test_text[0]
    assert "80 × 50 mm" in test_text[0]
    assert min(text_sizes(kit / reference_pdf)) >= 6.5


@pytest.mark.parametrize(("value", "offset"), [("-1.5,0.5", (-1.5, 0.5)), ("-2,-3", (-2.0, -3.0)),
                                               ("-.5,1", (-0.5, 1.0))])
def test_a_back_offset_starting_with_a_minus_is_a_value_not_an_option(value: str, offset: tuple[float, float]) -> None:
    """A back that drifted left is measured negative; argparse took `-1.5,0.5` for an option and said
    'expected one argument'."""
    from toolkit.cli import build_parser

    args = build_parser("build").parse_args(["build", "--back-offset", value])
    assert args.back_offset == offset
