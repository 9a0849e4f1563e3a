"""What the commands share: printing, exit codes, choosing the games of a folder, and refusing bad data."""

from __future__ import annotations

import argparse
import sys
import textwrap
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from toolkit.errors import DuelkitError, UsageError
from toolkit.game import Game, GameData, NotApplicable, Where
from toolkit.loading import PROJECT_FILE
from toolkit.problems import sorted_problems
from toolkit.project import find_project
from toolkit.registry import discover, game_ids, games
from toolkit.report import format_text, summary
from toolkit.terminal import one_line, terminal_safe

if TYPE_CHECKING:
    from toolkit.output import OutputFolder

EXIT_OK, EXIT_PROBLEMS, EXIT_USAGE, EXIT_INTERNAL = 0, 1, 2, 70
BUNDLED_NOTE = f"no {PROJECT_FILE} here or above: using the bundled demo games"


def out(text: str = "") -> None:
    """Print one line (or lines) through the terminal filter (toolkit.terminal)."""
    print(terminal_safe(text))


def err(text: str) -> None:
    print(terminal_safe(text), file=sys.stderr)


def resolve_project(args: argparse.Namespace) -> None:
    """With no DATA_DIR, a command means the project the designer stands in: the nearest folder, here or
    above, with a `duelkit.yaml` (as git finds its repository). Outside any project `args.data_dir` stays
    None (the bundled demo games), and a command that would use them says so on stderr."""
    if not hasattr(args, "data_dir") or args.data_dir is not None:
        return  # a command without a project, or a DATA_DIR given on purpose
    try:
        here = Path.cwd()
    except FileNotFoundError:
        raise UsageError("the current folder no longer exists; cd into your project") from None
    args.data_dir = find_project(here)
    note: str | None = getattr(args, "bundled_note", None)
    if args.data_dir is None and note:
        err(note)


def squadless_project(given: str | None) -> tuple[Path, list[tuple[Game, Where]]] | None:
    """The folder (`given`, else the project here or above) and its games, when every game there is one
    without squads (the card duel): `play` and `simulate` then take only [DATA_DIR]. None otherwise."""
    folder = Path(given) if given is not None else None
    if folder is None:
        try:
            folder = find_project(Path.cwd())
        except OSError:
            return None
    if folder is None or not folder.is_dir():
        return None
    found, _ = discover(folder)
    if not found or any(game.has_squads for game, _ in found):
        return None
    return folder, found


def ids_hint(kind: str, ids: Sequence[str], command: str, first: str | None = None) -> str:
    """"; squads: a, b (e.g. duelkit simulate a b)": what a project holds, after a usage line, so a designer who
    typed too little learns what to type next. Ids come from files: escaped, cut to 40 characters, 12 shown."""
    if not ids:
        return ""
    shown = [one_line(name)[:40] for name in ids[:12]]
    more = f" and {len(ids) - 12} more" if len(ids) > 12 else ""
    first = one_line(first)[:40] if first is not None else shown[0]
    other = next((name for name in shown if name != first), first)
    return f"; {kind}: {', '.join(shown)}{more} (e.g. duelkit {command} {first} {other})"


def output_root(args: argparse.Namespace, subfolder: str = "") -> Path:
    """--out as given; otherwise DATA_DIR/output/<subfolder>, or ./output/<subfolder> for the bundled data."""
    if args.out:
        return Path(args.out)
    root = (args.data_dir / "output") if args.data_dir else Path("output")
    return root / subfolder if subfolder else root


def check_target(path: Path) -> None:
    """A file duelkit writes by name replaces a regular file or nothing: never a link, a folder, a FIFO or a
    device (renaming over /dev/full as root would have replaced the device)."""
    import os
    import stat

    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        return
    except OSError as exc:
        raise DuelkitError(f"cannot write {path}: {exc.strerror or exc}") from None
    if not stat.S_ISREG(mode):
        what = ("a symbolic link" if stat.S_ISLNK(mode) else "a folder" if stat.S_ISDIR(mode)
                else "not a regular file (a FIFO, socket or device)")
        raise UsageError(f"cannot write {path}: it is {what}; duelkit replaces only a regular file, so give "
                         "another file name")


def check_writable(path: Path) -> None:
    """Refuse, before any work, a file that could not be written at the end: a missing folder, a file where
    a folder belongs, a read-only folder (a file is made there and removed again, as the write would)."""
    from toolkit.output import probe_writable
    from toolkit.paths import file_in_the_way

    folder = path.parent if str(path.parent) else Path(".")
    blocker = file_in_the_way(folder)
    if blocker is not None:
        raise UsageError(f"cannot write {path}: '{blocker}' is a file, not a folder")
    if not folder.is_dir():
        raise UsageError(f"cannot write {path}: folder '{folder}' does not exist")
    check_target(path)
    try:
        probe_writable(folder)
    except OSError as exc:
        raise DuelkitError(f"cannot write {path}: {exc.strerror or exc}") from None


