"""Writing a kit to disk: rendered in memory, written to a staging folder, then swapped in.

The swap is a sequence of steps, each safe to be killed after: stage (write and fsync every file and
the folder), exchange the new kit with the old one in one step (Linux `renameat2(RENAME_EXCHANGE)`, so the
visible path always holds a kit), discard the old one. Where the OS or its file system has no atomic
exchange (macOS, Windows, some network file systems), the old kit is set aside (rename) and the new one
moved in (rename): a kill between those two renames leaves no kit at the visible path until the next
command that writes to the same output folder, which restores an old kit left aside with no kit in its
place. That command also removes the leftovers duelkit marked. One command at a time writes to an
output folder: it holds an exclusive lock (filelock: flock on Unix, msvcrt on Windows) on `.duelkit-lock`
there, and a second one is refused.

Every file duelkit writes goes through here: `write_file` (a new file, never through a link, flushed with
fsync), `replace_file` (one file replaced whole: staged beside it, renamed over it, its folder fsync'd) and
the kit folders' swap built on them.

A build never deletes what it did not make. Every folder duelkit writes carries a mark file
(`.duelkit-output`: a format line, then the names of the files duelkit wrote there); an existing
folder is replaced only when it carries the mark and holds nothing else, or is empty. Anything else,
and any symbolic link where a kit folder belongs, is refused with a message. File names come from
slugs checked here, so nothing can leave the output folder.
"""

from __future__ import annotations

import ctypes
import errno
import os
import re
import secrets
import stat
import sys
import tempfile
from collections.abc import Collection, Mapping, Sequence
from functools import cache
from pathlib import Path
from typing import Any

from filelock import FileLock, Timeout

from toolkit.errors import DuelkitError

_SAFE_NAME = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
_SAFE_FILE = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*\.[a-z]+$")
_LEFTOVER = re.compile(r"^\.([a-z0-9]+(?:-[a-z0-9]+)*)\.duelkit-(new|old)-[a-z0-9_]+$")
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
LOCK_FILE = ".duelkit-lock"
MARK_FILE = ".duelkit-output"
CACHE_FOLDER = ".cache"  # pages drawn, by content hash (`toolkit.render.page_cache`): safe to delete
MARK_FORMAT = "duelkit output folder, format 1"
_MARK_NOTE = "# written by duelkit; it replaces this folder only while it holds just the files below"
_MARK_LIMIT = 1024 * 1024


class OutputRefused(DuelkitError):
    """The output location holds something duelkit did not make: nothing was written or deleted."""


class OutputBusy(DuelkitError):
    """Another duelkit command is writing to the same output folder."""


def safe_name(slug: str) -> str:
    if not _SAFE_NAME.match(slug):
        raise DuelkitError(f"refusing to write a file named '{slug}': names must be lowercase slugs")
    return slug


def mark_text(names: Sequence[str]) -> str:
    """The mark file: the format line, a note for people, then every file duelkit wrote beside it."""
    return "\n".join([MARK_FORMAT, _MARK_NOTE, *sorted(names)]) + "\n"


def written_by_duelkit(folder: Path) -> set[str] | None:
    """The file names the mark of `folder` lists, or None when it carries no readable mark."""
    mark = folder / MARK_FILE
    try:
        info = os.lstat(mark)
        if not stat.S_ISREG(info.st_mode) or info.st_size > _MARK_LIMIT:
            return None
        lines = mark.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return None
    if not lines or lines[0] != MARK_FORMAT:
        return None
    return {line for line in lines[1:] if line and not line.startswith("#")}


def foreign_entries(folder: Path) -> list[str] | None:
    """What in `folder` duelkit did not write: None when it carries no mark (and is not empty)."""
    entries = sorted(os.listdir(folder))
    if not entries:
        return []
    listed = written_by_duelkit(folder)
    if listed is None:
        return None
    foreign = []
    for name in entries:
        if name == MARK_FILE:
            continue
        if name not in listed or not stat.S_ISREG(os.lstat(folder / name).st_mode):
            foreign.append(name)
    return foreign


