"""Reading a project's files: nothing outside the project through a symbolic link, no special files.

The project is the folder a command was given (or the bundled data, read the same way). A link inside
it may point elsewhere inside it; a link that leads outside is reported at the link, by its name in the
project, and never followed, so nothing outside is read or quoted. FIFOs, sockets and devices are
reported without being opened (opening a FIFO blocks until someone writes to it), and files or folders
that cannot be read are reported too: nothing is skipped silently. Codes F001-F003 (toolkit/problems.py).
"""

from __future__ import annotations

import errno
import os
import stat
from functools import lru_cache
from pathlib import Path

from toolkit.errors import DuelkitError
from toolkit.problems import Problem, Severity

YAML_SUFFIXES = (".yaml", ".yml")

_READ_HINT = "check that it exists and that you may read it, or move it out of the project"


class FileProblem(DuelkitError):
    """A file or folder duelkit will not or cannot read; `where` is the path to report (a link, if one
    leads outside)."""

    def __init__(self, code: str, where: Path, message: str, hint: str = "") -> None:
        super().__init__(message)
        self.code, self.where, self.message, self.hint = code, where, message, hint

    def problem(self, display: str | None = None) -> Problem:
        return Problem(self.code, Severity.ERROR, display or display_path(self.where), 0, 0, self.message,
                       self.hint)


def display_path(path: Path) -> str:
    """Paths relative to the working directory when possible, so editors can open them. The last part
    is kept as written: a link is shown by its own name, never by where it points."""
    shown = _shown_folder(str(path.parent), os.getcwd())
    return str(path) if shown is None else os.path.join(shown, path.name) if shown else path.name


@lru_cache(maxsize=1024)
def _shown_folder(folder: str, cwd: str) -> str | None:
    """A folder as `display_path` shows it ('' for the working directory; None: shown as given). A project's
    files share a few folders, and resolving each file's folder again was a tenth of `validate`; what it
    shows is only a name to print, so a folder turned into a link during a watch is shown as it was."""
    try:
        relative = Path(os.path.realpath(folder)).relative_to(Path(cwd).resolve())
    except ValueError:
        return None
    return "" if str(relative) == "." else str(relative)


def _within(path: Path, home: str) -> bool:
    real = os.path.realpath(path)
    return real == home or real.startswith(home.rstrip(os.sep) + os.sep)


def outside_link(path: Path, root: Path) -> Path | None:
    """The first part of `path` (under `root`) through which it leads outside `root`; None if it stays in."""
    home = os.path.realpath(root)
    if _within(path, home):
        return None
    try:
        parts = path.relative_to(root).parts
    except ValueError:
        return path
    current = root
    for part in parts:
        current = current / part
        if not _within(current, home):
            return current
    return path


def _outside(link: Path) -> FileProblem:
    return FileProblem("F001", link, "symbolic link that leads outside the project: duelkit does not read "
                       "through it", "copy the file or folder into the project instead of linking to it")


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a named pipe (FIFO)"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    return "a special file"


def _not_regular(path: Path, mode: int) -> FileProblem:
    return FileProblem("F002", path, f"{_kind(mode)}, not a regular file: not read",
                       "replace it with a plain text file, or move it out of the project")


def project_file(root: Path, relative: str) -> Path:
    """The file a project names by a path relative to itself (`board: boards/mine.yaml`, a unit's `art:`).
    An absolute path, or one that climbs out with `..`, is refused (F004) before anything is touched; a
    missing file is F003. Links inside the project are followed later by `read_file`, which refuses any
    that lead outside. Raises FileProblem."""
    written = Path(relative)
    if written.is_absolute() or ".." in written.parts or not relative.strip():
        raise FileProblem("F004", root / relative, f"'{relative}' is not a path inside the project",
                          "write the path relative to the folder holding duelkit.yaml, without '..'")
    path = root / written
    if not os.path.lexists(path):
        raise FileProblem("F003", path, f"'{relative}' does not exist in the project",
                          "check the spelling; the path is relative to the folder holding duelkit.yaml")
    return path


