"""Shared fixtures: a small valid project to break one file at a time."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

FIXTURES = Path(__file__).parent / "fixtures"
CASES = Path(__file__).parent / "cases"


@pytest.fixture
def base_project(tmp_path: Path) -> Path:
    """A copy of tests/fixtures/base: valid, seven units, two modules, one squad."""
    target = tmp_path / "project"
    shutil.copytree(FIXTURES / "base", target)
    return target
