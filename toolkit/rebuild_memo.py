"""What one rebuild of `duelkit watch` computed, kept for the next: the shared mechanism behind the parse cache
(`yamlsource.ParseCache`) and the layout memory (`kit.memo.LayoutMemo`). What the last rebuild did not use is
forgotten at the next `start`, so the memory holds one rebuild's values at most."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Generic, TypeVar

V = TypeVar("V")
M = TypeVar("M")
_MISSING: object = object()


class RebuildMemo(Generic[V]):
    """Values by key; `misses` counts the values computed (not found) since `start`."""

    def __init__(self) -> None:
        self.entries: dict[Hashable, V] = {}
        self.used: dict[Hashable, V] = {}
        self.misses = 0

    def start(self) -> None:
        """A new rebuild: keep only what the last one used."""
        if self.used:
            self.entries, self.used = self.used, {}
        self.misses = 0

    def get(self, key: Hashable, compute: Callable[[], V]) -> V:
        found = self.used.get(key, _MISSING)
        if found is _MISSING:
            found = self.entries.get(key, _MISSING)
        if found is _MISSING:
            found = compute()
            self.misses += 1
        self.used[key] = found  # type: ignore[assignment]
        return found  # type: ignore[return-value]


@contextmanager
def in_effect(slot: ContextVar[M | None], memo: M) -> Iterator[M]:
    """`memo` is what `slot` holds inside this block, and what it held before afterwards (a watch enters its
    memories for each rebuild; everything else finds none and computes)."""
    token = slot.set(memo)
    try:
        yield memo
    finally:
        slot.reset(token)
