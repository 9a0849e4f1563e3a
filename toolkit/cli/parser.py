"""The argument parser every command uses: argparse echoes arguments in its messages (usage errors,
"unrecognized arguments"), so they pass the same terminal filter as the rest of the output. Kept apart
from `common.py` so `duelkit --version` and `--help` load nothing heavier than argparse."""

from __future__ import annotations

import argparse
import re
from typing import TYPE_CHECKING, Any

from toolkit.terminal import terminal_safe

if TYPE_CHECKING:
    from _typeshed import SupportsWrite


# What argparse takes for a negative number rather than an option, plus a pair such as `-1.5,0.5`: so
# `--back-offset -1.5,0.5` (the back drifted left) is a value, not "expected one argument".
_NEGATIVE = re.compile(r"^-\d+$|^-\d*\.\d+$|^-(\d+\.?\d*|\.\d+),-?(\d+\.?\d*|\.\d+)$")
# A word longer than any option or value a person types: an echoed argument of thousands of characters is
# shortened to its start and its length, so one bad value does not fill the screen.
_LONG_WORD = re.compile(r"""[^\s'"]{81,}""")


def _shortened(message: str) -> str:
    return _LONG_WORD.sub(lambda m: f"{m.group()[:40]}… ({len(m.group()):,} characters)", message)


class Parser(argparse.ArgumentParser):
    """Subcommand parsers are made of the same class (argparse's default `parser_class`)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._negative_number_matcher = _NEGATIVE

    def _print_message(self, message: str, file: SupportsWrite[str] | None = None) -> None:
        super()._print_message(_shortened(terminal_safe(message)), file)
