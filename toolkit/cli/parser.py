"""The argument parser every command uses: argparse echoes arguments in its messages (usage errors,
"unrecognized arguments"), so they pass the same terminal filter as the rest of the output. Kept apart
from `common.py` so `duelkit --version` and `--help` load nothing heavier than argparse."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from toolkit.terminal import terminal_safe

if TYPE_CHECKING:
    from _typeshed import SupportsWrite


class Parser(argparse.ArgumentParser):
    """Subcommand parsers are made of the same class (argparse's default `parser_class`)."""

    def _print_message(self, message: str, file: SupportsWrite[str] | None = None) -> None:
        super()._print_message(terminal_safe(message), file)
