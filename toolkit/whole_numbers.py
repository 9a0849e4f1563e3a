"""Whole numbers read from people and files: the one place that turns text into an int.

Python's `int()` accepts any Unicode decimal digit (Arabic-Indic, fullwidth) and refuses more than 4,300
digits with a ValueError that reads like a bug, while `str.isdigit()` accepts '²', which `int()` then refuses.
Every number duelkit reads (the `play` prompt, `--rules NAME=VALUE`, numbered sheet headers such as
`Move 12`, sheet cells, game record fields) is written with the ASCII digits 0-9 and has at most
`MAX_DIGITS` digits (a quadrillion is far beyond any count, size or turn duelkit uses); anything else is a
`NumberError` whose message says what is wrong, for the caller to locate.
"""

from __future__ import annotations

import re

from toolkit.errors import DuelkitError

MAX_DIGITS = 15
WHOLE_PATTERN = f"[0-9]{{1,{MAX_DIGITS}}}"  # for patterns that read a number inside a longer text
_DIGITS = re.compile("[0-9]+")


class NumberError(DuelkitError):
    """Text that is not a whole number duelkit reads (the message says why; the caller says where)."""


def shown(text: str, limit: int = 20) -> str:
    """`text` quoted for a message, cut to `limit` characters with its length said (a 5,000-digit number
    is not printed whole)."""
    if len(text) <= limit:
        return repr(text)
    return f"{text[:limit]!r}... ({len(text):,} characters)"


def is_whole(text: str) -> bool:
    """True when `read_whole(text)` succeeds: 1 to MAX_DIGITS ASCII digits."""
    return _DIGITS.fullmatch(text) is not None and len(text) <= MAX_DIGITS


def read_whole(text: str, what: str = "a whole number") -> int:
    """`text` (ASCII digits only, at most MAX_DIGITS of them) as an int; NumberError saying why not."""
    if _DIGITS.fullmatch(text) is None:
        raise NumberError(f"{shown(text)} is not {what} (write it with the digits 0-9)")
    if len(text) > MAX_DIGITS:
        raise NumberError(f"{shown(text)} has {len(text):,} digits; {what} has at most {MAX_DIGITS}")
    return int(text)
