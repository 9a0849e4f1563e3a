"""`duelkit watch`: build the kit, then rebuild it whenever a YAML file of the project is saved.

Each save: the data is loaded and checked again; only the files whose bytes changed are parsed again
(`ParseCache`), and only their definitions are schema-checked again (`loading.CheckMemo`; the checks across
definitions, such as references, run at every save). With errors, they are printed and the last good kit
stays as it is. Otherwise the kit is laid out (pieces whose inputs are unchanged are not laid out again:
`LayoutMemo`), only the pages whose content hash is new are drawn (`PageCache`, also kept in OUT/.cache
unless --no-cache), only the PDFs holding such a page are assembled again, copying only the changed pages
into the PDF kept from the last rebuild (`RenderCache`, `render.assemble.Assembler`; kit.pdf from the
component PDFs), and only the files that changed are replaced in the kit folder (`OutputFolder.update`,
atomic). The watcher holds the output folder's lock while it runs, so a `duelkit build` into the same
folder is told to wait. Saves are reported by watchfiles (the `notify` library: inotify, FSEvents, ...),
so an editor that saves by writing a new file and renaming it is seen too.
"""

from __future__ import annotations

import argparse
import gc
import os
import stat
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from toolkit.cli.build import add_kit_options, build_kit, chosen_parts, print_options, render_cache
from toolkit.cli.common import EXIT_OK, add_output_command, err, out, output_folder, select_games
from toolkit.errors import DuelkitError
from toolkit.problems import Problem, sorted_problems
from toolkit.report import format_text, summary

if TYPE_CHECKING:
    import threading

    from toolkit.kit.files import RenderCache
    from toolkit.kit.memo import LayoutMemo
    from toolkit.loading import CheckMemo
    from toolkit.output import OutputFolder
    from toolkit.yamlsource import ParseCache

YAML_SUFFIXES = (".yaml", ".yml")
QUIET_MS = 50  # a batch of saves is handled once nothing has changed for this long
READY_MS = 200


def add_parser(commands: Any) -> None:
    watch = add_output_command(commands, "watch", "rebuild the kit whenever a YAML file of the project is saved",
                               "", [
                                   "duelkit watch                      # the project you stand in; Ctrl+C stops",
                                   "duelkit watch mygame --only schematics   # the cards alone, faster"])
    add_kit_options(watch)
    watch.add_argument("--no-cache", action="store_false", dest="disk_cache",
                       help="keep the pages drawn in memory only (by default also in OUT/.cache, safe to delete, so "
                            "the next watch or `build --cache` starts from them)")
    watch.add_argument("--max-rebuilds", type=_count, metavar="N",
                       help="stop after N rebuilds (for scripts and tests; default: until Ctrl+C)")
    watch.set_defaults(run=run)


def run(args: argparse.Namespace, stop: threading.Event | None = None) -> int:
    """Build, then rebuild on every batch of saves until Ctrl+C, `--max-rebuilds` or `stop` is set.

    The project folder deleted (or replaced: restored from a backup, checked out again) takes the file
    watches with it, so the watcher says so, waits for the folder to be back and starts watching it again
    (a new lock on its output folder, a full first build)."""
    from toolkit.paths import bundled_root

    root = Path(args.data_dir) if args.data_dir else bundled_root()
    session = Session(args)
    rebuilds = 0
    armed = _identity(root)
    try:
        while True:
            selected, _ = select_games(args, "build")
            with output_folder(args, "", [game.id for game, _ in selected]) as folder:
                rebuilds, moved = _watch(root, armed, session, folder, rebuilds, stop)
            if not moved:
                break
            armed = _back(root, stop)
            if armed is None:
                break
            session.restart()
            out(f"{_shown(root)} is back: watching it again")
    except KeyboardInterrupt:
        pass
    out("stopped watching")
    return EXIT_OK


