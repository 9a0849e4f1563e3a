"""The balance heatmap reads in greyscale: a scale monotonic in lightness and the percentage in every cell."""

from __future__ import annotations

import csv
import itertools

import pdfplumber
import pytest

from toolkit.cli import main
from toolkit.figure.kit.balance_report import cell_ink, heat_color, luminance


def test_heat_scale_gets_darker_as_the_attacker_wins_more() -> None:
    """Printed in greyscale, the cells must still order: lightness falls strictly from 0% to 100%."""
    greys = [luminance(heat_color(k / 200)) for k in range(201)]
    assert all(a > b for a, b in itertools.pairwise(greys))
    assert greys[0] - greys[-1] > 0.7  # from near white to near black, not a narrow band


def test_cell_numbers_contrast_with_their_cell() -> None:
    for k in range(101):
        cell = luminance(heat_color(k / 100))
        ink = luminance(tuple(int(cell_ink(heat_color(k / 100))[i:i + 2], 16) for i in (1, 3, 5)))  # type: ignore[arg-type]
        light, dark = max(cell, ink), min(cell, ink)
        assert (light + 0.05) / (dark + 0.05) >= 4.5  # WCAG AA for small text


@pytest.mark.usefixtures("capsys")
def test_every_cell_prints_its_percentage(tmp_path) -> None:
    assert main(["balance", "--game", "duel-protocol", "--out", str(tmp_path)]) == 0
    folder = tmp_path / "duel-protocol"
    with (folder / "balance.csv").open() as f:
        ranked = [row["id"] for row in csv.DictReader(f)]
    with (folder / "matchups.csv").open() as f:
        wins = {(row["attacker"], row["defender"]): float(row["attacker_wins"]) for row in csv.DictReader(f)}
    n = len(ranked)
    with pdfplumber.open(folder / "balance.pdf") as pdf:
        page = pdf.pages[1]
        (image,) = page.images
        cell = (image["x1"] - image["x0"]) / n
        printed: dict[tuple[int, int], str] = {}
        for word in page.extract_words():
            middle, centre = (word["x0"] + word["x1"]) / 2, (word["top"] + word["bottom"]) / 2
            if image["x0"] < middle < image["x1"] and image["top"] < centre < image["bottom"]:
                key = (int((centre - image["top"]) / cell), int((middle - image["x0"]) / cell))
                assert key not in printed, "two numbers in one cell"
                printed[key] = word["text"]
    assert len(printed) == n * n
    for (row, column), text in printed.items():
        assert text == f"{wins[ranked[row], ranked[column]] * 100:.0f}"
