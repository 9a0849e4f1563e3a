"""A subset's font objects, and a form every page drawn alone defines (a card's frame), are formatted once per
process and written again into every such page (`shared_subsets._Once`): the pages must be byte for byte what
reportlab's own formatting of those objects writes, whatever was drawn before and however a page numbers its objects."""

from __future__ import annotations

import pytest

from toolkit.render import shared_subsets
from toolkit.render.pdf import render_pdf
from toolkit.render.scene import Document, Group, Page, Rect, Style, Text, reusable

# two pages that number their font objects differently: different faces first, a form before the fonts,
# a character outside the shared subset (a second subset of the regular face)
PAGES = {
    "regular first": Page(70, 120, [Text(5, 10, "Thunder Shock 30", 8), Text(5, 20, "Quick Attack", 8, "bold")]),
    "bold first, a form": Page(70, 120, [
        reusable([Rect(1, 1, 60, 100, Style(fill="#ffffff"), radius=3)]),
        Group((Text(5, 10, "Miss", 9, "bold", "#c81e1e"),), dx=2, dy=3),
        Text(5, 30, "Ωμέγα and ½", 7)]),
}


def _drawn() -> dict[str, bytes]:
    return {name: render_pdf(Document("", [page]), shared_fonts=True) for name, page in PAGES.items()}


def test_pages_are_what_reportlab_formats_whatever_was_drawn_before(monkeypatch: pytest.MonkeyPatch) -> None:
    shared_subsets._FORMATTED.clear()
    first = _drawn()
    again = _drawn()  # every font object now comes from memory, numbered as the other page numbered it too
    in_reverse = {name: render_pdf(Document("", [PAGES[name]]), shared_fonts=True) for name in reversed(PAGES)}
    monkeypatch.setattr(shared_subsets._Once, "format", lambda self, document: self.inner.format(document))
    by_reportlab = _drawn()
    assert first == again == in_reverse == by_reportlab
    assert first["regular first"] != first["bold first, a form"]
