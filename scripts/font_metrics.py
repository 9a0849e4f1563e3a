"""Write toolkit/fonts/metrics.json: the advance widths and character maps of the shipped DejaVu faces.

    PYTHONPATH=. python scripts/font_metrics.py

Read by reportlab's own TrueType reader (the one that embeds the fonts), so the table holds exactly the
widths reportlab measures with; `duelkit validate` then measures text from the table without loading
reportlab or parsing the four TTF files (toolkit/render/font_metrics.py). tests/render/test_font_metrics.py
fails if the table and the TTF files ever disagree: rerun this script after changing a font.
"""

from __future__ import annotations

import json

from reportlab.pdfbase.ttfonts import TTFontFile

from toolkit.render.font_metrics import METRICS_FILE
from toolkit.render.fonts import FONT_DIR, FONT_FILES


def face_table(path: str) -> dict[str, object]:
    """One face: its units per em, the missing glyph's advance, and runs of consecutive code points with
    their advances (in font units, as the file stores them)."""
    face = TTFontFile(path)
    per_unit = 1000 / face.unitsPerEm

    def units(width: float) -> int:
        advance = round(width / per_unit)
        assert (advance if face.unitsPerEm == 1000 else advance * per_unit) == width, (path, width)
        return advance

    assert set(face.charWidths) == set(face.charToGlyph), path  # every mapped character has a width
    runs: list[list[object]] = []
    for code in sorted(face.charWidths):
        last = runs[-1] if runs else None
        if last is not None and isinstance(last[1], list) and int(str(last[0])) + len(last[1]) == code:
            last[1].append(units(face.charWidths[code]))
        else:
            runs.append([code, [units(face.charWidths[code])]])
    return {"units_per_em": face.unitsPerEm, "default": units(face.defaultWidth), "runs": runs}


def main() -> None:
    table = {key: face_table(str(FONT_DIR / filename)) for key, filename in FONT_FILES.items()}
    METRICS_FILE.write_text(json.dumps({"faces": table}, separators=(",", ":")) + "\n", encoding="utf-8")
    print(f"wrote {METRICS_FILE} ({METRICS_FILE.stat().st_size} bytes)")


if __name__ == "__main__":
    main()