def write_atomically(path: Path, text: str) -> None:
    """A file named on the command line (a record, a board), written through `output.replace_file`:
    staged and fsync'd beside the target, then renamed, so never a half-written file."""
    from toolkit.output import replace_file

    folder = path.parent if str(path.parent) else Path(".")
    if not folder.is_dir():
        raise UsageError(f"cannot write {path}: folder '{folder}' does not exist")
    check_target(path)
    try:
        replace_file(folder / path.name, text.encode("utf-8"))
    except OSError as exc:
        raise DuelkitError(f"cannot write {path}: {exc.strerror or exc}") from None


def output_folder(args: argparse.Namespace, subfolder: str, names: list[str]) -> OutputFolder:
    """The output folder, locked while this command writes the kit folders `names` into it. A default
    one must stay inside the project (or the working folder, for the bundled data); --out is the user's."""
    from toolkit.output import OutputFolder

    home = None if args.out else (args.data_dir or Path.cwd())
    return OutputFolder(output_root(args, subfolder), home, names)


def select_games(args: argparse.Namespace, command: str) -> tuple[list[tuple[Game, Where]], list[Any]]:
    """The games of DATA_DIR that `--game` asks for and `command` applies to, and the project file's problems.

    A game chosen on purpose (by `--game`, or as the game of a project) that the command does not apply to
    is refused (exit 2); over the bundled data such a game is left out with a note, unless nothing is left.
    """
    found, problems = discover(args.data_dir)
    wanted = set(args.game or [])
    if wanted:
        unknown = wanted - set(game_ids())
        if unknown:
            raise UsageError(f"unknown game {', '.join(sorted(unknown))}; known here: {', '.join(game_ids())}")
        found = [(game, where) for game, where in found if game.id in wanted]
        if not found and not problems:
            raise UsageError(f"{args.data_dir or 'the bundled data'} has no data for {', '.join(sorted(wanted))}")
    explicit = bool(wanted) or any(where.project for _, where in found)
    refused = [game for game, _ in found if not game.supports(command)]
    if refused and (explicit or len(refused) == len(found)):
        raise NotApplicable("; ".join(game.why_not(command) for game in refused))
    for game in refused:
        err(f"{game.id}: skipped: {game.why_not(command)}")
    slow = [game for game, _ in found if command in game.on_purpose_only and game not in refused]
    if not explicit:
        for game in slow:
            err(f"{game.id}: skipped: its {command} is a long self-play run; choose it with --game {game.id}")
        if slow and len(slow) + len(refused) == len(found):
            raise UsageError(f"nothing to do: ask for it with --game {slow[0].id}")
    else:
        slow = []
    return [(game, where) for game, where in found if game.supports(command) and game not in slow], problems


def load_valid(args: argparse.Namespace, command: str) -> list[tuple[Game, GameData]] | None:
    """The chosen games' data, or None (after printing every problem) when any of it has errors."""
    selected, problems = select_games(args, command)
    loaded = [(game, game.load(where)) for game, where in selected]
    problems = sorted_problems(problems + [p for _, data in loaded for p in data.problems])
    if any(problem.is_error for problem in problems):
        err(format_text(problems))  # already terminal-safe: printed without a second pass
        err("")
        err(f"duelkit: not building: the data has problems ({summary(problems)}); "
            "`duelkit validate` lists them too")
        return None
    return loaded


def add_command(commands: Any, name: str, help_text: str, examples: list[str], notes: Sequence[str] = (),
                game_notes: str | None = None) -> Any:
    """A command whose `--help` teaches: what it does, examples to copy, and the words it accepts (the
    games add theirs: statuses, module effect kinds, import columns)."""
    lines = ["examples:", *(f"  {example}" for example in examples)]
    extra = list(notes)
    for game in games():
        extra += [note for note in game.help_notes(game_notes or name) if note not in extra]
    if extra:
        lines += ["", *(textwrap.fill(note, width=100, subsequent_indent="    ") for note in extra)]
    return commands.add_parser(name, help=help_text, description=help_text[:1].upper() + help_text[1:] + ".",
                               epilog="\n".join(lines), formatter_class=argparse.RawDescriptionHelpFormatter)


def add_output_command(commands: Any, name: str, help_text: str, subfolder: str, examples: list[str],
                       data_note: str = "") -> Any:
    """The commands that write files share DATA_DIR, --game, --paper and --out."""
    command = add_command(commands, name, help_text, examples)
    add_data_dir(command, data_note)
    command.add_argument("--game", action="append", metavar="ID",
                         help="only this game/theme, over the bundled demo games (repeatable): "
                              + ", ".join(game_ids()))
    command.add_argument("--paper", choices=("a4", "letter"), default="a4",
                         help="paper size of the sheets (default: a4)")
    where = f"output/{subfolder}" if subfolder else "output"
    command.add_argument("--out", type=Path, metavar="DIR",
                         help=f"output folder (default: the project's {where}, or ./{where} for the bundled data)")
    return command


def add_data_dir(command: Any, data_note: str = "") -> None:
    """DATA_DIR, optional: by default the project here or above, else the bundled demo games (said on stderr)."""
    command.add_argument("data_dir", nargs="?", type=Path, metavar="DATA_DIR",
                         help=f"project folder (default: the nearest folder, here or above, with a {PROJECT_FILE}; "
                              f"outside any project, the bundled demo games){data_note}")
    command.set_defaults(bundled_note=BUNDLED_NOTE)
