"""Render the manual model to a standalone HTML page with jinja2.

Templates come from the project's `templates/` folder first, then the bundled ones, so a designer
overrides any template by writing a file of the same name. Every template runs sandboxed, with
autoescaping and StrictUndefined, and within limits, because a project's template is untrusted code:

- **Files.** Read through toolkit/safe_fs.py: never through a link leading outside the project, never a
  FIFO or other special file; a file that exists but cannot be used (unreadable, too large, not UTF-8)
  is an error, never silently replaced by the bundled template.
- **Time and memory.** Rendering runs in a child process (`fork` where the platform has it). Inside it
  an alarm (SIGALRM) stops a runaway template after RENDER_SECONDS with the template line it was on;
  the parent kills the child if even that does not end it (a C-level operation such as a huge `**`
  cannot be interrupted by a signal), and the address space of the child is capped (RLIMIT_AS). No
  thread is started and no child outlives the call.
- **Output.** The page is streamed (`Template.generate`) and stopped past MAX_OUTPUT_CHARS; `*` and
  `**` on huge operands are refused before they run.
- **Errors.** Every failure (syntax, undefined names, division by zero, recursion, a bad filter
  argument, a template that extends or includes itself, a file that cannot be read) is a `DuelkitError`
  naming the template file, and its line when jinja knows it.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import traceback
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

from jinja2 import (
    BaseLoader,
    ChoiceLoader,
    Environment,
    StrictUndefined,
    TemplateError,
    TemplateNotFound,
    TemplateSyntaxError,
)
from jinja2.loaders import split_template_path
from jinja2.sandbox import SandboxedEnvironment
from markupsafe import Markup

from toolkit.errors import DuelkitError
from toolkit.figure.kit.manual import Bullets, Figure, Manual, Para, Table
from toolkit.figure.theme import Theme
from toolkit.paths import bundled_root
from toolkit.render.svg import render_svg
from toolkit.safe_fs import FileProblem, display_path, outside_link, read_file

MANUAL_TEMPLATE = "manual.html.j2"
PAPER_CSS = {"a4": "A4", "letter": "letter"}
MAX_TEMPLATE_BYTES = 1024 * 1024
RENDER_SECONDS = 10.0  # the bundled manual renders in about 0.02 s
HARD_KILL_GRACE_SECONDS = 5.0  # after the alarm, before the parent kills the child
MAX_OUTPUT_CHARS = 10_000_000  # the bundled manual is about 20,000 characters
MAX_EXTRA_MEMORY_BYTES = 1 << 30


class TemplateFileError(DuelkitError):
    """A template file that cannot be used (outside the project, special, unreadable, too large, not UTF-8);
    its message is already located."""


class _TemplateTimeout(Exception):
    """Raised by the alarm inside the template's own code, so jinja reports the line it was on."""


class _OutputTooLarge(Exception):
    def __init__(self, limit: int) -> None:
        super().__init__(limit)
        self.limit = limit


class ProjectTemplates(BaseLoader):
    """Templates read as part of a project (`root`): never through a link leading outside it, never a
    FIFO or other special file (see toolkit/safe_fs.py)."""

    def __init__(self, folder: Path, root: Path) -> None:
        self.folder, self.root = folder, root

    def get_source(self, environment: Environment, template: str):  # noqa: ARG002 - Jinja's BaseLoader signature
        path = self.folder.joinpath(*split_template_path(template))
        try:
            if outside_link(self.folder, self.root) is None and not os.path.lexists(path):
                raise TemplateNotFound(template)  # the next folder (the bundled templates) is tried
            data, size = read_file(path, MAX_TEMPLATE_BYTES, self.root)  # refuses links outside, FIFOs
        except FileProblem as exc:
            raise TemplateFileError(f"{display_path(exc.where)}: {exc.message} ({exc.code})") from None
        if size > MAX_TEMPLATE_BYTES:
            raise TemplateFileError(f"{display_path(path)}: template is {size} bytes; "
                                    f"the limit is {MAX_TEMPLATE_BYTES}")
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as exc:
            line = data[: exc.start].count(b"\n") + 1
            raise TemplateFileError(f"{display_path(path)}:{line}: byte 0x{data[exc.start]:02x} is not UTF-8; "
                                    "save the template as UTF-8") from None
        mtime = os.path.getmtime(path)
        return text, str(path), lambda: os.path.getmtime(path) == mtime


