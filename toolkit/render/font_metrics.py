"""The shipped DejaVu faces' advance widths and character maps, from a small table, so measuring text
(`duelkit validate`'s text-fit checks) needs neither reportlab nor parsing four TrueType files.

toolkit/fonts/metrics.json is written from the TTF files by scripts/font_metrics.py with reportlab's own
reader; tests/render/test_font_metrics.py checks it against reportlab, widths and string widths alike.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

METRICS_FILE = Path(__file__).resolve().parent.parent / "fonts" / "metrics.json"


class FaceMetrics:
    """One face: each character's advance in thousandths of the font size, and the missing glyph's. (A plain
    class: a dataclass costs milliseconds of start-up to create.)"""

    __slots__ = ("default", "widths")

    def __init__(self, widths: dict[int, float], default: float) -> None:
        self.widths, self.default = widths, default

    def string_width(self, text: str, size: float) -> float:
        """Width in points, computed as reportlab's TTFont.stringWidth does (the advances summed in order,
        times 0.001, times the size), so both give the same float."""
        get, default = self.widths.get, self.default
        total = 0.0
        for ch in text:
            total += get(ord(ch), default)
        return total * 0.001 * size


@cache
def _table() -> dict[str, FaceMetrics]:
    faces = json.loads(METRICS_FILE.read_text(encoding="utf-8"))["faces"]
    return {key: _face(face) for key, face in faces.items()}


def _face(face: dict) -> FaceMetrics:
    """Font units scaled as reportlab scales them (TTFontFile.extractInfo): kept when the em is 1000 units,
    else times 1000/units_per_em."""
    em = face["units_per_em"]
    per_unit = 1000 / em

    def scaled(advances: list[int]) -> list[float] | list[int]:
        return advances if em == 1000 else [advance * per_unit for advance in advances]

    widths: dict[int, float] = {}
    for first, advances in face["runs"]:
        widths.update(zip(range(first, first + len(advances)), scaled(advances), strict=True))
    return FaceMetrics(widths, scaled([face["default"]])[0])


def face_metrics(font: str) -> FaceMetrics:
    """The metrics of a shipped face ("regular", "bold", "condensed", "condensed-bold")."""
    return _table()[font]
