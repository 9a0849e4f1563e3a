"""Reading sheet files: CSV (strict, UTF-8) and .xlsx workbooks (openpyxl), as (line, cells) records.

Every reader is bounded before it trusts the file: a workbook's unpacked size and width, and the number
of rows of any table (MAX_ROWS), so a hostile or mistaken file is refused with a message naming the limit
instead of filling memory.
"""

from __future__ import annotations

import csv
import io
import itertools
import os
import stat
from collections.abc import Iterator
from pathlib import Path

from toolkit.problems import DuelkitError, UsageError

XLSX_SUFFIXES = (".xlsx", ".xlsm")
OTHER_SHEET_SUFFIXES = (".xls", ".ods", ".numbers")  # not read: no kept library makes them cheap
MAX_XLSX_UNPACKED = 256 * 2**20  # bytes a workbook may unpack to (100,000 rows as duelkit writes them: ~50 MB)
MAX_XLSX_COLUMNS = 2048  # a row per unit with 96 segments of 5 columns needs under 500

Records = Iterator[tuple[int, list[str]]]


def read_bytes(path: Path) -> bytes:
    """The whole file. It is opened without blocking and checked before reading, so a folder, FIFO or device
    given as the sheet gets its own message instead of a hang or an error from deep inside."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except FileNotFoundError:
        raise UsageError(f"cannot read '{path}': the CSV file does not exist") from None
    except IsADirectoryError:
        raise UsageError(f"'{path}' is a folder, not a CSV file; give the path of the .csv file") from None
    except OSError as exc:
        raise DuelkitError(f"cannot read '{path}': {exc.strerror or exc}") from None
    mode = os.fstat(fd).st_mode
    if not stat.S_ISREG(mode):
        os.close(fd)
        if stat.S_ISDIR(mode):
            raise UsageError(f"'{path}' is a folder, not a CSV file; give the path of the .csv file")
        raise UsageError(f"'{path}' is not a regular file (a FIFO, socket or device); "
                         "save the spreadsheet as a .csv file and import that")
    with os.fdopen(fd, "rb") as handle:
        try:
            return handle.read()
        except OSError as exc:
            raise DuelkitError(f"cannot read '{path}': {exc.strerror or exc}") from None


def decode(raw: bytes, path: Path) -> str:
    """UTF-8 text; a wrong encoding stops the import with the line it happened on."""
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise DuelkitError(
            f"'{path}' is not UTF-8 text: byte 0x{raw[exc.start]:02x} on line {line}; "
            "save the file as UTF-8 (CSV UTF-8 in spreadsheet programs) and import again") from None


def xlsx_records(raw: bytes, path: Path) -> Iterator[tuple[int, list[str]]]:
    """(row number, cells as text) for each non-blank row of the workbook's first worksheet (openpyxl).
    Formulas are read as the values the spreadsheet last computed, never evaluated; a formula with no
    computed value (a workbook written by a program, never opened in a spreadsheet) is read as its
    formula text, so it is reported at its cell instead of read as an empty cell.

    A workbook is a zip of XML, so a few kilobytes can claim gigabytes: its unpacked size is checked
    first, the sheet's own `dimension` claim is ignored (rows are as long as their last cell), blank
    rows are dropped as they are read, and a row reaching past column MAX_XLSX_COLUMNS is refused."""
    from openpyxl import load_workbook

    _check_unpacked_size(raw, path)
    rows: list[tuple[int, list[str]]] = []
    try:
        values = load_workbook(io.BytesIO(raw), read_only=True, data_only=True)
        formulas = load_workbook(io.BytesIO(raw), read_only=True, data_only=False)
        if not values.worksheets:
            raise DuelkitError(f"'{path}' has no worksheet; save it again from the spreadsheet, or as CSV UTF-8")
        sheets = (values.worksheets[0], formulas.worksheets[0])
        for sheet in sheets:
            sheet.reset_dimensions()  # the file's claim, which openpyxl would pad every row to
        pairs = itertools.zip_longest(*(sheet.iter_rows(values_only=True) for sheet in sheets), fillvalue=())
        for number, (value_row, formula_row) in enumerate(pairs, start=1):
            if max(len(value_row), len(formula_row)) > MAX_XLSX_COLUMNS:
                raise DuelkitError(f"{path}:{number}: the row reaches past column {MAX_XLSX_COLUMNS}; a unit "
                                   "sheet is far narrower (delete the cells far to the right, or save as CSV UTF-8)")
            cells = [cell_text(value if value is not None else formula)
                     for value, formula in itertools.zip_longest(value_row, formula_row)]
            if any(cell.strip() for cell in cells):
                rows.append((number, cells))
        values.close()
        formulas.close()
    except DuelkitError:
        raise
    except Exception as exc:  # any failure of the third-party reader on this file: the file is unreadable
        raise DuelkitError(f"'{path}' is not a readable Excel workbook (.xlsx): {str(exc)[:200]}; "
                           "save it again from the spreadsheet, or as CSV UTF-8") from None
    yield from rows


def _check_unpacked_size(raw: bytes, path: Path) -> None:
    """Refuse a workbook whose parts unpack to more than MAX_XLSX_UNPACKED bytes (a zip bomb) before any
    is read. The sizes are the zip's own, and Python's zipfile never inflates a part past its stated size."""
    import zipfile

    try:
        with zipfile.ZipFile(io.BytesIO(raw)) as archive:
            unpacked = sum(info.file_size for info in archive.infolist())
    except (zipfile.BadZipFile, OSError, ValueError) as exc:
        raise DuelkitError(f"'{path}' is not a readable Excel workbook (.xlsx): {str(exc)[:200]}; "
                           "save it again from the spreadsheet, or as CSV UTF-8") from None
    if unpacked > MAX_XLSX_UNPACKED:
        raise DuelkitError(f"'{path}' unpacks to {unpacked // 2**20} MB, more than the {MAX_XLSX_UNPACKED // 2**20} MB "
                           "duelkit reads from a workbook; save the sheet as CSV UTF-8 and import that")


def cell_text(value: object) -> str:
    """A workbook cell as the text a CSV export would hold: 40.0 -> '40', empty -> ''."""
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def csv_records(text: str, path: Path) -> Iterator[tuple[int, list[str]]]:
    """(first line, fields) for each non-blank CSV record; quoted cells may span several lines.

    Parsing is strict: a stray quote is an error at its line, and a quote still open at the end of the
    file is reported at the line that opened it, never read as one cell holding the rest of the file."""
    reader = csv.reader(io.StringIO(text, newline=""), strict=True)
    end = 0
    try:
        for fields in reader:
            start, end = end + 1, reader.line_num
            if any(cell.strip() for cell in fields):
                yield start, fields
    except csv.Error as exc:
        if "end of data" in str(exc):
            raise DuelkitError(
                f"{path}:{end + 1}: a quoted cell starting on this line is never closed (the file ends inside "
                "it); add the closing quote (\") or remove the opening one; nothing was imported") from None
        raise DuelkitError(f"{path}:{reader.line_num}: not valid CSV: {exc} (a quote inside a quoted cell "
                           "is written twice: \"\"); nothing was imported") from None