def check_replaceable(target: Path) -> None:
    """Refuse, before anything is written, to replace what duelkit did not make."""
    try:
        info = os.lstat(target)
    except FileNotFoundError:
        return
    if stat.S_ISLNK(info.st_mode):
        raise OutputRefused(f"'{target}' is a symbolic link; duelkit writes a kit only into a real folder "
                            "it made. Remove the link or choose another --out")
    if not stat.S_ISDIR(info.st_mode):
        raise OutputRefused(f"'{target}' exists and is not a folder; choose another --out")
    foreign = foreign_entries(target)
    if foreign is None:
        raise OutputRefused(
            f"'{target}' already exists and duelkit did not write it (it has no {MARK_FILE} file), so it "
            "will not be replaced. Choose another --out, or move that folder away")
    if foreign:
        shown = ", ".join(foreign[:5]) + (f" and {len(foreign) - 5} more" if len(foreign) > 5 else "")
        raise OutputRefused(f"'{target}' holds files duelkit did not write ({shown}); move them out of "
                            "the folder, then run duelkit again")


def check_inside(folder: Path, project: Path) -> None:
    """A default output folder must stay inside the project: a shipped link (`output -> ..`) is refused."""
    real, home = Path(os.path.realpath(folder)), Path(os.path.realpath(project))
    if real != home and home not in real.parents:
        raise OutputRefused(f"'{folder}' leads outside '{project}' through a symbolic link; duelkit does "
                            "not write there. Remove the link or choose a folder with --out")


def _missing_folders(path: Path) -> list[Path]:
    """`path` and those of its parents that do not exist yet, deepest first: what `mkdir -p` would create."""
    missing = []
    while not path.exists() and not path.is_symlink() and path != path.parent:
        missing.append(path)
        path = path.parent
    return missing


