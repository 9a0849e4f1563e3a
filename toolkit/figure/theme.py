"""Themes: the words a printed kit uses, and which status-effect variant the rules apply."""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import cache

from pydantic import BaseModel, ConfigDict, StrictStr, model_validator

from toolkit.errors import DuelkitError
from toolkit.fields import DEFER_BUILD
from toolkit.figure.model import Color, Segment, UnitClass
from toolkit.figure.rules.status import VARIANTS, StatusRule, status_rule
from toolkit.paths import THEMES_DIR
from toolkit.schema import validate_model
from toolkit.yamlsource import load_yaml_file


class Terms(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=DEFER_BUILD)
    game: StrictStr
    unit: StrictStr
    units: StrictStr
    data_disk: StrictStr
    hangar: StrictStr
    repair_bay: StrictStr
    wait: StrictStr
    module: StrictStr
    modules: StrictStr
    subroutine: StrictStr
    player: StrictStr
    players: StrictStr
    deactivated: StrictStr
    surround: StrictStr
    goal: StrictStr
    entry: StrictStr
    status: StrictStr
    statuses: StrictStr
    mp: StrictStr
    mp_long: StrictStr
    unit_class: StrictStr
    schematic: StrictStr
    upgrade: StrictStr
    goal_capture: StrictStr
    time_out: StrictStr
    lockout: StrictStr


class Theme(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=DEFER_BUILD)
    id: StrictStr
    name: StrictStr
    status_variant: StrictStr
    terms: Terms
    colors: dict[Color, StrictStr]
    classes: dict[UnitClass, StrictStr]
    archetypes: dict[StrictStr, StrictStr]
    statuses: dict[StrictStr, StrictStr]

    @model_validator(mode="after")
    def _complete(self) -> Theme:
        if self.status_variant not in VARIANTS:
            raise ValueError(f"status_variant must be one of {sorted(VARIANTS)}")
        missing = set(VARIANTS[self.status_variant]) ^ set(self.statuses)
        if missing:
            raise ValueError(f"statuses must name exactly {sorted(VARIANTS[self.status_variant])}")
        if set(self.colors) != set(Color) or set(self.classes) != set(UnitClass):
            raise ValueError("colors and classes must name every colour and class")
        return self

    def status(self, status_id: str) -> StatusRule:
        return status_rule(self.status_variant, status_id)

    def effect_text(self, segment: Segment) -> str | None:
        """What a card prints under a move: its own `effect:` text, or, for a move that only says what
        it `inflicts:`, that status in this theme's words (so a project switching theme needs no edits)."""
        if segment.effect:
            return segment.effect
        if segment.inflicts in self.statuses:
            return f"The battle opponent is afflicted with {self.statuses[segment.inflicts]}."
        return None

    def vocabulary(self) -> set[str]:
        """Every word this theme prints for a status or a game term (lowercase), to tell whose a word is."""
        return {word.lower() for word in (*self.statuses.values(), *dict(self.terms).values())}


# Game terms whose word differs between themes and that effect text is likely to use.
EFFECT_TERMS = ("data_disk", "hangar", "wait", "module", "modules", "player", "players", "status", "statuses",
                "schematic", "unit_class")


_INFLECTED = r"(?:s|d|ed)?\b"  # Burn: also Burns, Burned


@cache
def _word_pattern(word: str) -> re.Pattern[str]:
    """Compiled once per word: validation asks about the same few dozen words for every segment."""
    return re.compile(r"\b" + re.escape(word) + _INFLECTED, re.IGNORECASE)


@cache
def _any_word_pattern(words: tuple[str, ...]) -> re.Pattern[str]:
    """Matches where any one of `words` matches (the alternation backtracks through every word), so one
    search tells that a text uses none of them: most effect text names no status and no other theme's word."""
    return re.compile(r"\b(?:" + "|".join(map(re.escape, words)) + ")" + _INFLECTED, re.IGNORECASE)


# The letters outside ASCII that a case-insensitive pattern matches to ASCII ones (Python's re documentation)
_ASCII_FOLDING = re.compile("[\u0130\u0131\u017f\u212a]")


def _lowered(text: str) -> str | None:
    """`text` in lowercase, in which every ASCII word a case-insensitive search finds in `text` is found
    as a substring; None when a letter folds to ASCII (then only the search can tell)."""
    return None if _ASCII_FOLDING.search(text) else text.lower()


