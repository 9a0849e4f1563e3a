"""A build never deletes what it did not make, never reads or writes through a link that leaves the project,
stays atomic under faults and concurrent runs, and reports unreadable or special files."""

from __future__ import annotations

import json
import os
import re
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import FIXTURES
from toolkit.cli import main
from toolkit.output import MARK_FILE, MARK_FORMAT


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def _bundled_layout(root: Path) -> Path:
    """The base project laid out as the bundled data is: unit_data/<theme>/, modules/<theme>/."""
    shutil.copytree(FIXTURES / "base" / "unit_data", root / "unit_data" / "duel-protocol")
    shutil.copytree(FIXTURES / "base" / "modules", root / "modules" / "duel-protocol")
    return root


# --- item 6: only folders duelkit marked are replaced -------------------------------------------------

def test_kit_folder_carries_a_mark_listing_what_duelkit_wrote(base_project: Path) -> None:
    assert main(["build", str(base_project)]) == 0
    kit = base_project / "output" / "duel-protocol"
    lines = (kit / MARK_FILE).read_text(encoding="utf-8").splitlines()
    assert lines[0] == MARK_FORMAT
    assert {"kit.pdf", "board.pdf"} <= set(lines)
    assert set(os.listdir(kit)) - {MARK_FILE} <= set(lines)
    assert main(["build", str(base_project)]) == 0  # its own folder is replaced


def test_project_named_like_its_theme_built_with_out_dot_is_not_replaced(
        tmp_path: Path, monkeypatch, capsys) -> None:
    project = tmp_path / "duel-protocol"
    shutil.copytree(FIXTURES / "base", project)
    before = _snapshot(project)
    monkeypatch.chdir(tmp_path)
    assert main(["build", "duel-protocol", "--out", "."]) == 1
    assert "did not write" in capsys.readouterr().err
    assert _snapshot(project) == before


def test_out_pointing_into_the_data_folder_keeps_the_unit_files(tmp_path: Path, capsys) -> None:
    data = _bundled_layout(tmp_path / "data")
    before = _snapshot(data)
    assert main(["build", str(data), "--game", "duel-protocol", "--out", str(data / "unit_data")]) == 1
    assert "did not write" in capsys.readouterr().err
    assert _snapshot(data) == before


@pytest.mark.parametrize("sibling_marked", [False, True])
def test_shipped_output_link_to_parent_never_touches_a_sibling(
        tmp_path: Path, base_project: Path, capsys, sibling_marked: bool) -> None:
    sibling = tmp_path / "duel-protocol"
    sibling.mkdir()
    (sibling / "kit.pdf").write_bytes(b"someone else's work")
    if sibling_marked:  # even a duelkit kit from another project is not replaced through the link
        (sibling / MARK_FILE).write_text(f"{MARK_FORMAT}\nkit.pdf\n", encoding="utf-8")
    (base_project / "output").symlink_to("..")
    before = _snapshot(sibling)
    for command in (["build"], ["balance"], ["reference"]):
        assert main([*command, str(base_project)]) == 1
        assert "outside" in capsys.readouterr().err
    assert _snapshot(sibling) == before
    assert sorted(os.listdir(tmp_path)) == ["duel-protocol", "project"]


def test_link_in_place_of_the_kit_folder_is_refused(tmp_path: Path, base_project: Path, capsys) -> None:
    elsewhere = tmp_path / "elsewhere"
    assert main(["build", str(base_project), "--out", str(elsewhere)]) == 0
    before = _snapshot(elsewhere)
    out = tmp_path / "out"
    out.mkdir()
    (out / "duel-protocol").symlink_to(elsewhere / "duel-protocol")
    assert main(["build", str(base_project), "--out", str(out)]) == 1
    assert "symbolic link" in capsys.readouterr().err
    assert _snapshot(elsewhere) == before


def test_marked_folder_with_a_file_of_the_designer_is_refused(base_project: Path, capsys) -> None:
    assert main(["build", str(base_project)]) == 0
    kit = base_project / "output" / "duel-protocol"
    (kit / "notes.txt").write_text("my playtest notes", encoding="utf-8")
    before = _snapshot(kit)
    assert main(["build", str(base_project)]) == 1
    assert "notes.txt" in capsys.readouterr().err
    assert _snapshot(kit) == before