class OutputFolder:
    """The chosen output folder, locked while one command writes kit folders into it.

    `project`: where a default output folder must stay (None when the user chose it with --out).
    `names`: the kit folders the command will write, checked before anything (even the lock file) is
    written, so a refused command leaves the folder exactly as it was.
    """

    def __init__(self, root: Path, project: Path | None = None, names: Sequence[str] = ()) -> None:
        self.root = root
        self.project = project
        self.names = tuple(names)
        self._lock: FileLock | None = None
        self._made: list[Path] = []  # the folders this command created, deepest first

    def __enter__(self) -> OutputFolder:
        if self.project is not None:
            check_inside(self.root, self.project)
        try:
            for name in self.names:
                check_replaceable(self.root / safe_name(name))
            self._made = _missing_folders(self.root)
            self.root.mkdir(parents=True, exist_ok=True)
            self._lock = _take_lock(self.root)
            recover(self.root)
        except OSError as exc:
            self.__exit__()
            self._remove_made()
            raise DuelkitError(f"cannot write {self.root}: {exc.strerror or exc}") from None
        except BaseException:
            self.__exit__()
            self._remove_made()
            raise
        return self

    def __exit__(self, *exc_info: object) -> None:
        if self._lock is not None:
            self._lock.release()
            self._lock = None
        if exc_info and exc_info[0] is not None:
            self._remove_made()

    def _remove_made(self) -> None:
        """A command that failed before writing anything leaves no trace: the folders it created go again
        (with the lock file, the only thing in them), so a refused build does not leave an empty output/."""
        if not self._made:
            return
        try:
            if {entry.name for entry in self.root.iterdir()} - {LOCK_FILE}:
                return  # something was written after all: keep it
            (self.root / LOCK_FILE).unlink(missing_ok=True)
            for folder in self._made:
                folder.rmdir()
        except OSError:
            pass  # best effort: the folders are empty or hold only the lock

    def cache_folder(self, name: str) -> Path | None:
        """`.cache/<name>` under the output folder, for the pages drawn (`PageCache`), made when missing;
        None when it cannot be (a link or a file in its place: the cache is only ever a saving)."""
        self._check_inside()
        folder = self.root
        for part in (CACHE_FOLDER, safe_name(name)):
            folder = folder / part
            try:
                folder.mkdir(exist_ok=True)
                if not stat.S_ISDIR(os.lstat(folder).st_mode):
                    return None
            except OSError:
                return None
        return folder

    def _check_inside(self) -> None:
        """A default output folder is checked at every write, not only when the command starts: `watch` runs
        for hours, and output/ swapped for a link to a folder outside must stop the next save's write."""
        if self.project is not None:
            check_inside(self.root, self.project)

    def replace(self, name: str, files: dict[str, bytes]) -> Path:
        """Swap in a folder `name` holding exactly `files` (and the mark); returns its path."""
        return self._swap(name, files, keep_old=False, drop=())[0]

    def update(self, name: str, files: dict[str, bytes], drop: Collection[str] = ()) -> tuple[Path, list[str]]:
        """Swap in a folder `name` holding `files` and every other file of the current one except `drop`:
        some files of a kit replaced, the rest kept (`build --only`, `watch`). Returns the path and the
        names kept.

        It is the same swap as `replace`, so a reader or a kill sees the old folder or the new one, never
        a mix: the kept files are hard links to the old ones in the staging folder (copies where the file
        system has none), the new files are written beside them, and the whole folder is swapped in."""
        return self._swap(name, files, keep_old=True, drop=drop)

    def _swap(self, name: str, files: dict[str, bytes], keep_old: bool,
              drop: Collection[str]) -> tuple[Path, list[str]]:
        if self._lock is None:
            raise RuntimeError("OutputFolder.replace outside its `with` block")
        safe_name(name)
        for file_name in files:
            if not _SAFE_FILE.match(file_name):
                raise DuelkitError(f"refusing to write '{file_name}' outside the output folder")
        target = self.root / name
        try:
            self._check_inside()
            check_replaceable(target)
            kept = _kept_names(target, set(files) | set(drop)) if keep_old else []
            staging = Path(tempfile.mkdtemp(prefix=f".{name}.duelkit-new-", dir=self.root))
            aside: Path | None = None
            try:
                if kept:
                    _stage(staging, files, keep=(target, kept))
                else:
                    _stage(staging, files)
                check_replaceable(target)  # again, just before the swap
                self._check_inside()
                if os.path.lexists(target) and _exchange(staging, target):
                    aside = staging  # the old kit, now under the staging folder's marked name
                else:
                    aside = _set_aside(target)
                    _move_in(staging, target)
            except BaseException:
                _roll_back(staging, aside, target)
                raise
            _discard(aside)
        except OSError as exc:
            raise DuelkitError(f"cannot write {target}: {exc.strerror or exc}") from None
        return target, kept


def probe_writable(folder: Path) -> None:
    """OSError unless a file can be made in `folder` (one is made and removed): checked before long work
    whose result is written there (`play --record`), as a read-only folder is not told by its mode."""
    handle, probe = tempfile.mkstemp(prefix=".duelkit-", suffix=".tmp", dir=folder)
    os.close(handle)
    os.unlink(probe)


def _kept_names(target: Path, replaced: set[str]) -> list[str]:
    """The files of the kit folder `target` (already checked to hold only what its mark lists) that an
    update keeps: every file but those written anew or dropped."""
    if not os.path.lexists(target):
        return []
    return sorted(name for name in os.listdir(target) if name != MARK_FILE and name not in replaced)


def replace_folder(target: Path, files: dict[str, bytes], project: Path | None = None) -> None:
    """Lock `target`'s parent and swap `files` in as `target` (one kit folder, one call)."""
    with OutputFolder(target.parent, project, [target.name]) as out:
        out.replace(target.name, files)


def _take_lock(root: Path) -> FileLock:
    """The folder's lock, taken without waiting. filelock opens the file without following a link and
    keeps it on release (waiters share one inode); a link or a special file there is refused first."""
    path = root / LOCK_FILE
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        mode = None
    if mode is not None and stat.S_ISLNK(mode):
        raise OutputRefused(f"'{path}' is a symbolic link; remove it")
    if mode is not None and not stat.S_ISREG(mode):
        raise OutputRefused(f"'{path}' is not a regular file; remove it")
    lock = FileLock(path, timeout=0, mode=0o644)
    try:
        lock.acquire()
    except Timeout:
        raise OutputBusy(f"another duelkit command is writing to '{root}' right now; run this one again "
                         "when it has finished") from None
    except OSError as exc:
        if exc.errno == errno.ELOOP:  # a link put there since the check
            raise OutputRefused(f"'{path}' is a symbolic link; remove it") from None
        raise
    return lock


