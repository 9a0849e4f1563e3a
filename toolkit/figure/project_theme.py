"""The project's own words: `name:`, `terms:` and `statuses:` of duelkit.yaml laid over its theme, and
checked as a theme is (every status of the variant named, no unknown word), each problem located in
duelkit.yaml. The result is an ordinary Theme, so every card, sheet and manual prints the project's words."""

from __future__ import annotations

import difflib

from pydantic import ValidationError

from toolkit.figure.theme import Terms, Theme
from toolkit.loading import Project
from toolkit.plain_check import validated
from toolkit.problems import Problem
from toolkit.schema import locate

NAME_TERM = "game"  # the printed name of the game: written as `name:`, not as a term


def project_theme(theme: Theme, project: Project | None) -> tuple[Theme, list[Problem]]:
    """`theme` with the project's name and words; unknown words are reported and left out."""
    if project is None:
        return theme, []
    settings = project.settings
    problems: list[Problem] = []
    terms = dict(theme.terms)  # its words (all text: as model_dump gives them, without building a serializer)
    if settings.name:
        terms[NAME_TERM] = settings.name
    for key, word in sorted((settings.terms or {}).items()):
        if key == NAME_TERM:
            problems.append(_at(project, ("terms", key), "S001", "the game's name is not a term",
                                "write it as `name:` at the top of duelkit.yaml"))
        elif key not in terms:
            problems.append(_at(project, ("terms", key), "S001", f"unknown term '{key}'",
                                _closest(key, [k for k in terms if k != NAME_TERM], "terms")))
        else:
            terms[key] = word
    statuses = dict(theme.statuses)
    seen: dict[str, str] = {name.casefold(): sid for sid, name in statuses.items()}
    for status_id, name in sorted((settings.statuses or {}).items()):
        if status_id not in statuses:
            problems.append(_at(project, ("statuses", status_id), "X007",
                                f"'{status_id}' is not a status of theme '{theme.id}'",
                                _closest(status_id, list(statuses), "statuses")))
            continue
        other = seen.get(name.casefold())
        if other is not None and other != status_id:
            problems.append(_at(project, ("statuses", status_id), "S004",
                                f"'{name}' already names status '{other}'", "give each status its own name"))
            continue
        seen.pop(statuses[status_id].casefold(), None)
        seen[name.casefold()] = status_id
        statuses[status_id] = name
    try:
        merged = validated(Theme, {**dict(theme), "terms": dict(validated(Terms, terms)), "statuses": statuses})
    except ValidationError as exc:  # cannot happen with the checks above; kept so a future field is still checked
        problems.append(_at(project, (), "S004", f"the project's words break the theme: {exc.errors()[0]['msg']}", ""))
        return theme, problems
    return merged, problems


def _closest(word: str, known: list[str], what: str) -> str:
    close = difflib.get_close_matches(word, known, n=1)
    return f"did you mean '{close[0]}'?" if close else f"{what}: {', '.join(sorted(known))}"


def _at(project: Project, loc: tuple[str, ...], code: str, message: str, hint: str) -> Problem:
    return project.source.problem(code, locate(project.data, loc, key=True) if loc else None, message, hint=hint)
