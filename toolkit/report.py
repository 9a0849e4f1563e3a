"""Render problems for people (rustc-like text) and for programs (JSON). Returns strings; never prints."""

from __future__ import annotations

import json
from collections import Counter
from functools import lru_cache

from toolkit.problems import Problem
from toolkit.terminal import SafeText, terminal_safe

# The same hint (and file name) recurs in hundreds of problems of a big project: made safe once each.
_safe_repeated = lru_cache(maxsize=1024)(terminal_safe)


def format_problem(problem: Problem) -> str:
    """error[D001]: message / --> file:line:col / the line with a caret / expected, found, hint.

    Every piece that comes from a file (message, file name, quoted line, expected, found, hint) is made
    terminal-safe here, so the report as a whole is (format_text)."""
    lines = [f"{problem.severity.value}[{problem.code}]: {terminal_safe(problem.message)}"]
    file = _safe_repeated(problem.file)
    where = file if problem.line == 0 else f"{file}:{problem.line}:{problem.column}"
    gutter = " " * len(str(problem.line))
    lines.append(f"{gutter}--> {where}")
    if problem.line and problem.source_line:
        # Escaping widens control characters; keep the caret under the character it points at.
        written = problem.source_line.replace("\t", " ")
        shown = terminal_safe(written)
        before = written[: problem.column - 1]
        indent = len(before) if shown is written else len(terminal_safe(before))
        lines += [f"{gutter} |", f"{problem.line} | {shown}", f"{gutter} | {' ' * indent}^"]
    if problem.expected or problem.found:
        lines.append(f"{gutter} = expected {terminal_safe(problem.expected) or '?'}, "
                     f"found {terminal_safe(problem.found) or '?'}")
    if problem.hint:
        lines.append(f"{gutter} = hint: {_safe_repeated(problem.hint)}")
    return "\n".join(lines)


def counted(number: int, noun: str) -> str:
    """'1 squad', '3 squads', '0 errors': a count in words a reader does not stumble over."""
    return f"{number} {noun}{'s' * (number != 1)}"


def summary(problems: list[Problem]) -> str:
    counts = Counter(problem.severity.value for problem in problems)
    return f"{counted(counts.get('error', 0), 'error')}, {counted(counts.get('warning', 0), 'warning')}"


def format_text(problems: list[Problem]) -> SafeText:
    """The problems for people, already terminal-safe: the command line's filter passes it on unscanned."""
    return SafeText("\n\n".join(format_problem(problem) for problem in problems))


def format_json(problems: list[Problem]) -> str:
    return json.dumps([problem.as_json() for problem in problems], indent=2, ensure_ascii=False)