def recover(root: Path) -> None:
    """Undo what an interrupted command left behind: put an old kit set aside back where its kit is
    missing, and remove the staging and set-aside folders duelkit marked (or left empty)."""
    for entry in sorted(os.listdir(root)):
        match = _LEFTOVER.match(entry)
        path = root / entry
        if not match or not stat.S_ISDIR(os.lstat(path).st_mode) or foreign_entries(path) != []:
            continue  # not ours: left alone
        target = root / match.group(1)
        if match.group(2) == "old" and not os.path.lexists(target):
            os.rename(path, target)
        else:
            _discard(path)
    _sync_folder(root)


# --- the steps of a swap; each is a function so tests can stop a build between any two --------------

def _stage(staging: Path, files: dict[str, bytes], keep: tuple[Path, Sequence[str]] | None = None) -> None:
    """A complete, flushed copy of the new kit beside the old one. The mark goes first, so an
    interrupted staging folder is always recognisably duelkit's. `keep`: (the old folder, names) of
    files to carry over unchanged (linked, not rewritten)."""
    old, kept = keep if keep is not None else (None, ())
    _write_file(staging / MARK_FILE, mark_text([*files, *kept]).encode("utf-8"))
    for file_name in kept:
        if old is not None:
            _link_or_copy(old / file_name, staging / file_name)
    for file_name, data in sorted(files.items()):
        _write_file(staging / file_name, data)
    os.chmod(staging, 0o755)
    _sync_folder(staging)


def _link_or_copy(source: Path, target: Path) -> None:
    """The old kit's file in the new kit: a hard link (same bytes, nothing written), or a flushed copy
    on a file system without hard links. Only regular files are carried over."""
    if not stat.S_ISREG(os.lstat(source).st_mode):
        raise OutputRefused(f"'{source}' is no longer a regular file; move it out of the folder and build again")
    try:
        os.link(source, target, follow_symlinks=False)
    except OSError as exc:
        if exc.errno not in (errno.EPERM, errno.EOPNOTSUPP, errno.EXDEV, errno.EMLINK, errno.ENOTSUP):
            raise
        _write_file(target, source.read_bytes())


def write_file(path: Path, data: bytes) -> None:
    """The one way duelkit writes a file: a new file (never over an existing one or through a link), its
    bytes fsync'd before it counts as written."""
    _write_file(path, data)


def replace_file(path: Path, data: bytes) -> None:
    """`path` replaced whole, or left as it was: the bytes are written and fsync'd under a hidden name in
    the same folder, renamed over `path`, and the folder fsync'd; a failure leaves no hidden copy."""
    folder = path.parent
    staged = folder / f".{path.name}.duelkit-{secrets.token_hex(6)}.tmp"
    try:
        _write_file(staged, data)
        os.replace(staged, path)
    except BaseException:
        if os.path.lexists(staged):
            os.unlink(staged)  # a full disk leaves no hidden half-written file behind
        raise
    _sync_folder(folder)


def write_cache_file(path: Path, data: bytes) -> None:
    """A file of the page cache (`output/.cache`): written under a hidden name and renamed into place, never
    through a link, and not fsync'd: a page lost in a crash is only drawn again (its reader checks that the
    file is whole)."""
    staged = path.parent / f".{path.name}.duelkit-{secrets.token_hex(6)}.tmp"
    try:
        _write_bytes(staged, data, sync=False)
        os.replace(staged, path)
    except BaseException:
        if os.path.lexists(staged):
            os.unlink(staged)
        raise


