"""Every glyph accounted for (issue 13 item 4): validate and build warn, at file and line, for each character no
font can draw; a project's fallback fonts (`fonts:`) are used glyph by glyph; right-to-left text is put in
display order (python-bidi), and Arabic, which is not shaped, is warned about."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pdfplumber
import pypdfium2
import pytest

from tests.render.tiny_font import tiny_font
from toolkit.cli import main
from toolkit.render.fonts import display_order, font_runs, missing_glyphs, use_fallback_fonts

JAPANESE = "語"  # DejaVu Sans has no CJK ideographs


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.fixture(autouse=True)
def _no_fallbacks_left_behind() -> Iterator[None]:
    yield
    use_fallback_fonts(())  # the fallback fonts are process-wide, like reportlab's font registry


def _name_unit(project: Path, name: str) -> None:
    unit = project / "unit_data" / "alpha.yaml"
    unit.write_text(re.sub(r"(?m)^name: .*$", f"name: {name}", unit.read_text(), count=1))


def _problems(capsys, project: Path) -> tuple[int, list[dict]]:
    code, out, _ = run(capsys, "validate", str(project), "--format", "json")
    return code, json.loads(out)


def test_a_character_no_font_draws_is_warned_at_its_line(capsys, base_project: Path) -> None:
    _name_unit(base_project, f"Alpha {JAPANESE}")
    code, problems = _problems(capsys, base_project)
    assert code == 0  # a warning: the kit still builds, with '?'
    [warning] = [p for p in problems if p["code"] == "G001"]
    assert warning["file"].endswith("alpha.yaml")
    assert (warning["line"], warning["column"]) == (2, 7)
    assert "'語' (U+8A9E) cannot be drawn by the fonts" in warning["message"]
    assert "fonts:" in warning["message"]
    code, _, err = run(capsys, "build", str(base_project))
    assert code == 0
    assert "G001" in err
    assert "alpha.yaml:2:7" in err


def test_the_projects_name_and_words_are_checked_too(capsys, base_project: Path) -> None:
    (base_project / "duelkit.yaml").write_text(f"theme: duel-protocol\nname: {JAPANESE}の戦い\n")
    _, problems = _problems(capsys, base_project)
    [warning] = [p for p in problems if p["code"] == "G001"]
    assert warning["file"].endswith("duelkit.yaml")
    assert warning["line"] == 2


def test_a_fallback_font_draws_what_dejavu_lacks_glyph_by_glyph(capsys, base_project: Path) -> None:
    (base_project / "fonts").mkdir()
    tiny_font(base_project / "fonts" / "extra.ttf", JAPANESE)
    (base_project / "duelkit.yaml").write_text("theme: duel-protocol\nfonts: [fonts/extra.ttf]\n")
    _name_unit(base_project, f"Alpha {JAPANESE}")
    code, problems = _problems(capsys, base_project)
    assert code == 0
    assert [p for p in problems if p["code"].startswith("G")] == []
    runs = font_runs(f"Alpha {JAPANESE}", "bold")
    assert [chunk for _, chunk in runs] == ["Alpha ", JAPANESE]
    assert runs[1][0].startswith("Duelkit-Fallback-")
    assert run(capsys, "build", str(base_project))[0] == 0
    pdf = pypdfium2.PdfDocument(base_project / "output" / "duel-protocol" / "schematics.pdf")
    assert f"Alpha {JAPANESE}" in pdf[0].get_textpage().get_text_range()  # drawn, not '?'


@pytest.mark.parametrize(("content", "code"), [(b"not a font", "G002"), (None, "F003")])
def test_a_font_that_cannot_be_used_is_an_error_at_its_line(capsys, base_project: Path, content: bytes | None,
                                                            code: str) -> None:
    if content is not None:
        (base_project / "bad.ttf").write_bytes(content)
    (base_project / "duelkit.yaml").write_text("theme: duel-protocol\nfonts:\n  - bad.ttf\n")
    exit_code, problems = _problems(capsys, base_project)
    assert exit_code == 1
    [problem] = [p for p in problems if p["code"] == code]
    assert (problem["line"], problem["column"]) == (3, 5)


def test_hebrew_is_put_in_display_order_and_arabic_is_warned_about(capsys, base_project: Path) -> None:
    hebrew = "שלום"
    assert display_order(hebrew) == hebrew[::-1]
    assert display_order(f"Unit {hebrew} 2") == f"Unit 2 {hebrew[::-1]}"  # a number after Hebrew joins its run
    assert not missing_glyphs(hebrew)
    _name_unit(base_project, hebrew)
    _, problems = _problems(capsys, base_project)
    assert [p for p in problems if p["code"].startswith("G")] == []  # DejaVu has Hebrew: ordered, no warning
    assert run(capsys, "build", str(base_project))[0] == 0
    with pdfplumber.open(base_project / "output" / "duel-protocol" / "schematics.pdf") as pdf:
        x = {char["text"]: char["x0"] for char in pdf.pages[0].chars if char["text"] in hebrew}
    assert [x[letter] for letter in hebrew] == sorted(x.values(), reverse=True)  # right to left: the first rightmost
    _name_unit(base_project, "سلام")
    _, problems = _problems(capsys, base_project)
    [arabic] = [p for p in problems if p["code"] == "G003"]
    assert arabic["line"] == 2
    assert "unjoined" in arabic["message"]


def test_a_font_list_longer_than_any_project_needs_is_refused_before_any_font_is_read(
        capsys, base_project: Path) -> None:
    """Each listed font is read whole (up to 40 MB): 5,000 entries naming one font read it 5,000 times."""
    (base_project / "bad.ttf").write_bytes(b"not a font")
    (base_project / "duelkit.yaml").write_text("theme: duel-protocol\nfonts:\n" + "  - bad.ttf\n" * 5000)
    exit_code, problems = _problems(capsys, base_project)
    assert exit_code == 1
    assert [(p["code"], p["line"], p["message"]) for p in problems] == [
        ("S004", 3, "fonts: 5000 items is not allowed; expected at most 16 items")]
