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
import re
import stat
import zipfile
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from toolkit.errors import DuelkitError, UsageError

XLSX_SUFFIXES = (".xlsx", ".xlsm")
OTHER_SHEET_SUFFIXES = (".xls", ".ods", ".numbers")  # not read: no kept library makes them cheap
MAX_XLSX_UNPACKED = 256 * 2**20  # bytes a workbook may unpack to (100,000 rows as duelkit writes them: ~50 MB)
MAX_XLSX_COLUMNS = 2048  # a row per unit with 96 segments of 5 columns needs under 500

MAX_ROWS = 100_000  # rows of one table (sheet or CSV file): 20,000 units of 5 segments
MAX_FILE_BYTES = 64 * 2**20  # a sheet file read whole (100,000 CSV rows as duelkit writes them: ~20 MB)
TABLE_NAMES = ("units", "squads", "modules", "project")  # a workbook's sheets, or an export folder's CSVs
_ROW_TAG = re.compile(rb"<(?:\w+:)?row[\s>/]")
_FORMULA_TAG = re.compile(rb"<(?:\w+:)?f[\s>/]")


@dataclass
class Table:
    """One sheet of a workbook, or one CSV file: its name, its non-blank rows, and how messages name it."""

    name: str
    records: list[tuple[int, list[str]]]
    source: str


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
    if os.fstat(fd).st_size > MAX_FILE_BYTES:
        os.close(fd)
        raise DuelkitError(f"'{path}' is larger than {MAX_FILE_BYTES // 2**20} MB, the most duelkit reads as one sheet "
                           f"(at most {MAX_ROWS:,} rows a table); split it; nothing was imported")
    with os.fdopen(fd, "rb") as handle:
        try:
            return handle.read(MAX_FILE_BYTES + 1)
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
    """(row number, cells as text) for each non-blank row of the workbook's first worksheet."""
    yield from xlsx_tables(raw, path, first_only=True)[0].records


def xlsx_tables(raw: bytes, path: Path, first_only: bool = False) -> list[Table]:
    """Each worksheet (or only the first) as a table of (row number, cells as text) for its non-blank rows
    (openpyxl). Formulas are read as the values the spreadsheet last computed, never evaluated; a formula
    with no computed value (a workbook written by a program, never opened in a spreadsheet) is read as its
    formula text, so it is reported at its cell instead of read as an empty cell.

    A workbook is a zip of XML, so a few kilobytes can claim gigabytes: its unpacked size and its number of
    rows are checked first, the sheet's own `dimension` claim is ignored (rows are as long as their last
    cell), blank rows are dropped as they are read, and a row reaching past column MAX_XLSX_COLUMNS or a
    sheet of more than MAX_ROWS rows is refused."""
    from openpyxl import load_workbook

    has_formulas = _check_unpacked_size(raw, path)
    tables: list[Table] = []
    try:
        values = load_workbook(io.BytesIO(raw), read_only=True, data_only=True)
        formulas = load_workbook(io.BytesIO(raw), read_only=True, data_only=False) if has_formulas else None
        if not values.worksheets:
            raise DuelkitError(f"'{path}' has no worksheet; save it again from the spreadsheet, or as CSV UTF-8")
        formula_sheets = formulas.worksheets if formulas is not None else [None] * len(values.worksheets)
        pairs_of_sheets = list(zip(values.worksheets, formula_sheets, strict=False))
        for value_sheet, formula_sheet in pairs_of_sheets[:1] if first_only else pairs_of_sheets:
            tables.append(Table(str(value_sheet.title), _worksheet_rows(value_sheet, formula_sheet, path),
                                f"{path.name} [{value_sheet.title}]"))
        values.close()
        if formulas is not None:
            formulas.close()
    except DuelkitError:
        raise
    except Exception as exc:  # any failure of the third-party reader on this file: the file is unreadable
        raise DuelkitError(f"'{path}' is not a readable Excel workbook (.xlsx): {str(exc)[:200]}; "
                           "save it again from the spreadsheet, or as CSV UTF-8") from None
    return tables