def test_empty_folder_is_used(base_project: Path) -> None:
    (base_project / "output" / "duel-protocol").mkdir(parents=True)
    assert main(["build", str(base_project)]) == 0
    assert (base_project / "output" / "duel-protocol" / "kit.pdf").is_file()


@pytest.mark.parametrize(("command", "sub", "name"), [(["balance"], "balance", "balance.csv"),
                                               (["reference"], "reference", "manual.html")])
def test_balance_and_reference_refuse_unmarked_folders_too(
        base_project: Path, capsys, command: list[str], sub: str, name: str) -> None:
    target = base_project / "output" / sub / "duel-protocol"
    target.mkdir(parents=True)
    (target / "mine.txt").write_text("keep me", encoding="utf-8")
    assert main([*command, str(base_project)]) == 1
    assert "did not write" in capsys.readouterr().err
    assert os.listdir(target) == ["mine.txt"]
    shutil.rmtree(target)
    assert main([*command, str(base_project)]) == 0
    assert (target / name).is_file()
    assert (target / MARK_FILE).is_file()


# --- item 10: atomic in fact -------------------------------------------------------------------------

OLD_KIT = {"kit.pdf": b"old kit", "board.pdf": b"old board"}
NEW_KIT = {"kit.pdf": b"new kit", "tokens.pdf": b"new tokens"}


class _Killed(BaseException):
    """Stands in for a kill: like SIGKILL, nothing after it runs (the roll-back is switched off too)."""


def _kit(folder: Path) -> dict[str, bytes] | None:
    if not folder.is_dir():
        return None
    return {p.name: p.read_bytes() for p in folder.iterdir() if p.name != MARK_FILE}


def _killed_at_write(n: int):
    """`_write_file` that is killed on its n-th call (the mark is the first file written)."""
    from toolkit import output

    original, calls = output._write_file, []

    def write(*args, **kwargs):
        calls.append(args)
        if len(calls) == n:
            raise _Killed
        return original(*args, **kwargs)

    return write


_STEPS = ["_stage", "mid-stage", "_exchange", "_discard"]  # with an atomic exchange (Linux renameat2)
_FALLBACK_STEPS = ["_set_aside", "_move_in"]  # without one: two renames


@pytest.mark.parametrize("step", [*_STEPS, *(f"fallback{step}" for step in _FALLBACK_STEPS)])
def test_a_kill_between_any_two_steps_leaves_a_kit_and_the_next_build_recovers(
        tmp_path: Path, monkeypatch, step: str) -> None:
    from toolkit import output

    if step.startswith("fallback"):
        step = step.removeprefix("fallback")
        monkeypatch.setattr(output, "_exchange", lambda *_args: False)
    elif output._renameat2() is None:
        pytest.skip("no atomic exchange on this system (the fallback cases cover it)")
    out = tmp_path / "out"
    output.replace_folder(out / "duel-protocol", OLD_KIT)

    def killed(*_args, **_kwargs):
        raise _Killed

    if step == "mid-stage":  # killed halfway through writing the new files
        monkeypatch.setattr(output, "_write_file", _killed_at_write(3))
    else:  # killed just before this step (before `_stage`: the staging folder is made, still empty)
        monkeypatch.setattr(output, step, killed)
    monkeypatch.setattr(output, "_roll_back", lambda *_args: None)
    with pytest.raises(_Killed):
        output.replace_folder(out / "duel-protocol", NEW_KIT)
    monkeypatch.undo()

    left = _kit(out / "duel-protocol")
    if step == "_move_in":  # the fallback's one gap: between its two renames the old kit is aside, marked
        assert left is None
        assert any(".duelkit-old-" in name for name in os.listdir(out))
    else:  # with the exchange, the visible path holds a whole kit at every moment
        assert left in (OLD_KIT, NEW_KIT)
    assert [name for name in os.listdir(out) if ".duelkit-new-" in name or ".duelkit-old-" in name]

    with output.OutputFolder(out):  # the next command to write there recovers, then cleans up
        pass
    assert _kit(out / "duel-protocol") == (NEW_KIT if step == "_discard" else OLD_KIT)
    assert sorted(os.listdir(out)) == [".duelkit-lock", "duel-protocol"]
    output.replace_folder(out / "duel-protocol", NEW_KIT)
    assert _kit(out / "duel-protocol") == NEW_KIT


