"""Problems found in user data: one record type shared by the loader, the validators and the CLI.

Validation never stops at the first problem, so every check appends `Problem`s to a list instead of
raising. Library code raises only `DuelkitError` subclasses, for failures that stop a whole command.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

from toolkit.errors import DuelkitError as DuelkitError  # re-exported: the root lives in toolkit/errors.py
from toolkit.errors import UsageError as UsageError


class Severity(str, Enum):
    ERROR = "error"
    WARNING = "warning"


# Every code duelkit can report, with a one-line title. Tests hold one bad file per code.
CODES: dict[str, str] = {
    # reading and parsing YAML
    "Y001": "file cannot be read as UTF-8 text",
    "Y002": "YAML syntax error",
    "Y003": "duplicate key",
    "Y004": "tab character used for indentation",
    "Y005": "empty file",
    "Y006": "alias expansion too large or recursive",
    "Y007": "nesting too deep",
    "Y008": "file too large",
    "Y009": "unsupported YAML tag",
    "Y010": "mapping key is not a plain scalar",
    "Y011": "invisible or bidirectional control character in text",
    "Y012": "control character (NUL, tab, ESC, line break ...) in text",
    # schema
    "S001": "unknown key",
    "S002": "missing required key",
    "S003": "wrong type",
    "S004": "value not allowed",
    "S005": "wrong document shape",
    # Data Disk arithmetic
    "D001": "Data Disk sizes do not sum to 96",
    "D002": "field not allowed for this segment colour",
    "D003": "field required for this segment colour",
    "D004": "Purple segment with 4 stars",
    "D005": "inflicts on a segment that is not Purple",
    # cross-file rules
    "X001": "duplicate id",
    "X002": "unknown upgrade target",
    "X003": "upgrade chain has a cycle",
    "X004": "squad names an unknown unit",
    "X005": "squad names an unknown module",
    "X006": "squad has the wrong number of units",
    "X007": "unknown status effect",
    "X008": "squad repeats a unit or module",
    "X009": "squad has too many modules",
    "X010": "effect text names a status the move does not inflict",
    "X011": "effect text uses another theme's word",
    # files and folders (toolkit/safe_fs.py)
    "F001": "symbolic link that leads outside the project",
    "F002": "special file (FIFO, socket, device) or a file where a folder belongs",
    "F003": "file or folder that cannot be read",
    "F004": "path that is not inside the project",
    "A001": "picture that is not a readable PNG, JPEG or SVG",
    # glyphs and fonts (toolkit/kit/glyphs.py)
    "G001": "character no font can draw (warning)",
    "G002": "fallback font that cannot be used",
    "G003": "Arabic text printed unshaped (warning)",
    # projects and boards
    "P001": "not a duelkit data folder",
    "P002": "unknown theme",
    "B001": "board check failed",
    # rendering
    "R001": "text does not fit its box",
    # the figure engine
    "N001": "effect text the engine does not simulate (warning)",
    # sword-duel data
    "T001": "draft does not have exactly 10 technique cards",
    "T002": "draft names an unknown technique",
    "T003": "draft repeats a technique",
    "T004": "character build breaks the attribute rules",
    # sword-duel design linter (warnings)
    "L001": "rule that changes nothing or contradicts the core rules",
    "L002": "cost or condition that can never be met",
    "L003": "value the printed components cannot show",
    "L004": "technique that cannot evade but has an evade cost",
    "L005": "the spec's draft size and the technique count differ",
}


@dataclass(frozen=True)
class Problem:
    """One located finding. Lines and columns are 1-based; 0 means 'the whole file'."""

    code: str
    severity: Severity
    file: str
    line: int
    column: int
    message: str
    hint: str = ""
    expected: str = ""
    found: str = ""
    source_line: str = field(default="", compare=False)

    @property
    def is_error(self) -> bool:
        return self.severity is Severity.ERROR

    def with_message(self, message: str) -> Problem:
        """This problem saying `message` instead: made directly, as dataclasses.replace reads the fields
        anew for each copy (an imported project names a sheet cell in each of its ~2,000 problems)."""
        return Problem(self.code, self.severity, self.file, self.line, self.column, message, self.hint,
                       self.expected, self.found, self.source_line)

    def sort_key(self) -> tuple[str, int, int, str, str]:
        return (self.file, self.line, self.column, self.code, self.message)

    def as_json(self) -> dict[str, object]:
        """The stable JSON contract: exactly these six keys."""
        message = self.message
        if self.hint:
            message = f"{message} (hint: {self.hint})"
        return {
            "code": self.code,
            "severity": self.severity.value,
            "file": self.file,
            "line": self.line,
            "column": self.column,
            "message": message,
        }


def sorted_problems(problems: list[Problem]) -> list[Problem]:
    return sorted(problems, key=Problem.sort_key)
