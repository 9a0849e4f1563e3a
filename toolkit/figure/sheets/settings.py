"""The project's settings in a sheet: duelkit.yaml's name, terms and statuses (the `project` table), read
back over the project's own settings. Other keys of duelkit.yaml (board, back, fonts) are left alone."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from toolkit.figure.sheets.files import leading_comments, plain
from toolkit.figure.theme import load_theme

PROJECT_FILE = "duelkit.yaml"
PROJECT_MARKER = "# Written by duelkit import"  # the first line of a duelkit.yaml an import created


@dataclass
class Settings:
    """The project table: the game's name (None: no such row) and every term and status word."""

    name: str | None = None
    theme: str = ""  # the game the sheet was exported from ('' : not said)
    terms: dict[str, str] = field(default_factory=dict)
    statuses: dict[str, str] = field(default_factory=dict)


def read_settings(out_dir: Path) -> dict[str, Any] | None:
    path = out_dir / PROJECT_FILE
    if path.is_symlink() or not path.is_file():
        return None
    from toolkit.yamlsource import load_yaml_file

    loaded = load_yaml_file(path, root=out_dir)
    return plain(loaded.data) if isinstance(loaded.data, dict) else None


def project_text(out_dir: Path, wanted: Settings | None, source: str, theme: str, new_project: bool) -> str | None:
    """duelkit.yaml's new text, or None when it stays as it is. `wanted`: the sheet's project table (None:
    the sheet has none); `source`: the sheet's name, for a new project's first line and default name."""
    if new_project:
        source = " ".join(source.split()) or "a sheet"
        settings: dict[str, Any] = {"theme": theme, "name": f"Imported from {source}"[:120]}
        if wanted is not None:
            settings = _merged_settings(settings, wanted, theme)
        settings.setdefault("name", f"Imported from {source}"[:120])
        header = f"{PROJECT_MARKER} from {source}.\n"
        return header + yaml.safe_dump(settings, sort_keys=False, allow_unicode=True)
    if wanted is None:
        return None
    existing = read_settings(out_dir) or {}
    merged = _merged_settings(existing, wanted, theme)
    if merged == existing:
        return None
    try:
        text = (out_dir / PROJECT_FILE).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        text = ""
    return leading_comments(text) + yaml.safe_dump(merged, sort_keys=False, allow_unicode=True)


def _merged_settings(existing: dict[str, Any], sheet: Settings, theme: str) -> dict[str, Any]:
    """The project's name and words as the sheet gives them. A word the same as the theme's is written only
    when the project already named it; an empty cell means the theme's word."""
    base = load_theme(theme)
    result = dict(existing)
    if sheet.name is not None:
        if sheet.name:
            result["name"] = sheet.name
        else:
            result.pop("name", None)
    defaults = {"terms": base.terms.model_dump(), "statuses": dict(base.statuses)}
    for key, words in (("terms", sheet.terms), ("statuses", sheet.statuses)):
        own = existing.get(key)
        if own is not None and not isinstance(own, dict):
            continue  # not a mapping: validate reports it; the sheet cannot say what was meant
        current = dict(own or {})
        for word_id, word in words.items():
            if not word or (word == defaults[key].get(word_id) and word_id not in current):
                current.pop(word_id, None)
            else:
                current[word_id] = word
        if current:
            result[key] = current
        else:
            result.pop(key, None)
    return result