def test_on_linux_the_old_kit_and_the_new_one_are_exchanged_in_one_step(tmp_path: Path, monkeypatch) -> None:
    from toolkit import output

    if output._renameat2() is None:
        pytest.skip("no renameat2 here: the two-rename fallback is documented in DESIGN.md")
    output.replace_folder(tmp_path / "duel-protocol", OLD_KIT)

    def no_gap(*_args: object) -> None:
        pytest.fail("the old kit was renamed aside: a kill now would leave no kit")

    monkeypatch.setattr(output, "_set_aside", no_gap)
    output.replace_folder(tmp_path / "duel-protocol", NEW_KIT)
    assert _kit(tmp_path / "duel-protocol") == NEW_KIT
    assert sorted(os.listdir(tmp_path)) == [".duelkit-lock", "duel-protocol"]


@pytest.mark.parametrize("step", ["_write_file", "_exchange", "_set_aside", "_move_in"])
def test_a_failure_at_any_step_rolls_back_to_the_old_kit(tmp_path: Path, monkeypatch, step: str) -> None:
    from toolkit import output
    from toolkit.errors import DuelkitError

    if step in ("_set_aside", "_move_in"):  # the two renames of a system without an atomic exchange
        monkeypatch.setattr(output, "_exchange", lambda *_args: False)
    out = tmp_path / "out"
    output.replace_folder(out / "duel-protocol", OLD_KIT)

    def disk_full(*_args, **_kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(output, step, disk_full)
    with pytest.raises(DuelkitError, match="No space left"):
        output.replace_folder(out / "duel-protocol", NEW_KIT)
    assert _kit(out / "duel-protocol") == OLD_KIT
    assert sorted(os.listdir(out)) == [".duelkit-lock", "duel-protocol"]


def test_leftovers_duelkit_did_not_mark_are_left_alone(tmp_path: Path) -> None:
    from toolkit import output

    out = tmp_path / "out"
    (out / ".duel-protocol.duelkit-old-abc").mkdir(parents=True)
    (out / ".duel-protocol.duelkit-old-abc" / "mine.txt").write_text("not duelkit's", encoding="utf-8")
    output.replace_folder(out / "duel-protocol", NEW_KIT)
    assert (out / ".duel-protocol.duelkit-old-abc" / "mine.txt").is_file()
    assert _kit(out / "duel-protocol") == NEW_KIT


@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="needs /proc to name the fsync'd files")
def test_files_and_the_folder_are_flushed_before_the_swap(tmp_path: Path, monkeypatch) -> None:
    from toolkit import output

    events: list[str] = []
    real_fsync, real_move_in = os.fsync, output._move_in

    def fsync(fd: int) -> None:
        events.append(os.readlink(f"/proc/self/fd/{fd}"))
        real_fsync(fd)

    def move_in(staging: Path, target: Path) -> None:
        events.append("swap")
        real_move_in(staging, target)

    monkeypatch.setattr(os, "fsync", fsync)
    monkeypatch.setattr(output, "_move_in", move_in)
    output.replace_folder(tmp_path / "duel-protocol", NEW_KIT)
    before = events[:events.index("swap")]
    staging = Path(before[-1])  # the staging folder itself, synced after its files
    assert ".duelkit-new-" in staging.name
    assert {str(staging / name) for name in [*NEW_KIT, MARK_FILE]} <= set(before)


