"""Card text from the data: a move that only says what it inflicts is worded by the theme; effect text
that disagrees with its move or with the project's theme gets a warning at its line."""

from __future__ import annotations

from pathlib import Path

import pytest

from toolkit.cli import main
from toolkit.figure.database import load_database, project_dataset
from toolkit.figure.kit.context import KitContext
from toolkit.figure.kit.schematics import build_schematics
from toolkit.render.scene import Group, Text


def _texts(items) -> list[str]:
    found = []
    for item in items:
        if isinstance(item, Text):
            found.append(item.text)
        elif isinstance(item, Group):
            found += _texts(item.items)
    return found


def _card_text(project: Path, theme: str) -> str:
    database = load_database(project_dataset(project, theme))
    component = build_schematics(KitContext(database, "a4"))
    return " ".join(text for page in component.pages for text in _texts(page.items))


@pytest.mark.usefixtures("capsys")  # keeps the commands' output out of the test log
def test_a_move_with_inflicts_and_no_effect_text_prints_the_status_in_the_themes_words(
        tmp_path: Path) -> None:
    project = tmp_path / "forge"
    assert main(["new", str(project)]) == 0  # the starter's Scorch: inflicts burn, no effect text
    assert "afflicted with Overheat" in _card_text(project, "duel-protocol")
    (project / "duelkit.yaml").write_text("theme: chimera\n", encoding="utf-8")
    text = _card_text(project, "chimera")
    assert "afflicted with Burn" in text
    assert "Overheat" not in text
    assert "afflicted with Sleep" in text  # Runner's Lullaby: inflicts sleep


def test_switching_theme_warns_at_each_effect_written_in_the_old_themes_words(capsys, tmp_path: Path) -> None:
    project = tmp_path / "switched"
    assert main(["new", str(project), "--from-bundled"]) == 0
    (project / "duelkit.yaml").write_text("theme: chimera\n", encoding="utf-8")
    capsys.readouterr()
    assert main(["validate", str(project)]) == 0  # warnings only
    out = capsys.readouterr().out
    assert ("warning[X011]: unit 'f-3': the effect text of 'Flame Burst' says 'Overheat', duel-protocol's word; "
            "this project's theme chimera says Burn") in out
    assert "unit_data/f-3.yaml:" in out
    assert "says 'Hangar', duel-protocol's word; this project's theme chimera says Bench" in out


def test_effect_text_naming_another_status_than_it_inflicts_is_a_warning(capsys, base_project: Path) -> None:
    (base_project / "unit_data" / "mixed.yaml").write_text(
        "id: mixed\nname: Mixed\nclass: C\nmp: 1\ndisk:\n"
        "  - {move: Jab, color: white, size: 48, damage: 10}\n"
        "  - {move: Heat Ray, color: purple, size: 48, stars: 1, effect: The opponent is afflicted with Overheat.,"
        " inflicts: paralysis}\n", encoding="utf-8")
    assert main(["validate", str(base_project)]) == 0
    out = capsys.readouterr().out
    assert ("warning[X010]: unit 'mixed': the effect text of 'Heat Ray' names Overheat, but the move inflicts "
            "EMP Static") in out
    assert "unit_data/mixed.yaml:7:" in out
    assert "hint: set `inflicts: burn` or change the text" in out


@pytest.mark.parametrize("text", [
    "Inflicts Burn.", "burns the target", "BURNED twice", "Poi\u017fon spreads", "\u212aeeps the Bench", "Sleepy",
    "Pokémon fall Asleep; Frozen", "Status Effects and Status Effect", "Benches", "\u0130t burns", "",
    "Combat  Dial", "Combat Dial", "combat dialed", "Rarity\u200bRarity"])
def test_the_theme_word_checks_find_what_a_case_insensitive_search_finds(text: str) -> None:
    """The checks rule words out by a substring test before searching: they must find exactly what the
    search alone finds, also where a letter outside ASCII matches an ASCII one (long s is s, the Kelvin sign is k)."""
    import re

    from toolkit.figure.theme import _foreign_candidates, foreign_words, load_theme, named_statuses

    theme = load_theme("duel-protocol")

    def uses(word: str) -> bool:
        return re.search(r"\b" + re.escape(word) + r"(?:s|d|ed)?\b", text, re.IGNORECASE) is not None

    expected_named = [status for status, name in sorted(theme.statuses.items()) if uses(name)]
    assert named_statuses(text, theme.statuses) == expected_named
    expected_foreign = []
    for other, meaning, word in _foreign_candidates(theme)[0]:
        if uses(word) and word not in (seen for _, _, seen in expected_foreign):
            expected_foreign.append((other, meaning, word))
    assert foreign_words(text, theme) == expected_foreign
    assert any((named_statuses(text, theme.statuses), foreign_words(text, theme))) == bool(
        expected_named or expected_foreign)
