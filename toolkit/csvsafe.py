"""CSV files that a spreadsheet opens as data, never as formulas (CSV injection).

A unit named `=HYPERLINK(...)` or `@SUM(...)` would run as a formula when balance.csv is opened in a
spreadsheet. As OWASP recommends, a text cell that starts with `=`, `+`, `-`, `@`, tab or carriage
return gets a leading single quote, which spreadsheets read as "this is text". Numbers (`-0.25`) are
left as they are.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterable, Sequence

FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
_NUMBER = re.compile(r"^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$")


def spreadsheet_cell(value: object) -> object:
    """`value`, with a leading `'` if it is text a spreadsheet would take for a formula."""
    if isinstance(value, str) and value.lstrip(" ").startswith(FORMULA_START) and not _NUMBER.match(value):
        return "'" + value
    return value


def csv_text(rows: Iterable[Sequence[object]]) -> str:
    """Rows as CSV text (\\n line ends), every cell passed through `spreadsheet_cell`."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerows([spreadsheet_cell(cell) for cell in row] for row in rows)
    return out.getvalue()