def test_two_builds_at_once_one_completes_the_other_is_told(
        tmp_path: Path, base_project: Path, monkeypatch, capsys) -> None:
    import threading

    from toolkit import output

    started, release = threading.Event(), threading.Event()
    real_stage = output._stage

    def slow_stage(*args, **kwargs):
        if not started.is_set():  # the first build pauses while writing, holding the lock
            started.set()
            release.wait(30)
        return real_stage(*args, **kwargs)

    monkeypatch.setattr(output, "_stage", slow_stage)
    out = tmp_path / "out"
    codes: list[int] = []
    first = threading.Thread(target=lambda: codes.append(main(["build", str(base_project), "--out", str(out)])))
    first.start()
    assert started.wait(30)
    assert main(["build", str(base_project), "--out", str(out)]) == 1
    assert "another duelkit command is writing" in capsys.readouterr().err
    release.set()
    first.join(30)
    assert codes == [0]
    kit = _kit(out / "duel-protocol")
    assert kit is not None
    assert "kit.pdf" in kit
    assert kit["kit.pdf"].startswith(b"%PDF")
    assert sorted(os.listdir(out)) == [".duelkit-lock", "duel-protocol"]


def test_a_second_process_is_refused_while_the_folder_is_locked(tmp_path: Path, base_project: Path) -> None:
    import subprocess
    import sys

    from toolkit.output import OutputFolder

    out = tmp_path / "out"
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).parent.parent)}
    with OutputFolder(out):
        done = subprocess.run([sys.executable, "-m", "toolkit", "build", str(base_project), "--out", str(out)],
                              capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 1
    assert "another duelkit command is writing" in done.stderr
    assert not (out / "duel-protocol").exists()


# --- item 7: nothing outside the project is read through a link ---------------------------------------

SECRET = "TOPSECRET-DO-NOT-PRINT"


def _outside_file(tmp_path: Path, text: str) -> Path:
    outside = tmp_path / "outside"
    outside.mkdir(exist_ok=True)
    path = outside / "secret.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def _validate_json(project: Path | None, capsys) -> tuple[int, list[dict], str]:
    import json

    code = main(["validate", *([str(project)] if project else []), "--format", "json"])
    captured = capsys.readouterr()
    return code, json.loads(captured.out), captured.out + captured.err


@pytest.mark.parametrize("content", [
    (FIXTURES / "base" / "unit_data" / "alpha.yaml").read_text(encoding="utf-8").replace("alpha", "stolen"),
    f"id: [unclosed\n{SECRET}: x\n"])
def test_unit_file_linking_outside_is_reported_at_the_link_and_not_read(
        tmp_path: Path, base_project: Path, capsys, content: str) -> None:
    secret = _outside_file(tmp_path, content)
    (base_project / "unit_data" / "leak.yaml").symlink_to(secret)
    code, problems, text = _validate_json(base_project, capsys)
    assert code == 1
    assert [(p["code"], p["file"]) for p in problems] == [("F001", str(base_project / "unit_data" / "leak.yaml"))]
    assert SECRET not in text
    assert "stolen" not in text
    assert str(secret.parent) not in text  # the link is named, never its target


@pytest.mark.parametrize("link", ["unit_data", "modules", "unit_data/squads"])
def test_data_folder_linking_outside_is_reported_at_the_link(
        tmp_path: Path, base_project: Path, capsys, link: str) -> None:
    elsewhere = tmp_path / "elsewhere"
    shutil.copytree(base_project / link, elsewhere)
    shutil.rmtree(base_project / link)
    (base_project / link).symlink_to(elsewhere)
    code, problems, _ = _validate_json(base_project, capsys)
    assert code == 1
    assert ("F001", str(base_project / link)) in [(p["code"], p["file"]) for p in problems]


def test_links_inside_the_project_are_followed(base_project: Path, capsys) -> None:
    (base_project / "shared").mkdir()
    (base_project / "unit_data" / "more.yaml").rename(base_project / "shared" / "more.yaml")
    (base_project / "unit_data" / "more.yaml").symlink_to(base_project / "shared" / "more.yaml")
    (base_project / "unit_data" / "loop").symlink_to(base_project / "unit_data")  # read once, not forever
    code, problems, _ = _validate_json(base_project, capsys)
    assert (code, problems) == (0, [])


def test_project_file_linking_outside_is_not_read(tmp_path: Path, base_project: Path, capsys) -> None:
    secret = _outside_file(tmp_path, f"theme: duel-protocol\nname: {SECRET}\n")
    (base_project / "duelkit.yaml").unlink()
    (base_project / "duelkit.yaml").symlink_to(secret)
    code, problems, text = _validate_json(base_project, capsys)
    assert code == 1
    assert [p["code"] for p in problems] == ["F001"]
    assert problems[0]["file"] == str(base_project / "duelkit.yaml")
    assert SECRET not in text


def test_sword_techniques_linking_outside_are_not_read(tmp_path: Path, capsys) -> None:
    project = tmp_path / "sword"
    assert main(["new", str(project), "--theme", "sword-duel"]) == 0
    first = sorted((project / "techniques").glob("*.yaml"))[0]
    secret = _outside_file(tmp_path, first.read_text(encoding="utf-8"))
    first.unlink()
    first.symlink_to(secret)
    capsys.readouterr()
    code, problems, _ = _validate_json(project, capsys)
    assert code == 1
    assert ("F001", str(first)) in [(p["code"], p["file"]) for p in problems]


def test_bundled_data_is_read_as_a_project_too(tmp_path: Path, monkeypatch, capsys) -> None:
    import toolkit.registry

    bundle = _bundled_layout(tmp_path / "bundle")
    secret = _outside_file(tmp_path, f"{SECRET}: 1\n")
    (bundle / "unit_data" / "duel-protocol" / "leak.yaml").symlink_to(secret)
    monkeypatch.setattr(toolkit.registry, "bundled_root", lambda: bundle)
    code, problems, text = _validate_json(None, capsys)
    assert code == 1
    assert SECRET not in text
    leak = bundle / "unit_data" / "duel-protocol" / "leak.yaml"
    assert [p["file"] for p in problems if p["code"] == "F001"] == [str(leak)]


@pytest.mark.parametrize("link", ["templates", "templates/manual.html.j2"])
def test_template_linking_outside_is_refused_and_not_quoted(
        tmp_path: Path, base_project: Path, capsys, link: str) -> None:
    outside = tmp_path / "outside-templates"
    outside.mkdir()
    (outside / "manual.html.j2").write_text(f"{{{{ {SECRET} }}}}", encoding="utf-8")
    if link == "templates":
        (base_project / "templates").symlink_to(outside)
    else:
        (base_project / "templates").mkdir()
        (base_project / "templates" / "manual.html.j2").symlink_to(outside / "manual.html.j2")
    assert main(["reference", str(base_project)]) == 1
    err = capsys.readouterr().err
    assert f"{base_project / link}: symbolic link that leads outside the project" in err
    assert SECRET not in err
    assert str(outside) not in err
    assert not (base_project / "output" / "reference" / "duel-protocol").exists()


# --- item 11: special and unreadable files are located errors ------------------------------------------

def _cli(*args: str) -> subprocess.CompletedProcess:
    """The command line in a child process with a time limit: a FIFO that hangs fails the test, not the suite."""
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).parent.parent)}
    return subprocess.run([sys.executable, "-m", "toolkit", *args], capture_output=True, text=True, env=env,
                          timeout=60)


