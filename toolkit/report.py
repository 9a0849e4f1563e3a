"""Render problems for people (rustc-like text) and for programs (JSON). Returns strings; never prints."""

from __future__ import annotations

import json
from collections import Counter

from toolkit.problems import Problem
from toolkit.terminal import terminal_safe


def format_problem(problem: Problem) -> str:
    """error[D001]: message / --> file:line:col / the line with a caret / expected, found, hint."""
    lines = [f"{problem.severity.value}[{problem.code}]: {problem.message}"]
    where = problem.file if problem.line == 0 else f"{problem.file}:{problem.line}:{problem.column}"
    gutter = " " * len(str(problem.line))
    lines.append(f"{gutter}--> {where}")
    if problem.line and problem.source_line:
        # Escaping widens control characters (the CLI's terminal filter would anyway); keep the caret
        # under the character it points at.
        shown = terminal_safe(problem.source_line.replace("\t", " "))
        indent = len(terminal_safe(problem.source_line[: problem.column - 1].replace("\t", " ")))
        lines += [f"{gutter} |", f"{problem.line} | {shown}", f"{gutter} | {' ' * indent}^"]
    if problem.expected or problem.found:
        lines.append(f"{gutter} = expected {problem.expected or '?'}, found {problem.found or '?'}")
    if problem.hint:
        lines.append(f"{gutter} = hint: {problem.hint}")
    return "\n".join(lines)


def counted(number: int, noun: str) -> str:
    """'1 squad', '3 squads', '0 errors': a count in words a reader does not stumble over."""
    return f"{number} {noun}{'s' * (number != 1)}"


def summary(problems: list[Problem]) -> str:
    counts = Counter(problem.severity.value for problem in problems)
    return f"{counted(counts.get('error', 0), 'error')}, {counted(counts.get('warning', 0), 'warning')}"


def format_text(problems: list[Problem]) -> str:
    return "\n\n".join(format_problem(problem) for problem in problems)


def format_json(problems: list[Problem]) -> str:
    return json.dumps([problem.as_json() for problem in problems], indent=2, ensure_ascii=False)
