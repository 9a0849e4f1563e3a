"""Loaded YAML values that remember where they were written: the types both YAML paths build
(toolkit.yamlsource's node builder and toolkit.yaml_direct's event loop)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Pos:
    line: int
    column: int


class LocatedDict(dict):
    """A dict that knows where it, each key and each value started in the file."""

    def __init__(self, pos: Pos) -> None:
        super().__init__()
        self.pos = pos
        self.key_pos: dict[Any, Pos] = {}
        self.value_pos: dict[Any, Pos] = {}


class LocatedList(list):
    """A list that knows where it and each item started in the file."""

    def __init__(self, pos: Pos) -> None:
        super().__init__()
        self.pos = pos
        self.item_pos: list[Pos] = []