@pytest.mark.parametrize("place", ["unit_data/pipe.yaml", "modules/pipe.yml", "duelkit.yaml"])
def test_a_fifo_never_hangs_the_loader(base_project: Path, place: str) -> None:
    path = base_project / place
    path.unlink(missing_ok=True)
    os.mkfifo(path)
    done = _cli("validate", str(base_project), "--format", "json")
    assert done.returncode == 1, done.stderr
    assert [(p["code"], p["file"]) for p in json.loads(done.stdout)] == [("F002", str(path))]
    assert "named pipe" in json.loads(done.stdout)[0]["message"]


def test_a_fifo_template_never_hangs_reference(base_project: Path) -> None:
    (base_project / "templates").mkdir()
    os.mkfifo(base_project / "templates" / "manual.html.j2")
    done = _cli("reference", str(base_project))
    assert done.returncode == 1
    assert "manual.html.j2: a named pipe (FIFO), not a regular file" in done.stderr


def test_a_socket_and_a_device_are_reported(base_project: Path, capsys) -> None:
    import socket

    server = socket.socket(socket.AF_UNIX)
    server.bind(str(base_project / "unit_data" / "sock.yaml"))
    device = base_project / "unit_data" / "null.yaml"
    try:
        os.mknod(device, 0o600 | stat.S_IFCHR, os.makedev(1, 3))
        made_device = True
    except OSError:  # not permitted in this sandbox: the socket is still checked
        made_device = False
    try:
        code, problems, _ = _validate_json(base_project, capsys)
    finally:
        server.close()
    assert code == 1
    found = {(p["file"].rsplit("/", 1)[-1], p["code"]) for p in problems}
    assert ("sock.yaml", "F002") in found
    assert ("null.yaml", "F002") in found or not made_device


