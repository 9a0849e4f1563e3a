"""Cell values as the importer reads them: ids made from names, damage/stars/effect cells told apart by
content, formulas that duelkit quoted read back unquoted."""

from __future__ import annotations

import re
import unicodedata

from toolkit.csvsafe import FORMULA_START as _FORMULA_START
from toolkit.whole_numbers import MAX_DIGITS, WHOLE_PATTERN

_STARS_RE = re.compile(r"^[☆★](?:\s*[☆★])*$")
_INT_RE = re.compile(f"^{WHOLE_PATTERN}$")  # 0-9 only, bounded (toolkit/whole_numbers.py)
# '60x', '70+', '20x2', '20 × 2': printed damage with a rule attached; the leading number is the damage.
_DAMAGE_WITH_MODIFIER_RE = re.compile(f"^({WHOLE_PATTERN})\\s*(?:[x×]\\s*[0-9]{{0,{MAX_DIGITS}}}|\\+)$", re.IGNORECASE)
_ENTITY_RE = re.compile(r"&#?[A-Za-z0-9]+;?")
_WORD_RE = re.compile(r"[^\W\d_]{2,}")
# Symbols NFKD cannot turn into ASCII but that tell two figures apart (Nidoran♂ / Nidoran♀).
_SLUG_SYMBOLS = str.maketrans({"♂": " m ", "♀": " f "})


def slugify(text: str) -> str:
    """ASCII slug: accents stripped (NFKD), anything not a letter or digit becomes one '-'."""
    ascii_text = unicodedata.normalize("NFKD", text.translate(_SLUG_SYMBOLS))
    ascii_text = ascii_text.encode("ascii", "ignore").decode("ascii").lower()
    return re.sub(r"[^a-z0-9]+", "-", ascii_text).strip("-")


def inert(text: str) -> str:
    """A cell duelkit wrote with a leading `'` (so a spreadsheet shows `=x` as text) is read back as `=x`."""
    if text.startswith("'") and text[1:2] in _FORMULA_START:
        return text[1:]
    return text


def classify_value(text: str) -> tuple[str, int | str]:
    """What a damage/stars/effect cell holds, judged by its content since the columns are mislabelled.

    Returns ('empty', ''), ('damage', int), ('damage_note', text: damage with a modifier such as '60x',
    '70+' or '20x2', whose number `modified_damage` gives), ('stars', count), ('effect', text) or
    ('bad', reason). Effect text must read as words; '??' or a broken entity like '☆&star' is never guessed at.
    """
    if not text:
        return "empty", ""
    if _INT_RE.match(text):
        return "damage", int(text)
    if _STARS_RE.match(text):
        return "stars", sum(1 for char in text if char in "☆★")
    if _ENTITY_RE.search(text):
        return "bad", "holds a broken HTML entity (such as '&star;' for ☆); write the stars as ☆"
    if _DAMAGE_WITH_MODIFIER_RE.match(text):
        return "damage_note", text
    if len(_WORD_RE.findall(text)) >= 2:
        return "effect", text
    return "bad", "neither a whole number (damage), only stars (☆), nor effect text"


def modified_damage(text: str) -> int:
    """The printed number of a damage cell with a modifier: '60x' and '20x2' -> 60 and 20, '70+' -> 70."""
    match = _DAMAGE_WITH_MODIFIER_RE.match(text)
    if match is None:
        raise ValueError(f"not a damage with a modifier: {text!r}")
    return int(match.group(1))