@cache
def _ascii_lowered(words: tuple[str, ...]) -> tuple[str, ...] | None:
    """The words in lowercase when all are ASCII (a substring test can then rule them out), else None."""
    return tuple(word.lower() for word in words) if all(word.isascii() for word in words) else None


def _mentions(text: str, word: str, lowered: str | None = None) -> bool:
    """Whether `text` uses `word`, also inflected (Burn: Burns, Burned), case-insensitively. With `lowered`
    (`_lowered(text)`), a word that is not a substring of it is known absent without the search (a few
    substring tests cost what one search costs, and most effect text names none of the words)."""
    if lowered is not None and word.isascii() and word.lower() not in lowered:
        return False
    return _word_pattern(word).search(text) is not None


def _uses_any(text: str, words: tuple[str, ...], lowered: str | None) -> bool:
    """Whether `text` uses any of `words` (as `_mentions` tells), one search for them all."""
    if lowered is not None:
        small = _ascii_lowered(words)
        if small is not None and not any(map(lowered.__contains__, small)):
            return False
    return _any_word_pattern(words).search(text) is not None


def named_statuses(text: str, names: Mapping[str, str]) -> list[str]:
    """The status ids whose printed name `text` uses, in id order."""
    ordered = sorted(names.items())
    lowered = _lowered(text)
    if not ordered or not _uses_any(text, tuple(name for _, name in ordered), lowered):
        return []
    return [status_id for status_id, name in ordered if _mentions(text, name, lowered)]


def foreign_words(text: str, theme: Theme) -> list[tuple[Theme, str, str]]:
    """Words of other themes that `text` uses and this theme does not: (other theme, what the word names
    (a status id or a term), the word)."""
    candidates, words = _foreign_candidates(theme)
    found: list[tuple[Theme, str, str]] = []
    lowered = _lowered(text)
    if not words or not _uses_any(text, words, lowered):
        return found
    for other, meaning, word in candidates:
        if _mentions(text, word, lowered) and all(word != seen for _, _, seen in found):
            found.append((other, meaning, word))
    return found


def _foreign_candidates(theme: Theme) -> tuple[list[tuple[Theme, str, str]], tuple[str, ...]]:
    """Every other theme's status and term words that this theme does not use, in the order reported, and
    those words alone (for `_uses_any`). Kept per theme object too (a
    theme is frozen): its vocabulary is asked for every segment of every unit."""
    known = _BY_THEME.get(id(theme))
    if known is not None and known[0] is theme:
        return known[1]
    key = (theme.id, frozenset(theme.vocabulary()))
    cached = _CANDIDATES.get(key)
    if cached is None:
        own = key[1]
        candidates: list[tuple[Theme, str, str]] = []
        for other_id in theme_ids():
            if other_id == theme.id:
                continue
            other = load_theme(other_id)
            words = [*sorted(other.statuses.items()), *((term, getattr(other.terms, term)) for term in EFFECT_TERMS)]
            candidates += [(other, meaning, word) for meaning, word in words if word.lower() not in own]
        cached = candidates, tuple(word for _, _, word in candidates)
        _CANDIDATES[key] = cached
    if len(_BY_THEME) >= 64:  # `duelkit watch` loads a project's theme again on every save
        _BY_THEME.clear()
    _BY_THEME[id(theme)] = (theme, cached)
    return cached


Candidates = tuple[list[tuple["Theme", str, str]], tuple[str, ...]]
_CANDIDATES: dict[tuple[str, frozenset[str]], Candidates] = {}  # a project's terms may differ
_BY_THEME: dict[int, tuple[Theme, Candidates]] = {}  # id -> the theme (kept, so the id stays its own)


def theme_ids() -> list[str]:
    return sorted(path.stem for path in THEMES_DIR.glob("*.yaml"))


@cache
def load_theme(theme_id: str) -> Theme:
    """Themes ship inside the package; a broken one is a packaging bug, reported as DuelkitError."""
    if theme_id not in theme_ids():
        raise DuelkitError(f"unknown theme '{theme_id}'; known themes: {', '.join(theme_ids())}")
    loaded = load_yaml_file(THEMES_DIR / f"{theme_id}.yaml")
    theme, problems = validate_model(Theme, loaded.data, loaded.source) if not loaded.problems else (None, [])
    problems = loaded.problems + problems
    if theme is None or problems:
        raise DuelkitError(f"theme '{theme_id}' is broken: {problems[0].message if problems else 'invalid'}")
    return theme