def test_a_file_where_a_folder_belongs_is_reported(base_project: Path, capsys) -> None:
    shutil.rmtree(base_project / "modules")
    (base_project / "modules").write_text("not a folder", encoding="utf-8")
    code, problems, _ = _validate_json(base_project, capsys)
    assert code == 1
    assert ("F002", str(base_project / "modules")) in [(p["code"], p["file"]) for p in problems]


def test_an_unreadable_file_is_reported(base_project: Path, monkeypatch, capsys) -> None:
    # tests run as root, where chmod 000 does not stop reading: refuse the open the way the kernel would
    locked = str(base_project / "unit_data" / "more.yaml")
    real_open = os.open

    def open_(path, *args, **kwargs):
        if str(path) == locked:
            raise PermissionError(13, "Permission denied", path)
        return real_open(path, *args, **kwargs)

    monkeypatch.setattr(os, "open", open_)
    code, problems, _ = _validate_json(base_project, capsys)
    assert code == 1
    found = [p for p in problems if p["code"].startswith("F")]
    assert [(p["code"], p["file"]) for p in found] == [("F003", locked)]
    assert "Permission denied" in found[0]["message"]


def test_a_folder_that_cannot_be_listed_is_reported(base_project: Path, monkeypatch, capsys) -> None:
    locked = str(base_project / "unit_data" / "squads")
    real_listdir = os.listdir

    def listdir(path="."):
        if str(path) == locked:
            raise PermissionError(13, "Permission denied", path)
        return real_listdir(path)

    monkeypatch.setattr(os, "listdir", listdir)
    code, problems, _ = _validate_json(base_project, capsys)
    assert code == 1
    assert ("F003", locked) in [(p["code"], p["file"]) for p in problems]


@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0,
                    reason="root reads files and lists folders whatever their mode")
def test_chmod_000_file_and_folder_are_reported(base_project: Path, capsys) -> None:
    os.chmod(base_project / "unit_data" / "more.yaml", 0)
    os.chmod(base_project / "unit_data" / "squads", 0)
    try:
        code, problems, _ = _validate_json(base_project, capsys)
    finally:
        os.chmod(base_project / "unit_data" / "more.yaml", 0o644)
        os.chmod(base_project / "unit_data" / "squads", 0o755)
    assert code == 1
    assert {p["code"] for p in problems} >= {"F003"}


# --- item 14: SVG names never collide --------------------------------------------------------------------

def test_a_unit_and_a_module_called_back_keep_their_own_svg_and_the_card_backs_stay(
        tmp_path: Path, base_project: Path) -> None:
    alpha = (base_project / "unit_data" / "alpha.yaml").read_text(encoding="utf-8")
    unit = alpha.replace("id: alpha", "id: back").replace("Alpha Scout", "Backstop Unit")
    (base_project / "unit_data" / "back.yaml").write_text(unit.replace("upgrades_to: alpha-prime\n", ""),
                                                         encoding="utf-8")
    module = (base_project / "modules" / "x-attack.yaml").read_text(encoding="utf-8")
    (base_project / "modules" / "back.yaml").write_text(
        module.replace("id: x-attack", "id: back").replace("X Attack", "Backfire"), encoding="utf-8")
    out = tmp_path / "out"
    assert main(["build", str(base_project), "--svg", "--out", str(out)]) == 0
    kit = out / "duel-protocol"
    assert "Backstop" in (kit / "schematic-back.svg").read_text(encoding="utf-8")
    assert "Backstop" not in (kit / "back-schematic.svg").read_text(encoding="utf-8")
    spinner = (kit / "spinner-back.svg").read_text(encoding="utf-8")
    assert "Backstop" in "".join(re.findall(r">([^<])</text>", spinner))  # letter by letter along the disc
    assert "Backfire" in (kit / "module-back.svg").read_text(encoding="utf-8")
    assert "Backfire" not in (kit / "back-module.svg").read_text(encoding="utf-8")


