"""Shared fixtures: a small valid project to break one file at a time."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from toolkit import yamlsource

FIXTURES = Path(__file__).parent / "fixtures"
CASES = Path(__file__).parent / "cases"


@pytest.fixture
def base_project(tmp_path: Path) -> Path:
    """A copy of tests/fixtures/base: valid, seven units, two modules, one squad."""
    target = tmp_path / "project"
    shutil.copytree(FIXTURES / "base", target)
    return target


@pytest.fixture(scope="module", params=yamlsource.BACKENDS)
def yaml_backend(request: pytest.FixtureRequest) -> Iterator[str]:
    """Runs a test module once per YAML backend (libyaml, pure Python): both must give the same results."""
    saved = yamlsource.BACKEND
    yamlsource.BACKEND = request.param
    yield request.param
    yamlsource.BACKEND = saved