class _BoundedEnvironment(SandboxedEnvironment):
    """The sandbox, also refusing `*` and `**` whose result would be huge (they run in C, unstoppable)."""

    intercepted_binops = frozenset({"*", "**"})

    def call_binop(self, context: Any, operator: str, left: Any, right: Any) -> Any:
        if operator == "*":
            for seq, count in ((left, right), (right, left)):
                if isinstance(seq, (str, list, tuple)) and isinstance(count, int) \
                        and len(seq) * count > MAX_OUTPUT_CHARS:
                    raise TemplateError(f"'*' would make {len(seq) * count} items; the output limit is "
                                        f"{MAX_OUTPUT_CHARS}")
        if operator == "**" and isinstance(left, int) and isinstance(right, int) \
                and abs(left) > 1 and right * abs(left).bit_length() > 100_000:
            raise TemplateError(f"{left} ** {right} is too large a number")
        return super().call_binop(context, operator, left, right)


def _folders(project_templates: Path | None) -> list[Path]:
    """Where templates come from, first match wins: the project's folder, then the bundled one."""
    return [*([project_templates] if project_templates else []), bundled_root() / "templates"]


def _template_file(project_templates: Path | None, name: str) -> str:
    """The file template `name` is read from, for messages that have no line to give."""
    folders = _folders(project_templates)
    return display_path(next((f / name for f in folders if os.path.lexists(f / name)), folders[-1] / name))


def environment(project_templates: Path | None = None) -> SandboxedEnvironment:
    bundled = bundled_root()
    loaders = [ProjectTemplates(project_templates, project_templates.parent)] if project_templates else []
    loaders.append(ProjectTemplates(bundled / "templates", bundled))
    return _BoundedEnvironment(loader=ChoiceLoader(loaders), autoescape=True, undefined=StrictUndefined,
                               keep_trailing_newline=True)


def _block(block: Any) -> dict[str, Any]:
    """Plain dicts for templates: a sandboxed template reads keys, never our objects' internals."""
    if isinstance(block, Para):
        return {"kind": "para", "text": block.text}
    if isinstance(block, Bullets):
        return {"kind": "bullets", "entries": list(block.items), "ordered": block.ordered}
    if isinstance(block, Table):
        return {"kind": "table", "header": list(block.header), "rows": [list(r) for r in block.rows],
                "classes": [list(c) for c in block.classes], "row_headers": block.row_headers,
                "compact": block.compact}
    if isinstance(block, Figure):
        svg = render_svg(block.page, embed_fonts=False).split("?>", 1)[-1].strip()  # inline: drop any XML declaration
        return {"kind": "figure", "svg": Markup(svg), "caption": block.caption}
    raise TypeError(type(block).__name__)


def _sections(sections) -> list[dict[str, Any]]:
    return [{"id": s.id, "title": s.title, "blocks": [_block(b) for b in s.blocks]} for s in sections]


def render_manual_html(manual: Manual, theme: Theme, paper: str, project_templates: Path | None = None) -> str:
    context = {
        "manual": {"title": manual.title, "subtitle": manual.subtitle, "sections": _sections(manual.sections),
                   "quick": _sections(manual.quick)},
        "theme": {"id": theme.id, "name": theme.name, "terms": theme.terms.model_dump(),
                  "statuses": dict(theme.statuses)},
        "paper_css": PAPER_CSS[paper],
        "generated_by": "Generated by duelkit from the rules model; edit the data, not this page.",
    }
    return render_bounded(MANUAL_TEMPLATE, context, project_templates)


