"""Building a kit makes many small objects: tell the garbage collector so (any game's kit)."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def batch_allocation() -> Iterator[None]:
    """Fewer garbage-collector passes while a kit is built: scenes are many small acyclic objects, and
    the default thresholds spend a third of the scene-building time scanning them."""
    old = gc.get_threshold()
    gc.freeze()
    gc.set_threshold(50_000, 20, 20)
    try:
        yield
    finally:
        gc.set_threshold(*old)
        gc.unfreeze()
