"""The project's data files as the sheets see them: every unit, squad and module with the file (and the
place in the file) it is written in, read as written (raw YAML, no validation), and written back.

A file is rewritten only when an item in it changes; its leading comment lines are kept, the rest is
dumped the way the bundled files are written (one line per segment, short lists on one line).
"""

from __future__ import annotations

import contextlib
import hashlib
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from toolkit.loading import documents, yaml_files
from toolkit.yamlsource import load_yaml_file

KINDS = ("units", "squads", "modules")
SQUADS_DIR = "squads"  # inside the unit folder (figure/database.py reads squads there)


@dataclass(frozen=True)
class Folders:
    """Where a dataset keeps each kind (a project: unit_data/, unit_data/squads/, modules/)."""

    root: Path
    units: Path
    modules: Path

    def of(self, kind: str) -> Path:
        return {"units": self.units, "squads": self.units / SQUADS_DIR, "modules": self.modules}[kind]

    def relative(self, kind: str, name: str) -> str:
        return (self.of(kind) / name).relative_to(self.root).as_posix()


@dataclass
class DataFile:
    """One YAML file: its text, its leading comment lines, and its items (the file itself, or a
    `units:`-style list)."""

    relative: str
    text: str
    comments: str
    plural: str | None  # `units:` / `squads:` / `modules:` when the file lists several
    items: list[dict[str, Any]]

    @property
    def sha256(self) -> str:
        return hashlib.sha256(self.text.encode("utf-8")).hexdigest()


@dataclass
class Index:
    """Every readable item of a dataset by kind and id, and the files that could not be read."""

    folders: Folders
    files: dict[str, DataFile] = field(default_factory=dict)
    where: dict[str, dict[str, tuple[str, int]]] = field(default_factory=lambda: {kind: {} for kind in KINDS})
    unreadable: list[str] = field(default_factory=list)

    def items(self, kind: str) -> list[dict[str, Any]]:
        return [self.files[rel].items[index] for rel, index in self.where[kind].values()]


def plain(value: Any) -> Any:
    """Loaded YAML (located dicts and lists) as plain dicts and lists, for comparing and dumping."""
    if isinstance(value, dict):
        return {key: plain(item) for key, item in value.items()}
    if isinstance(value, list):
        return [plain(item) for item in value]
    return value


def read_index(folders: Folders) -> Index:
    """Every unit, squad and module under `folders`, as written; files that do not load are named."""
    index = Index(folders)
    for kind in KINDS:
        folder = folders.of(kind)
        if not folder.is_dir():
            continue
        problems: list[Any] = []
        skip = SQUADS_DIR if kind == "units" else None
        for path in yaml_files(folder, skip_dir=skip, root=folders.root, problems=problems):
            loaded = load_yaml_file(path, root=folders.root)
            relative = path.relative_to(folders.root).as_posix()
            if loaded.data is None or any(p.is_error for p in loaded.problems if p.code.startswith("Y")):
                problems += loaded.problems
                continue
            found = list(documents(loaded.data, loaded.source, kind, problems))
            text = "\n".join(loaded.source.lines) + "\n"
            with contextlib.suppress(OSError, UnicodeDecodeError):
                text = path.read_bytes().decode("utf-8")  # as written (CRLF kept): its hash is the file's
            plural = kind if isinstance(loaded.data, dict) and kind in loaded.data else None
            data_file = DataFile(relative, text, leading_comments(text), plural, [plain(item) for item, _ in found])
            index.files[relative] = data_file
            for position, item in enumerate(data_file.items):
                item_id = item.get("id")
                if isinstance(item_id, str) and item_id not in index.where[kind]:
                    index.where[kind][item_id] = (relative, position)
        index.unreadable += [f"{p.file}:{p.line}: {p.message}" for p in problems if p.is_error]
    return index


def leading_comments(text: str) -> str:
    lines = []
    for line in text.splitlines(keepends=True):
        if not line.startswith("#"):
            break
        lines.append(line if line.endswith("\n") else line + "\n")
    return "".join(lines)


# ---------------------------------------------------------------------------------------------
# Dumping


class _Flow(dict):
    """A mapping dumped on one line, like the hand-written unit files (`- {move: ..., color: ...}`)."""


class _FlowList(list):
    """A short list dumped on one line (`types: [steel, dragon]`)."""


# libyaml's emitter (shipped in PyYAML's wheels) is about 10x faster: 20,000 units in 2 s instead of 40.
# Both emitters write the same bytes except that libyaml escapes characters beyond U+FFFF ("\U0001F600");
# the data read back is identical either way.
class _Dumper(getattr(yaml, "CSafeDumper", yaml.SafeDumper)):  # type: ignore[misc]
    pass


_Dumper.add_representer(
    _Flow, lambda dumper, data: dumper.represent_mapping("tag:yaml.org,2002:map", list(data.items()), True))
_Dumper.add_representer(
    _FlowList, lambda dumper, data: dumper.represent_sequence("tag:yaml.org,2002:seq", data, True))


_FLOW_KEYS = ("effect", "board_effect")
_TOP_ITEM = re.compile(r"(?m)^- ")  # lines are never wrapped, so only a top-level list item starts a line so


def _shaped(item: dict[str, Any]) -> dict[str, Any]:
    """Segments on one line each; lists of words and small mappings (effects) on one line."""
    shaped: dict[str, Any] = {}
    for key, value in item.items():
        if key == "disk" and isinstance(value, list):
            value = [_Flow(segment) if isinstance(segment, dict) else segment for segment in value]
        elif isinstance(value, list) and all(not isinstance(v, dict | list) for v in value):
            value = _FlowList(value)
        elif isinstance(value, dict):
            value = _Flow(value) if key in _FLOW_KEYS else {
                k: _Flow(v) if isinstance(v, dict) and k in _FLOW_KEYS else v for k, v in value.items()}
        shaped[key] = value
    return shaped


def dump_item(item: dict[str, Any]) -> str:
    """YAML for one unit, squad or module: block keys, flow-style segments and effects, no line wrapping."""
    text = yaml.dump(_shaped(item), Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=1_000_000)
    return _TOP_ITEM.sub("  - ", text)  # list items indented under their key, as the bundled files are


def dump_unit(unit: dict[str, Any]) -> str:
    """YAML for one unit (the importer's name for `dump_item`)."""
    return dump_item(unit)


def file_text(comments: str, plural: str | None, items: list[dict[str, Any]]) -> str:
    """A data file: its comment lines, then its one item or its `plural:` list of items."""
    if plural is None and len(items) == 1:
        return comments + dump_item(items[0])
    body = "".join("  - " + dump_item(item).replace("\n", "\n    ").rstrip(" ") for item in items)
    return comments + f"{plural or 'units'}:\n" + body