def read_file(path: Path, limit: int, root: Path | None = None) -> tuple[bytes, int]:
    """The size of a regular file and its bytes (none when it is over `limit`). With `root`, a file
    reached through a link that leaves `root` is refused. Raises FileProblem."""
    if root is not None and (link := outside_link(path, root)) is not None:
        raise _outside(link)
    try:
        info = os.stat(path)
        if not stat.S_ISREG(info.st_mode):
            raise _not_regular(path, info.st_mode)  # checked before opening: a FIFO would block
        if info.st_size > limit:
            return b"", info.st_size
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
        try:
            opened = os.fstat(fd)
            if not stat.S_ISREG(opened.st_mode):  # replaced between the check and the open
                raise _not_regular(path, opened.st_mode)
            # asked for what stat said, plus one byte to see growth: reading limit + 1 would allocate the
            # whole limit (2 MB) for every small file first
            wanted = min(limit + 1, info.st_size + 1)
            data = _read_up_to(fd, wanted)
            if len(data) == wanted < limit + 1:  # it grew since: read on, up to the limit, as before
                data += _read_up_to(fd, limit + 1 - wanted)
        finally:
            os.close(fd)
    except OSError as exc:
        raise FileProblem("F003", path, f"cannot read: {exc.strerror or exc}", _READ_HINT) from None
    return data, max(len(data), info.st_size)


def _read_up_to(fd: int, size: int) -> bytes:
    """`size` bytes of the open file, fewer at its end. Plain reads on the descriptor: a buffered file
    object for each of a project's files was a tenth of reading them (the file object's read loops alike)."""
    parts = []
    while size > 0:
        part = os.read(fd, size)
        if not part:
            break
        parts.append(part)
        size -= len(part)
    return parts[0] if len(parts) == 1 else b"".join(parts)


def scan_yaml(folder: Path, root: Path, *, skip_dir: str | None = None) -> tuple[list[Path], list[Problem]]:
    """YAML files under `folder` in sorted order (reproducible output depends on it), and a problem for
    each one that cannot be read: a link leading outside `root`, a special file, a folder that cannot be
    listed. Links inside `root` are followed, each folder once. Folders named `skip_dir` are left out."""
    if not os.path.lexists(folder):
        return [], []
    if (link := outside_link(folder, root)) is not None:
        return [], [_outside(link).problem()]
    try:
        mode = os.stat(folder).st_mode
    except OSError as exc:
        return [], [FileProblem("F003", folder, f"cannot read: {exc.strerror or exc}", _READ_HINT).problem()]
    if not stat.S_ISDIR(mode):
        return [], [FileProblem("F002", folder, f"{_kind(mode)} where a folder belongs: not read",
                                "make it a folder of YAML files").problem()]
    scan = _Scan(os.path.realpath(root), skip_dir)
    scan.walk(folder)
    return sorted(scan.files, key=lambda p: p.relative_to(folder).as_posix()), scan.problems


class _Scan:
    def __init__(self, home: str, skip_dir: str | None) -> None:
        self.home, self.skip_dir = home, skip_dir
        self.files: list[Path] = []
        self.problems: list[Problem] = []
        self.seen: set[str] = set()

    def report(self, code: str, path: Path, message: str, hint: str) -> None:
        self.problems.append(FileProblem(code, path, message, hint).problem())

    def walk(self, folder: Path) -> None:
        real = os.path.realpath(folder)
        if real in self.seen:  # a link back into a folder already read (or a loop)
            return
        self.seen.add(real)
        try:
            names = sorted(os.listdir(folder))
        except OSError as exc:
            self.report("F003", folder, f"cannot list this folder: {exc.strerror or exc}", _READ_HINT)
            return
        for name in names:
            self.entry(folder / name)

    def entry(self, path: Path) -> None:
        is_yaml = path.suffix.lower() in YAML_SUFFIXES
        if os.path.islink(path) and not _within(path, self.home):
            if is_yaml or os.path.isdir(path):  # what duelkit would have read through the link
                self.problems.append(_outside(path).problem())
            return
        try:
            mode = os.stat(path).st_mode
        except OSError as exc:  # a broken link, a link loop, no permission
            if is_yaml:
                broken = exc.errno == errno.ENOENT and os.path.islink(path)
                reason = "symbolic link to a file that does not exist" if broken else exc.strerror or exc
                self.report("F003", path, f"cannot read: {reason}", _READ_HINT)
            return
        if stat.S_ISDIR(mode):
            if path.name != self.skip_dir:
                self.walk(path)
        elif is_yaml:
            if stat.S_ISREG(mode):
                self.files.append(path)
            else:
                self.problems.append(_not_regular(path, mode).problem())