def test_a_technique_called_back_keeps_its_own_svg(tmp_path: Path) -> None:
    project = tmp_path / "sword"
    assert main(["new", str(project), "--theme", "sword-duel"]) == 0
    for path in (project / "techniques" / "irimi.yaml", project / "techniques" / "kits" / "standard.yaml"):
        path.write_text(path.read_text(encoding="utf-8").replace("irimi", "back"), encoding="utf-8")
    assert main(["build", str(project), "--svg", "--out", str(tmp_path / "out")]) == 0
    kit = tmp_path / "out" / "sword-duel"
    assert "Irimi" in (kit / "technique-back.svg").read_text(encoding="utf-8")
    assert "Irimi" not in (kit / "back-technique.svg").read_text(encoding="utf-8")
    assert {"back-role.svg", "back-action-a.svg", "back-action-b.svg"} <= set(os.listdir(kit))


def test_every_svg_piece_of_every_kit_has_a_name_of_its_own() -> None:
    from toolkit.registry import discover

    kits = [game.build_kit(game.load(where), "a4", lambda _: None, with_balance=False)
            for game, where in discover(None)[0]]
    assert len(kits) == 3
    for components in kits:
        names = [f"{slug}.svg" for c in components for slug, _ in c.pieces] + [f"{c.name}.pdf" for c in components]
        assert len(names) == len(set(names))
        backs = [name for name in names if "back" in name and not name.startswith(("back-", "print-test-"))]
        assert backs == []  # a back is `back-<kind>`, outside every `<kind>-<id>` namespace


def test_two_pieces_with_one_name_stop_the_build_instead_of_overwriting() -> None:
    from toolkit.errors import DuelkitError
    from toolkit.kit.component import Component
    from toolkit.kit.files import kit_files
    from toolkit.render.scene import Page

    page = Page(10, 10, [])
    twice = Component("cards", "Cards", pages=[page], pieces=[("card-x", page), ("card-x", page)])
    with pytest.raises(DuelkitError, match=r"card-x\.svg"):
        kit_files([twice], "Game", svg=True)


def _fail_inside(folder, files: dict[str, bytes] | None = None) -> None:
    """Open the output folder, write `files` as a kit when given, then fail as a command would."""
    with folder as opened:
        if files:
            opened.replace("duel-protocol", files)
        raise RuntimeError("the command failed")


def test_a_command_failing_before_it_writes_leaves_no_folder_behind(tmp_path: Path) -> None:
    """The folders an output folder had to create go again when the command fails before writing a kit;
    a folder that was already there stays, and so does anything written."""
    from toolkit.output import OutputFolder

    deep = tmp_path / "new" / "deeper" / "out"
    with pytest.raises(RuntimeError):
        _fail_inside(OutputFolder(deep, None, ["duel-protocol"]))
    assert not (tmp_path / "new").exists()
    kept = tmp_path / "kept"
    kept.mkdir()
    with pytest.raises(RuntimeError):
        _fail_inside(OutputFolder(kept, None, ["duel-protocol"]))
    assert kept.is_dir()
    written = tmp_path / "written"
    with pytest.raises(RuntimeError):
        _fail_inside(OutputFolder(written, None, ["duel-protocol"]), {"kit.pdf": b"%PDF"})
    assert (written / "duel-protocol" / "kit.pdf").read_bytes() == b"%PDF"