def _worksheet_rows(value_sheet: Any, formula_sheet: Any, path: Path) -> list[tuple[int, list[str]]]:
    rows: list[tuple[int, list[str]]] = []
    sheets = [sheet for sheet in (value_sheet, formula_sheet) if sheet is not None]
    for sheet in sheets:
        sheet.reset_dimensions()  # the file's claim, which openpyxl would pad every row to
    pairs = itertools.zip_longest(value_sheet.iter_rows(values_only=True),
                                  formula_sheet.iter_rows(values_only=True) if formula_sheet is not None else (),
                                  fillvalue=())
    for number, (value_row, formula_row) in enumerate(pairs, start=1):
        if number > MAX_ROWS:
            raise _too_many_rows(path, value_sheet.title)
        if max(len(value_row), len(formula_row)) > MAX_XLSX_COLUMNS:
            raise DuelkitError(f"{path}:{number}: the row reaches past column {MAX_XLSX_COLUMNS}; a unit "
                               "sheet is far narrower (delete the cells far to the right, or save as CSV UTF-8)")
        cells = [cell_text(value if value is not None else formula)
                 for value, formula in itertools.zip_longest(value_row, formula_row)]
        if any(cell.strip() for cell in cells):
            rows.append((number, cells))
    return rows


def _too_many_rows(path: Path, table: str = "") -> DuelkitError:
    where = f"the sheet '{table[:40]}' of '{path}'" if table else f"'{path}'"
    return DuelkitError(f"{where} has more than {MAX_ROWS:,} rows, the most duelkit reads from one table; "
                        "split it into several sheets or projects; nothing was imported")


def _scan_sheets(archive: zipfile.ZipFile, path: Path) -> bool:
    """Refuse a worksheet of more than MAX_ROWS rows before openpyxl parses it: its XML is streamed and its
    row elements counted (about 0.5 s for a million rows) in a few megabytes of memory. Returns whether any
    worksheet holds a formula (only then is the workbook read a second time for formula texts)."""
    formulas = False
    for info in archive.infolist():
        if not info.filename.startswith("xl/worksheets/") or not info.filename.endswith(".xml"):
            continue
        count, tail = 0, b""
        with archive.open(info) as stream:
            while chunk := stream.read(1 << 20):
                block = tail + chunk
                count += len(_ROW_TAG.findall(block)) - len(_ROW_TAG.findall(tail))  # the tail was counted
                formulas = formulas or _FORMULA_TAG.search(block) is not None
                tail = block[-16:]
                if count > MAX_ROWS:
                    raise _too_many_rows(path, info.filename.rsplit("/", 1)[-1].removesuffix(".xml"))
    return formulas


def _check_unpacked_size(raw: bytes, path: Path) -> bool:
    """Refuse a workbook whose parts unpack to more than MAX_XLSX_UNPACKED bytes (a zip bomb) before any
    is read. The sizes are the zip's own, and Python's zipfile never inflates a part past its stated size."""
    try:
        with zipfile.ZipFile(io.BytesIO(raw)) as archive:
            unpacked = sum(info.file_size for info in archive.infolist())
            if unpacked > MAX_XLSX_UNPACKED:
                raise DuelkitError(f"'{path}' unpacks to {unpacked // 2**20} MB, more than the "
                                   f"{MAX_XLSX_UNPACKED // 2**20} MB duelkit reads from a workbook; save the sheet as "
                                   "CSV UTF-8 and import that")
            return _scan_sheets(archive, path)
    except (zipfile.BadZipFile, OSError, ValueError, EOFError, zlib.error) as exc:
        raise DuelkitError(f"'{path}' is not a readable Excel workbook (.xlsx): {str(exc)[:200]}; "
                           "save it again from the spreadsheet, or as CSV UTF-8") from None


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
        for count, fields in enumerate(reader, start=1):
            if count > MAX_ROWS:
                raise _too_many_rows(path)
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


def read_tables(path: Path) -> list[Table]:
    """The tables of a sheet: every worksheet of a workbook, one CSV file, or the CSV files of a folder
    that `duelkit export csv` wrote (units.csv, squads.csv, modules.csv, project.csv)."""
    if path.suffix.casefold() in OTHER_SHEET_SUFFIXES:
        raise UsageError(f"'{path}': duelkit reads .csv and .xlsx sheets; save it as one of those "
                         "(File > Save As / Download) and import that")
    if path.is_dir() and not path.is_symlink():
        found = [path / f"{name}.csv" for name in TABLE_NAMES if (path / f"{name}.csv").is_file()]
        if not found:
            raise UsageError(f"'{path}' is a folder without {', '.join(n + '.csv' for n in TABLE_NAMES)}; give "
                             "the sheet file (.csv or .xlsx), or the folder `duelkit export csv` wrote")
        return [csv_table(csv_path) for csv_path in found]
    if path.suffix.casefold() in XLSX_SUFFIXES:
        return xlsx_tables(read_bytes(path), path)
    return [csv_table(path)]


def csv_table(path: Path) -> Table:
    return Table(path.stem, list(csv_records(decode(read_bytes(path), path), path)), path.name)
