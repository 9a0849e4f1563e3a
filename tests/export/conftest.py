"""The bundled games' export sets, built once per test session (building them is the slow part)."""

from __future__ import annotations

import pytest

from toolkit.export.pieces import ExportSet
from toolkit.registry import discover


@pytest.fixture(scope="session")
def export_sets() -> dict[str, ExportSet]:
    found, _ = discover(None)
    return {game.id: game.export_set(game.load(where)) for game, where in found}
