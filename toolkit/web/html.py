"""Tiny HTML helpers: every text that came from a data file or a request is escaped on its way in."""

from __future__ import annotations

from html import escape


def h(text: object) -> str:
    """Text for HTML content or a quoted attribute value."""
    return escape(str(text), quote=True)


def attrs(**values: object) -> str:
    """` name="value"` pairs (underscores become dashes, `class_` is `class`); None and False are left out."""
    parts = []
    for name, value in values.items():
        if value is None or value is False:
            continue
        key = name.rstrip("_").replace("_", "-")
        parts.append(f" {key}" if value is True else f' {key}="{h(value)}"')
    return "".join(parts)
