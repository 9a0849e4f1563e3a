"""Every glyph accounted for: the text a designer writes is checked against the fonts before anything is
printed, and each character no font can draw is a warning at its file and line (G001; it would print as
'?'). Arabic letters are warned about too (G003): python-bidi puts them in right-to-left order, but they
are not shaped (joined). A project's fallback fonts (`fonts:` in duelkit.yaml, TrueType or OpenType with
TrueType outlines) are read here, through `toolkit.safe_fs`, and used glyph by glyph (`toolkit.render.fonts`).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterator
from typing import Any, get_args

from toolkit.loading import Project
from toolkit.problems import Problem, Severity
from toolkit.render.fonts import FontFileError, check_font, missing_glyphs, use_fallback_fonts
from toolkit.render.scene import FontName
from toolkit.safe_fs import FileProblem, read_file
from toolkit.schema import locate
from toolkit.yamlsource import LocatedDict, LocatedList, Pos, SourceFile

MAX_FONT_BYTES = 40 * 1024 * 1024
FONTS_HINT = ("list a TrueType/OpenType font that has it under `fonts:` in duelkit.yaml "
              "(e.g. a Noto Sans font for Japanese)")
ARABIC = frozenset({"AL"})  # bidi class of Arabic-script letters, which need shaping


def _strings(data: Any, skip: frozenset[str], pos: Pos | None = None) -> Iterator[tuple[str, Pos | None]]:
    """Every text value in a definition, with where it is written; keys named in `skip` (ids, paths) left out."""
    if isinstance(data, LocatedDict):
        for key, value in data.items():
            if key not in skip:
                yield from _strings(value, skip, data.value_pos.get(key, data.pos))
    elif isinstance(data, LocatedList):
        for index, value in enumerate(data):
            yield from _strings(value, skip, data.item_pos[index] if index < len(data.item_pos) else data.pos)
    elif isinstance(data, str):
        yield data, pos


def _named(chars: list[str]) -> str:
    shown = ", ".join(f"'{ch}' (U+{ord(ch):04X})" for ch in chars[:3])
    return shown + (f" and {len(chars) - 3} more" if len(chars) > 3 else "")


def glyph_warnings(source: SourceFile, data: Any, skip: frozenset[str] = frozenset()) -> list[Problem]:
    """G001 for the characters of each text that no font (shipped or fallback) draws; G003 for Arabic."""
    found = []
    for text, pos in _strings(data, skip):
        missing = sorted(set().union(*(missing_glyphs(text, font) for font in get_args(FontName))))
        if missing:
            found.append(source.problem(
                "G001", pos, f"{_named(missing)} cannot be drawn by the fonts; it prints as '?'",
                hint=FONTS_HINT, severity=Severity.WARNING))
        if any(unicodedata.bidirectional(ch) in ARABIC for ch in text):
            found.append(source.problem(
                "G003", pos, "Arabic letters print in right-to-left order but unjoined (duelkit does not shape them)",
                hint="check the printed card; a font with presentation forms, or a picture, may read better",
                severity=Severity.WARNING))
    return found


def project_glyph_warnings(project: Project | None) -> list[Problem]:
    """The printed words of duelkit.yaml: the name, the back's text, the project's terms and statuses."""
    if project is None:
        return []
    return glyph_warnings(project.source, project.data, frozenset({"theme", "board", "image", "color", "fonts"}))


def load_fonts(project: Project | None) -> list[Problem]:
    """Read the project's fallback fonts and use them from now on (none: only the shipped fonts). A font
    that cannot be read or embedded is an error (G002) at its line; the others are still used."""
    fonts: list[bytes] = []
    problems: list[Problem] = []
    for index in range(len(project.settings.fonts or ()) if project is not None else 0):
        assert project is not None
        assert project.settings.fonts is not None
        path = project.path("fonts", index)  # missing or outside the project: reported with duelkit.yaml
        if path is None:
            continue
        where = locate(project.data, ("fonts", index))
        try:
            data, size = read_file(path, MAX_FONT_BYTES, project.root)
            if size > MAX_FONT_BYTES:
                raise FontFileError(f"the file is {size} bytes; fonts may be at most {MAX_FONT_BYTES // 2**20} MB")
            check_font(data)
        except FileProblem as exc:
            problems.append(project.source.problem(exc.code, where, exc.message, hint=exc.hint))
            continue
        except FontFileError as exc:
            problems.append(project.source.problem(
                "G002", where, f"'{project.settings.fonts[index]}' cannot be used as a font: {exc}",
                hint="use a TrueType (.ttf) font, or an OpenType font with TrueType outlines"))
            continue
        fonts.append(data)
    use_fallback_fonts(fonts)
    return problems
