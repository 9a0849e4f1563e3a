"""CSV injection: every CSV duelkit writes goes through one neutraliser (issue 12, item 12)."""

from __future__ import annotations

import csv
import io

import pytest

from toolkit.csvsafe import csv_text, spreadsheet_cell


@pytest.mark.parametrize(("cell", "written"), [
    ("=HYPERLINK(\"http://x\")", "'=HYPERLINK(\"http://x\")"), ("+cmd|' /C calc'!A0", "'+cmd|' /C calc'!A0"),
    ("-2+3", "'-2+3"), ("@SUM(A1)", "'@SUM(A1)"), ("\t=1", "'\t=1"), (" =1", "' =1"),
    ("-0.250000", "-0.250000"), ("+1e5", "+1e5"), ("Volt-Class", "Volt-Class"), (-0.25, -0.25), (3, 3),
])
def test_spreadsheet_cells_are_neutralised_but_numbers_kept(cell: object, written: object) -> None:
    assert spreadsheet_cell(cell) == written
    assert next(csv.reader(io.StringIO(csv_text([[cell]])))) == [str(written)]