def render_bounded(name: str, context: dict[str, Any], project_templates: Path | None = None, *,
                   seconds: float | None = None, max_chars: int | None = None) -> str:
    """Render template `name` in a child process within the limits; a failure is a located DuelkitError."""
    seconds = RENDER_SECONDS if seconds is None else seconds
    max_chars = MAX_OUTPUT_CHARS if max_chars is None else max_chars
    methods = multiprocessing.get_all_start_methods()
    spawner: Any = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
    receive, send = spawner.Pipe(duplex=False)
    child = spawner.Process(target=_render_in_child, daemon=True,
                            args=(send, name, context, project_templates, seconds, max_chars))
    child.start()
    send.close()
    where = _template_file(project_templates, name)
    try:
        if not receive.poll(seconds + HARD_KILL_GRACE_SECONDS):
            raise DuelkitError(f"{where}: template error: rendering did not finish within {seconds:g} s "
                               "(it was stopped); look for a loop or a filter that does not end")
        status, text = receive.recv()
    except EOFError:
        raise DuelkitError(f"{where}: template error: rendering stopped without a result (exit code "
                           f"{child.exitcode}); the template may use too much memory") from None
    finally:
        if child.is_alive():
            child.kill()
        child.join()
        receive.close()
    if status != "ok":
        raise DuelkitError(text)
    return str(text)


def _render_in_child(send: Connection, name: str, context: dict[str, Any], project_templates: Path | None,
                     seconds: float, max_chars: int) -> None:
    """The child's whole job: render, and send back ("ok", html) or ("error", located message)."""
    _limit_memory()
    if hasattr(signal, "setitimer"):
        signal.signal(signal.SIGALRM, _on_alarm)
        signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        result = ("ok", _render(name, context, project_templates, max_chars))
    except BaseException as exc:  # any failure of a designer's template is reported, located
        result = ("error", _describe(exc, name, project_templates, seconds))
    if hasattr(signal, "setitimer"):
        signal.setitimer(signal.ITIMER_REAL, 0)
    send.send(result)
    send.close()


def _on_alarm(_signum: int, _frame: Any) -> None:
    raise _TemplateTimeout


def _limit_memory() -> None:
    """Cap the child's address space at what it has now plus MAX_EXTRA_MEMORY_BYTES (where supported)."""
    try:
        import resource

        with open("/proc/self/statm", encoding="ascii") as statm:
            current = int(statm.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
        limit = current + MAX_EXTRA_MEMORY_BYTES
        _, hard = resource.getrlimit(resource.RLIMIT_AS)
        if hard == resource.RLIM_INFINITY or limit < hard:
            resource.setrlimit(resource.RLIMIT_AS, (limit, hard))
    except (ImportError, OSError, ValueError):
        pass  # no /proc or no rlimits here: the time limit and the parent's kill still bound the render


def _render(name: str, context: dict[str, Any], project_templates: Path | None, max_chars: int) -> str:
    parts: list[str] = []
    size = 0
    for chunk in environment(project_templates).get_template(name).generate(context):
        size += len(chunk)
        if size > max_chars:
            raise _OutputTooLarge(max_chars)
        parts.append(chunk)
    return "".join(parts)


def _describe(exc: BaseException, name: str, project_templates: Path | None, seconds: float) -> str:
    """`file:line: template error: what`, with the line of the innermost template frame (jinja2 rewrites
    tracebacks so template frames carry the template's file and line)."""
    if isinstance(exc, TemplateSyntaxError):
        return f"{exc.filename or exc.name}:{exc.lineno}: template error: {exc.message}"
    if isinstance(exc, TemplateFileError):
        return str(exc)
    folders = [str(folder) for folder in _folders(project_templates)]
    frames = [frame for frame in traceback.extract_tb(exc.__traceback__)
              if any(frame.filename.startswith(folder + os.sep) for folder in folders)]
    where = f"{frames[-1].filename}:{frames[-1].lineno}" if frames else _template_file(project_templates, name)
    if isinstance(exc, _TemplateTimeout):
        what = f"rendering took longer than {seconds:g} s (the limit); look for a loop that does not end"
    elif isinstance(exc, _OutputTooLarge):
        what = f"the page passed {exc.limit} characters (the limit for a manual)"
    elif isinstance(exc, RecursionError):
        what = ("templates nest too deeply: a template that extends or includes itself, "
                "or a macro that calls itself without end")
    elif isinstance(exc, MemoryError):
        what = "the template needs more memory than the limit allows"
    elif isinstance(exc, ZeroDivisionError):
        what = "division by zero"
    else:
        what = str(exc) or type(exc).__name__
    return f"{where}: template error: {what}"
