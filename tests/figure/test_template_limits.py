"""Template overrides are untrusted code: limits and located errors (issue 12, item 9).

Every way a project's template can fail ends as a DuelkitError naming the template file (and line
when jinja knows it): never an internal error (exit 70), never a traceback, never a hang.
"""

from __future__ import annotations

import multiprocessing
import os
from pathlib import Path

import pytest

from toolkit.cli import main
from toolkit.errors import DuelkitError
from toolkit.figure.kit import html_manual
from toolkit.figure.kit.html_manual import render_bounded

CONTEXT = {"manual": {"title": "T"}}


@pytest.fixture
def templates(tmp_path: Path) -> Path:
    folder = tmp_path / "templates"
    folder.mkdir()
    return folder


def render_error(templates: Path, text: str | bytes, name: str = "manual.html.j2", **limits) -> str:
    path = templates / name
    path.write_bytes(text if isinstance(text, bytes) else text.encode("utf-8"))
    with pytest.raises(DuelkitError) as caught:
        render_bounded("manual.html.j2", CONTEXT, templates, **limits)
    assert not multiprocessing.active_children(), "a rendering process was left running"
    return str(caught.value)


@pytest.mark.parametrize(("text", "line", "says"), [
    ("<p>\n{{ 1 // 0 }}\n", 2, "division by zero"),
    ("{% macro r(n) %}{{ r(n + 1) }}{% endmacro %}\n\n{{ r(0) }}\n", 1, "calls itself"),
    ("\n{{ 'x'|center('wide') }}\n", 2, "integer"),
    ("{% extends 'manual.html.j2' %}\n", 1, "extends or includes itself"),
    ("<p>\n{% include 'manual.html.j2' %}\n", 2, "extends or includes itself"),
    ("{% include 'no-such.html.j2' %}\n", 1, "no-such.html.j2"),
    ("{{ manual.title * 100000000 }}\n", 1, "output limit"),
    ("{{ 10 ** 100000000 }}\n", 1, "too large"),
    ("{{ manual.title.__class__.__mro__ }}\n", 1, "unsafe"),
])
def test_runtime_failures_name_the_file_and_line(templates: Path, text: str, line: int, says: str) -> None:
    message = render_error(templates, text)
    assert f"manual.html.j2:{line}: template error" in message
    assert says in message


def test_a_failure_in_an_included_override_names_that_file(templates: Path) -> None:
    (templates / "_blocks.html.j2").write_text("{% macro block(b) %}\n{{ 1 / 0 }}{% endmacro %}\n")
    message = render_error(templates, "{% from '_blocks.html.j2' import block %}{{ block(1) }}\n")
    assert "_blocks.html.j2:2: template error: division by zero" in message


def test_not_utf8_is_located_at_its_line(templates: Path) -> None:
    message = render_error(templates, b"<p>\n<p>caf\xe9</p>\n")
    assert message.endswith("manual.html.j2:2: byte 0xe9 is not UTF-8; save the template as UTF-8")


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads any file")
def test_unreadable_template_is_an_error_not_a_fallback(templates: Path) -> None:
    path = templates / "manual.html.j2"
    path.write_text("{{ manual.title }}")
    path.chmod(0)
    try:
        message = render_error(templates, b"", name="unused.j2")
    finally:
        path.chmod(0o644)
    assert "manual.html.j2: cannot read" in message


@pytest.mark.parametrize(("kind", "says"), [("folder", "a folder"), ("fifo", "a named pipe (FIFO)")])
def test_a_folder_or_fifo_named_like_a_template_is_refused_without_hanging(
        templates: Path, kind: str, says: str) -> None:
    path = templates / "manual.html.j2"
    path.mkdir() if kind == "folder" else os.mkfifo(path)
    message = render_error(templates, b"", name="unused.j2")
    assert f"manual.html.j2: {says}, not a regular file" in message


def test_output_is_limited(templates: Path, monkeypatch) -> None:
    monkeypatch.setattr(html_manual, "MAX_OUTPUT_CHARS", 50_000)
    message = render_error(templates, "{% for i in range(100000) %}{{ manual.title }}{% endfor %}\n")
    assert "manual.html.j2: template error: the page passed 50000 characters" in message


def test_a_runaway_loop_is_stopped_at_its_line(templates: Path) -> None:
    message = render_error(
        templates, "<p>\n{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}\n",
        seconds=0.5)
    assert "manual.html.j2:2: template error: rendering took longer than 0.5 s" in message


def test_the_child_is_killed_when_the_alarm_cannot_stop_it(templates: Path, monkeypatch) -> None:
    # As if the template sat in one long C call that no signal handler can interrupt.
    monkeypatch.setattr(html_manual, "_on_alarm", lambda _signum, _frame: None)
    monkeypatch.setattr(html_manual, "HARD_KILL_GRACE_SECONDS", 0.5)
    message = render_error(templates, "{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}"
                                      "{% endfor %}\n", seconds=0.5)
    assert "manual.html.j2: template error: rendering did not finish within 0.5 s (it was stopped)" in message


def test_cli_reports_template_failures_with_exit_1(capsys, tmp_path: Path) -> None:
    project = tmp_path / "kit"
    assert main(["new", str(project)]) == 0
    capsys.readouterr()
    template = project / "templates" / "manual.html.j2"
    for text in ("{{ 1 // 0 }}\n", "{% extends 'manual.html.j2' %}\n", "{{ 1.5|round('p') }}\n"):
        template.write_text(text, encoding="utf-8")
        assert main(["reference", str(project)]) == 1
        err = capsys.readouterr().err
        assert "manual.html.j2:1: template error" in err
        assert "internal error" not in err
        assert "Traceback" not in err
    template.write_bytes(b"\xff\xfe")
    assert main(["reference", str(project)]) == 1
    assert "manual.html.j2:1: byte 0xff is not UTF-8" in capsys.readouterr().err
    assert not (project / "output" / "reference" / "duel-protocol").exists()
