"""`duelkit watch`'s parse cache: a file is read again only when its signature changed since it was read,
parsed again only when its bytes changed; an edit that keeps the size and puts the old modification time back
is still seen (the status change time moves)."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from toolkit import yamlsource
from toolkit.yamlsource import ParseCache, load_yaml_file, parsing_with


def _load(cache: ParseCache, path: Path) -> object:
    cache.start()
    with parsing_with(cache):
        return load_yaml_file(path, path.name).data


def test_an_unchanged_file_is_not_read_and_an_edit_is_seen_with_its_old_times(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(yamlsource, "SETTLED_NS", 0)  # trust signatures at once (normally: 2 s after a change)
    path = tmp_path / "unit.yaml"
    path.write_text("name: Spark\n", encoding="utf-8")
    cache = ParseCache()
    reads: list[Path] = []
    real_read = yamlsource.read_file

    def counted(where: Path, *args: object) -> tuple[bytes, int]:
        reads.append(where)
        return real_read(where, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(yamlsource, "read_file", counted)
    assert _load(cache, path) == {"name": "Spark"}
    assert _load(cache, path) == {"name": "Spark"}
    assert len(reads) == 1  # the second time, its signature said it was unchanged
    before = os.stat(path)
    time.sleep(0.05)  # past a tick of the file system's clock
    path.write_text("name: Spark\n".replace("Spark", "Shock"), encoding="utf-8")  # the same size
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))  # and the old modification time
    assert _load(cache, path) == {"name": "Shock"}
    assert cache.parsed == ["unit.yaml"]
    assert len(reads) == 2


def test_a_file_changed_moments_before_it_was_read_is_read_again(tmp_path: Path) -> None:
    """Within SETTLED_NS of a change, a second write could leave the same times: no signature is trusted."""
    path = tmp_path / "unit.yaml"
    path.write_text("name: Spark\n", encoding="utf-8")
    cache = ParseCache()
    _load(cache, path)
    assert cache.signatures == {}
