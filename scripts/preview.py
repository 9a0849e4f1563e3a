"""Developer preview: render one kit generator for a bundled theme to PDF and 60 dpi PNGs.

Usage: python scripts/preview.py MODULE.FUNCTION [THEME] [PAPER]
e.g.   python scripts/preview.py toolkit.figure.kit.board_sheet.build_board chimera a4
Writes /tmp/duelkit-preview/<component>.pdf and <component>-N.png (needs pdftoppm from poppler-utils).
"""

from __future__ import annotations

import importlib
import subprocess
import sys
from pathlib import Path

from toolkit.figure.database import find_datasets, load_database
from toolkit.figure.kit.context import KitContext
from toolkit.render.pdf import render_pdf
from toolkit.render.scene import Document
from toolkit.render.svg import render_svg


def main() -> None:
    target, theme, paper = [*sys.argv[1:], "duel-protocol", "a4"][:3]
    module_name, function_name = target.rsplit(".", 1)
    build = getattr(importlib.import_module(module_name), function_name)
    dataset = next(ds for ds in find_datasets(None)[0] if ds.theme_id == theme)
    component = build(KitContext(load_database(dataset), paper))
    out = Path("/tmp/duelkit-preview")
    out.mkdir(exist_ok=True)
    pdf = out / f"{component.name}.pdf"
    pdf.write_bytes(render_pdf(Document(component.title, component.pages)))
    for old in out.glob(f"{component.name}-*.png"):
        old.unlink()
    subprocess.run(["pdftoppm", "-r", "60", "-png", str(pdf), str(out / component.name)], check=True)
    for slug, page in component.pieces[:3]:
        (out / f"{slug}.svg").write_text(render_svg(page, slug), encoding="utf-8")
    print(f"{pdf}: {len(component.pages)} pages, {len(component.pieces)} SVG pieces, "
          f"{len(component.warnings)} warnings")
    for warning in component.warnings:
        print("  ", warning.message)


if __name__ == "__main__":
    main()