def read_cache_file(path: Path, limit: int = 64 * 1024 * 1024) -> bytes | None:
    """A page cache file's bytes, never through a link; None when it is missing or not a plain file."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC | _NOFOLLOW)
    except OSError:
        return None
    with os.fdopen(fd, "rb") as handle:
        if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
            return None
        return handle.read(limit)


def sync_folder(folder: Path) -> None:
    """fsync a folder after renaming into it (a project moved into place, say)."""
    _sync_folder(folder)


def write_new_files(root: Path, files: Mapping[str, bytes]) -> None:
    """Many new files under `root` (their sub-folders made), flushed to disk once at the end with `os.sync`
    where the system has it (an fsync per file otherwise): a spreadsheet import writes 100,000 of them, and
    an fsync each took minutes."""
    once = hasattr(os, "sync")
    for relative, data in files.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        _write_bytes(path, data, sync=not once)
    if once:
        os.sync()


def _write_file(path: Path, data: bytes) -> None:
    _write_bytes(path, data, sync=True)


def _write_bytes(path: Path, data: bytes, *, sync: bool) -> None:
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC | _NOFOLLOW, 0o644)
    with os.fdopen(fd, "wb") as handle:
        handle.write(data)
        handle.flush()
        os.fchmod(handle.fileno(), 0o644)
        if sync:
            os.fsync(handle.fileno())


def _set_aside(target: Path) -> Path | None:
    """Rename the old kit to a marked leftover name; None when there is no old kit."""
    if not os.path.lexists(target):
        return None
    aside = target.with_name(f".{target.name}.duelkit-old-{secrets.token_hex(6)}")
    os.rename(target, aside)
    return aside


_RENAME_EXCHANGE = 2  # linux/fs.h
_AT_FDCWD = -100


def _exchange(staging: Path, target: Path) -> bool:
    """Swap the new kit and the old one in one atomic step: Linux `renameat2(RENAME_EXCHANGE)` (glibc 2.28+),
    called through ctypes as Python has no binding. False where there is none (another OS, an old C library,
    a file system that refuses the flag): the caller then renames twice."""
    function = _renameat2()
    if function is None:
        return False
    if function(_AT_FDCWD, os.fsencode(staging), _AT_FDCWD, os.fsencode(target), _RENAME_EXCHANGE) != 0:
        code = ctypes.get_errno()
        if code in (errno.ENOSYS, errno.EINVAL, errno.ENOTSUP, errno.EOPNOTSUPP):
            return False
        raise OSError(code, os.strerror(code), str(target))
    _sync_folder(target.parent)
    return True


@cache
def _renameat2() -> Any:
    if not sys.platform.startswith("linux"):
        return None
    try:
        return ctypes.CDLL(None, use_errno=True).renameat2
    except (AttributeError, OSError):
        return None


def _move_in(staging: Path, target: Path) -> None:
    os.rename(staging, target)
    _sync_folder(target.parent)


def _discard(folder: Path | None) -> None:
    """Delete a folder duelkit wrote, its mark last: a kill halfway leaves it still marked as ours."""
    if folder is None:
        return
    if stat.S_ISLNK(os.lstat(folder).st_mode):  # swapped for a link since it was checked: only the link goes
        os.unlink(folder)
        return
    for name in sorted(os.listdir(folder)):
        if name != MARK_FILE:
            os.unlink(folder / name)
    if os.path.lexists(folder / MARK_FILE):
        os.unlink(folder / MARK_FILE)
    os.rmdir(folder)


def _roll_back(staging: Path, aside: Path | None, target: Path) -> None:
    """After a failure (not a kill): the old kit back in place, the staging folder gone."""
    if aside is not None and not os.path.lexists(target):
        os.rename(aside, target)
    if os.path.lexists(staging):
        _discard(staging)


def _sync_folder(folder: Path) -> None:
    """fsync a folder, so the renames and new names in it survive a power cut (where folders can be opened:
    Windows has no O_DIRECTORY and flushes a folder's entries with its files)."""
    directory = getattr(os, "O_DIRECTORY", None)
    if directory is None:
        return
    fd = os.open(folder, os.O_RDONLY | directory | getattr(os, "O_CLOEXEC", 0))
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