def _watch(root: Path, armed: tuple[int, int] | None, session: Session, folder: OutputFolder, rebuilds: int,
           stop: threading.Event | None) -> tuple[int, bool]:
    """Watch `root` until stopped, or until the folder is no longer the one watched: (rebuilds done so far,
    whether it moved)."""
    import watchfiles

    args, ready = session.args, False
    # an empty batch every READY_MS when nothing is saved; the first batch means the watcher is in place, so
    # the first build comes then: a save made while it runs is the next batch, not lost
    for changes in watchfiles.watch(root, watch_filter=_is_yaml, step=QUIET_MS, stop_event=stop,
                                    rust_timeout=READY_MS, yield_on_timeout=True, raise_interrupt=False):
        if _identity(root) != armed:
            err(f"duelkit: {_shown(root)} was deleted or replaced; no more saves are seen there. Waiting for it "
                "to be back (Ctrl+C to stop)")
            sys.stdout.flush()
            return rebuilds, True
        if not ready:
            session.rebuild(folder, [])
            out(f"watching {_shown(root)} for saved YAML files (Ctrl+C to stop)")
            sys.stdout.flush()
            ready = True
            continue
        if not changes:
            continue
        saved = sorted({Path(path) for _, path in changes})
        try:
            session.rebuild(folder, saved)
        except DuelkitError as exc:  # a project file renamed away, a file dropped into the kit folder
            err(f"duelkit: error: {exc}")
            out(f"{_saved_note(saved, args)}not rebuilt; the last good kit is kept")
        sys.stdout.flush()
        rebuilds += 1
        if args.max_rebuilds is not None and rebuilds >= args.max_rebuilds:
            break
    return rebuilds, False


def _identity(root: Path) -> tuple[int, int] | None:
    """Which folder `root` is (device, inode); None when there is none."""
    try:
        info = os.stat(root)
    except OSError:
        return None
    return (info.st_dev, info.st_ino) if stat.S_ISDIR(info.st_mode) else None


def _back(root: Path, stop: threading.Event | None) -> tuple[int, int] | None:
    """Wait until `root` is a folder again (then a moment more, for a restore to finish); None when stopped."""
    while stop is None or not stop.is_set():
        found = _identity(root)
        if found is not None:
            time.sleep(READY_MS / 1000)
            return _identity(root)
        time.sleep(READY_MS / 1000)
    return None


