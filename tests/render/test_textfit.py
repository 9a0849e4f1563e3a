"""Text fitting, shared by every game's kit: wrap, then shrink to a floor, then cut short and say so."""

from __future__ import annotations

from toolkit.kit.fits import TextFits, data_spot
from toolkit.render.fonts import text_width
from toolkit.render.textfit import ELLIPSIS, fit_line, fit_text


def test_a_line_that_fits_keeps_its_size() -> None:
    fitted = fit_line("Sword Range", 40, "regular", 9, 6)
    assert (list(fitted.lines), fitted.size, fitted.overflow) == (["Sword Range"], 9, False)


def test_a_long_line_shrinks_to_the_floor_then_is_cut_with_an_ellipsis() -> None:
    text = "Control through proximity " * 4
    fitted = fit_line(text, 30, "regular", 9, 6)
    assert fitted.overflow
    assert fitted.size == 6
    assert fitted.lines[0].endswith(ELLIPSIS)
    assert text_width(fitted.lines[0], "regular", fitted.size) <= 30


def test_a_block_wraps_before_it_shrinks() -> None:
    fitted = fit_text("one two three four five six", 25, 30, "regular", 9, 5)
    assert len(fitted.lines) > 1
    assert fitted.size == 9
    assert not fitted.overflow


def test_the_collector_locates_data_text_and_leaves_theme_words_unlocated() -> None:
    fits = TextFits(lambda owner, _field: ("techniques/irimi.yaml", 6, 13) if owner == "irimi" else None)
    fits.cut(data_spot("irimi", "philosophy", "technique"), "x" * 80)
    fits.note("board label 'Goal Point' does not fit its goal circle", "use a shorter term in the theme")
    located, theme = fits.drain()
    assert (located.code, located.file, located.line, located.column) == ("R001", "techniques/irimi.yaml", 6, 13)
    assert located.message.startswith("technique 'irimi' philosophy: text does not fit")
    assert (theme.file, theme.line, theme.hint) == ("", 0, "use a shorter term in the theme")
    assert fits.drain() == []


def test_a_fitted_line_follows_the_projects_fallback_fonts(tmp_path) -> None:
    """Fitted lines are remembered; a font added to `fonts:` (a watch after an edit) must be seen."""
    from tests.render.tiny_font import tiny_font
    from toolkit.render.fonts import use_fallback_fonts

    before = fit_line("語 card", 40, "regular", 9, 6)
    assert "語" not in before.lines[0]  # no face draws it: replaced, never an empty box
    try:
        use_fallback_fonts([tiny_font(tmp_path / "extra.ttf", "語")])
        assert fit_line("語 card", 40, "regular", 9, 6).lines[0] == "語 card"
    finally:
        use_fallback_fonts(())
    assert fit_line("語 card", 40, "regular", 9, 6) == before
