"""Reading what a person types at a prompt: one bounded line at a time, numbers through `whole_numbers`.

A line is read at most `MAX_LINE` characters at a time; the rest of a longer line is read and dropped in
pieces of that size, so a pasted (or piped) line of gigabytes costs no memory and is answered with a
message naming the line. Echoed text goes through the terminal filter, so a raw byte typed at the prompt
(a C1 control such as 0x9b, read as an escaped surrogate) never reaches the terminal raw.
"""

from __future__ import annotations

from typing import TextIO

from toolkit.errors import DuelkitError
from toolkit.whole_numbers import NumberError, read_whole, shown

MAX_LINE = 200  # characters: a choice is a number or a word; anything longer is not an answer


class InputEnded(DuelkitError):
    """The input stream ended."""


class Prompt:
    """Lines typed at `stream`, counted, so a message can name the line it is about."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self.number = 0

    def read_line(self) -> str | None:
        """The next line without its line break, stripped; None when it was longer than MAX_LINE (then it
        has been read to its end). InputEnded at the end of the input."""
        line = self.stream.readline(MAX_LINE + 1)
        if not line:
            raise InputEnded
        self.number += 1
        if len(line) > MAX_LINE and not line.endswith("\n"):
            while True:  # drop the rest of the line in bounded pieces
                rest = self.stream.readline(64 * 1024)
                if not rest or rest.endswith("\n"):
                    return None
        return line.strip()

    def choice(self, text: str | None, count: int) -> int | str:
        """The 0-based option a line chose, or what to tell the person (naming the line) when it chose none."""
        where = f"input line {self.number}"
        if text is None:
            return f"{where} is longer than {MAX_LINE} characters; type a number from 1 to {count}"
        try:
            value = read_whole(text, "a number")
        except NumberError as exc:
            return f"{where}: {exc}; type a number from 1 to {count}"
        if not 1 <= value <= count:
            return f"{where}: {shown(text)} is not a number from 1 to {count}"
        return value - 1