@dataclass
class Session:
    """What a watch remembers between rebuilds: per game, the files last written and the drawn scenes."""

    args: argparse.Namespace
    written: dict[str, dict[str, bytes]] = field(default_factory=dict)
    caches: dict[str, RenderCache] = field(default_factory=dict)
    parses: ParseCache | None = None
    checks: CheckMemo | None = None
    layout: LayoutMemo | None = None
    warnings: list[Problem] | None = None

    def restart(self) -> None:
        """Forget what was written: the folder watched now is another one, so its first build writes all."""
        self.written.clear()
        self.caches.clear()  # the pages kept on disk were in the folder watched before
        self.parses = None
        self.checks = None
        self.layout = None
        self.warnings = None

    def rebuild(self, folder: OutputFolder, saved: list[Path]) -> None:
        """One rebuild: a file is parsed again only when its bytes changed (`ParseCache`); on invalid
        data, the problems are printed and nothing is written."""
        from toolkit.kit.memo import LayoutMemo, remembering
        from toolkit.loading import CheckMemo, checking_with
        from toolkit.yamlsource import ParseCache, parsing_with

        self.parses = self.parses or ParseCache()
        self.checks = self.checks or CheckMemo()
        self.layout = self.layout or LayoutMemo()
        self.parses.start()
        self.checks.start()
        self.layout.start()
        # the garbage collector waits until the kit is written: its passes over what the watch remembers
        # were a tenth of a rebuild, and a rebuild's garbage is mostly freed as it goes (scenes hold no cycles)
        collecting = gc.isenabled()
        gc.disable()
        try:
            with parsing_with(self.parses), checking_with(self.checks), remembering(self.layout):
                self._rebuild(folder, saved)
        finally:
            if collecting:
                gc.enable()

    def _rebuild(self, folder: OutputFolder, saved: list[Path]) -> None:
        from toolkit.kit.batch import batch_allocation
        from toolkit.kit.files import kit_files

        started = time.perf_counter()
        prefix = _saved_note(saved, self.args)
        selected, problems = select_games(self.args, "build")
        loaded = [(game, game.load(where)) for game, where in selected]
        problems = sorted_problems(problems + [p for _, data in loaded for p in data.problems])
        if any(problem.is_error for problem in problems):
            err(format_text(problems) + "\n")
            out(f"{prefix}not rebuilt: the data has problems ({summary(problems)}); the last good kit is kept")
            return
        parts = chosen_parts(self.args.only, loaded)
        options = print_options(self.args)
        warnings: list[Problem] = []
        lines = []
        with batch_allocation():
            for game, data in loaded:
                if game.id not in parts:
                    continue
                if game.id not in self.caches:
                    self.caches[game.id] = render_cache(self.args, folder, game.id, keep=True)
                cache = self.caches[game.id]
                cache.start()
                components = build_kit(game, data, self.args, options, _no_progress, parts[game.id])
                warnings += [warning for component in components for warning in component.warnings]
                files = kit_files(components, game.kit_title(data), self.args.svg, options=options,
                                  with_kit=not self.args.only, cache=cache)
                if not self.args.only:
                    cache.pages.prune()
                lines.append(self._write(folder, game.id, files))
        self._report_warnings(warnings)
        seconds = time.perf_counter() - started
        out(f"{prefix}{'rebuilt' if saved else 'built'} {'; '.join(lines)} in {seconds:.2f} s")

    def _write(self, folder: OutputFolder, game_id: str, files: dict[str, bytes]) -> str:
        """Replace the files that changed since the last write; says which."""
        before = self.written.get(game_id)
        if before is None and not self.args.only:
            folder.replace(game_id, files)
            changed = sorted(files)
        else:
            previous = before or {}
            new = {name: data for name, data in files.items() if previous.get(name) != data}
            dropped = [name for name in previous if name not in files]
            if new or dropped or before is None:
                folder.update(game_id, new, drop=dropped)
            changed = sorted(new) + [f"-{name}" for name in sorted(dropped)]
        self.written[game_id] = files
        shown = ", ".join(changed[:6]) + (f" and {len(changed) - 6} more" if len(changed) > 6 else "")
        return f"{game_id}: {shown or 'nothing changed'}"

    def _report_warnings(self, warnings: list[Problem]) -> None:
        """Warnings are printed when they differ from the last rebuild's, so a save that changes nothing
        about them does not repeat a long list."""
        current = sorted_problems(warnings)
        previous, self.warnings = self.warnings, current
        if previous is not None and [w.sort_key() for w in previous] == [w.sort_key() for w in current]:
            return
        if current:
            err(format_text(current))
            err(summary(current))
        elif previous:
            err("no warnings left")


def _saved_note(saved: list[Path], args: argparse.Namespace) -> str:
    """'saved unit_data/spark.yaml: ', naming the files relative to the project."""
    if not saved:
        return ""
    root = Path(args.data_dir) if args.data_dir else None
    what = ", ".join(_shown(_relative(path, root)) for path in saved[:3]) + (" ..." if len(saved) > 3 else "")
    return f"saved {what}: "


def _is_yaml(change: Any, path: str) -> bool:
    del change
    return path.endswith(YAML_SUFFIXES)


def _no_progress(label: str) -> None:
    del label


def _relative(path: Path, root: Path | None) -> Path:
    try:
        return path.relative_to(root.resolve()) if root else path
    except ValueError:
        return path


def _shown(path: Path | str) -> str:
    """A path for the terminal: names are the designer's, but a control character never reaches it raw."""
    text = str(path)
    return text if text.isprintable() else ascii(text)


def _count(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"'{text[:20]}' is not a whole number of rebuilds (1 or more)")
    return value

