"""Game records, replay checking, the text board, and the play/replay commands."""

from __future__ import annotations

import io
import json
import random
import sys
from pathlib import Path

import pytest

from toolkit.cli import main
from toolkit.figure.database import find_datasets, load_database
from toolkit.figure.engine import GameState, build_game
from toolkit.figure.engine.play import play_out, random_bot
from toolkit.figure.engine.record import Recorder, RecordError, make_header, parse_record, replay
from toolkit.figure.engine.render_text import render_board
from toolkit.players import PLAYERS, Player

RECORDS = Path(__file__).parents[2] / "fixtures" / "records"
# Golden records: replaying each must reach exactly this state (the engine's behaviour is pinned).
# Both include a re-spin committed in the Module Phase and other module plays, both a Purple placement choice,
# the chimera one an upgrade. After a deliberate change, `PYTHONPATH=. python scripts/golden_records.py`
# rewrites them and prints these hashes.
GOLDEN = {
    "chimera-seed-111.jsonl": "21050080015a57904cea912797aa3b60",  # B by goal capture, 34 turns
    "duel-protocol-seed-221.jsonl": "faa0128010f72f1e1252313b28e64f59",  # B by goal capture, 114 turns
}
MATCHES = {"duel-protocol": ("hydro-conductor", "malfunction-cascade"), "chimera": ("attrition-lock", "grid-surge")}


@pytest.fixture(scope="module")
def databases():
    return {ds.theme_id: load_database(ds) for ds in find_datasets(None)[0]}


def recorded_game(databases, theme: str, seed: int) -> str:
    game = build_game(*MATCHES[theme], databases[theme])
    rng = random.Random(seed)
    first = PLAYERS[rng.randrange(2)]
    recorder = Recorder(make_header(game, data=None, seed=seed, players=["random", "random"], first=first))
    state = play_out(GameState.initial(game, first), (random_bot, random_bot), rng, recorder.on_step)
    recorder.finish(state)
    return recorder.text()


@pytest.mark.parametrize(("name", "pinned"), sorted(GOLDEN.items()))
def test_golden_records_replay_to_their_pinned_state(databases, name, pinned):
    record = parse_record((RECORDS / name).read_text(encoding="utf-8"))
    game = build_game(*record.header["squads"], databases[record.header["theme"]])
    assert game.data_hash == record.header["data_hash"]
    result = replay(record, game)
    assert result.divergence is None
    assert result.result_matches is True
    assert result.state.state_hash() == pinned


def test_a_recorded_game_replays_and_the_same_seed_gives_the_same_record(databases):
    text = recorded_game(databases, "chimera", 3)
    assert text == recorded_game(databases, "chimera", 3)
    record = parse_record(text)
    game = build_game(*MATCHES["chimera"], databases["chimera"])
    result = replay(record, game)
    assert result.divergence is None
    assert result.result_matches
    assert result.checked == len(list(record.rows()))


def test_replay_reports_the_first_divergence_with_its_line(databases):
    lines = recorded_game(databases, "duel-protocol", 4).splitlines()
    index = next(i for i, line in enumerate(lines) if '"action"' in line and '"move"' in line and i > 10)
    row = json.loads(lines[index])
    row["action"] = {"kind": "upgrade", "unit": row["action"]["unit"]}  # never legal in the move phase
    lines[index] = json.dumps(row)
    record = parse_record("\n".join(lines))
    game = build_game(*MATCHES["duel-protocol"], databases["duel-protocol"])
    result = replay(record, game)
    assert result.divergence is not None
    assert result.divergence.line == index + 1


@pytest.mark.parametrize(("text", "message"), [
    ("", "empty"),
    ("not json\n", "line 1: not JSON"),
    ('{"record": "something-else"}\n', "not a duelkit game record"),
    ('{"record": "duelkit-game-record", "version": 99}\n', "version 99"),
    ('{"record": "duelkit-game-record", "version": 2, "theme": "chimera"}\n', "needs 'squads'"),
    ("[1, 2]\n", "expected a JSON object"),
])
def test_bad_records_are_located_errors(text, message):
    with pytest.raises(RecordError, match=message):
        parse_record(text)


def test_text_board_shows_units_zones_and_statuses(databases):
    game = build_game(*MATCHES["chimera"], databases["chimera"])
    state = GameState.initial(game, Player.A)
    board = render_board(state)
    assert "Goal Point A: r4c3" in board
    assert "Entry Point B: r0c0 r0c6" in board
    assert "Bench: A1 A2 A3 A4 A5 A6" in board
    assert "A1 t-grm 3 MP: Bench" in board


# ---- the command line --------------------------------------------------------------------------------------


def test_play_random_against_random_writes_a_record_that_replays(tmp_path, capsys):
    record = tmp_path / "game.jsonl"
    code = main(["play", "attrition-lock", "grid-surge", "--players", "random,random", "--seed", "9",
                 "--record", str(record)])
    out = capsys.readouterr().out
    assert code == 0
    assert "wins by" in out or "draw by" in out
    assert main(["replay", str(record)]) == 0
    out = capsys.readouterr().out
    assert "matches the record" in out
    assert main(["replay", str(record), "--turn", "3"]) == 0
    assert "the board at the start of turn 3" in capsys.readouterr().out


def test_a_human_plays_by_number_from_stdin(monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdin", io.StringIO("1\nabc\n1\nq\n"))
    code = main(["play", "hydro-conductor", "malfunction-cascade", "--seed", "1", "--first", "A"])
    captured = capsys.readouterr()
    assert code == 1
    assert "stopped by the player" in captured.err
    assert "  A2 sq-7 (3 MP) in the Hangar: deploy to\n      3. Entry Point A (r4c0)" in captured.out
    assert "A1 m-490 (1 MP) in the Hangar" not in captured.out.split("A: ")[0]  # no deploy on the first turn
    assert "'abc' is not a number" in captured.out
    assert "B: " in captured.out  # the random opponent's move is shown


def test_play_and_replay_bad_input_is_a_clear_error(tmp_path, capsys):
    assert main(["play", "nope", "grid-surge", "--players", "random,random"]) == 2
    assert "no game in the bundled data has both squads" in capsys.readouterr().err
    assert main(["play", "attrition-lock", "grid-surge", "--players", "random,robot"]) == 2
    assert "--players takes two of" in capsys.readouterr().err
    assert main(["replay", str(tmp_path / "missing.jsonl")]) == 2
    bad = tmp_path / "bad.jsonl"
    bad.write_bytes(b"\xff\xfe")
    assert main(["replay", str(bad)]) == 1
    assert "not UTF-8" in capsys.readouterr().err
    bad.write_text('{"record": "duelkit-game-record"', encoding="utf-8")
    assert main(["replay", str(bad)]) == 1
    assert "line 1: not JSON" in capsys.readouterr().err


def test_replay_of_a_diverging_record_exits_non_zero_with_the_line(tmp_path, capsys):
    record = tmp_path / "game.jsonl"
    assert main(["play", "hydro-conductor", "malfunction-cascade", "--players", "random,random", "--seed", "2",
                 "--record", str(record)]) == 0
    lines = record.read_text(encoding="utf-8").splitlines()
    index = next(i for i, line in enumerate(lines) if '"spin"' in line)
    lines[index] = lines[index].replace('"segment": ', '"segment": 9')
    record.write_text("\n".join(lines) + "\n", encoding="utf-8")
    capsys.readouterr()
    assert main(["replay", str(record)]) == 1
    assert f"game.jsonl:{index + 1}: the record diverges" in capsys.readouterr().err


@pytest.mark.parametrize(("where", "line", "message"), [
    (0, "[" * 45_000 + "]" * 45_000, "line 1: not JSON"),  # nested past the recursion limit: was exit 70
    (1, '{"turn": 1, "action": ' + "9" * 5000 + "}", "line 2: not JSON"),  # over Python's 4,300 digits: exit 70
], ids=["nested-header", "long-integer"])
def test_a_record_line_json_cannot_decode_is_a_located_error(tmp_path, capsys, where, line, message):
    record = tmp_path / "game.jsonl"
    assert main(["play", "hydro-conductor", "malfunction-cascade", "--players", "random,random", "--seed", "2",
                 "--record", str(record)]) == 0
    lines = record.read_text(encoding="utf-8").splitlines()
    lines[where] = line
    record.write_text("\n".join(lines) + "\n", encoding="utf-8")
    capsys.readouterr()
    assert main(["replay", str(record)]) == 1
    err = capsys.readouterr().err
    assert message in err
    assert "internal error" not in err


def test_play_never_replaces_a_link_folder_or_fifo_given_as_the_record(tmp_path, capsys):
    """`--record` used to rename its file over whatever had the name: as root, `--record /dev/full`
    replaced the device with a regular file. Now it is refused before the game starts."""
    import os

    target = tmp_path / "kept.txt"
    target.write_text("mine", encoding="utf-8")
    (tmp_path / "link.jsonl").symlink_to(target)
    (tmp_path / "folder.jsonl").mkdir()
    os.mkfifo(tmp_path / "fifo.jsonl")
    for name, what in (("link.jsonl", "a symbolic link"), ("folder.jsonl", "a folder"),
                       ("fifo.jsonl", "not a regular file")):
        code = main(["play", "hydro-conductor", "malfunction-cascade", "--players", "random,random", "--seed", "2",
                     "--record", str(tmp_path / name)])
        captured = capsys.readouterr()
        assert code == 2
        assert what in captured.err
        assert "wins by" not in captured.out  # refused before playing
        assert "draw by" not in captured.out
    assert (tmp_path / "link.jsonl").is_symlink()
    assert target.read_text(encoding="utf-8") == "mine"
    assert (tmp_path / "folder.jsonl").is_dir()
    assert (tmp_path / "fifo.jsonl").is_fifo()
    assert sorted(path.name for path in tmp_path.iterdir()) == ["fifo.jsonl", "folder.jsonl", "kept.txt", "link.jsonl"]


def test_replay_uses_the_project_you_stand_in_never_the_folder_a_record_names(tmp_path, capsys, monkeypatch):
    """A record is a file anyone can send: its `data` path is named in the hint, never read."""
    project = tmp_path / "mygame"
    assert main(["new", str(project), "--theme", "chimera", "--from-bundled"]) == 0
    unit = project / "unit_data" / "a-sqt.yaml"
    unit.write_text(unit.read_text(encoding="utf-8").replace("mp: 3", "mp: 2"), encoding="utf-8")  # not the demo
    record = tmp_path / "game.jsonl"
    monkeypatch.chdir(project)
    assert main(["play", "attrition-lock", "grid-surge", "--players", "random,random", "--seed", "4",
                 "--record", str(record)]) == 0
    assert main(["replay", str(record)]) == 0  # inside the project: its data
    assert "matches the record" in capsys.readouterr().out

    elsewhere = tmp_path / "elsewhere"
    (elsewhere / "unit_data").mkdir(parents=True)
    (elsewhere / "duelkit.yaml").write_text("theme: chimera\n", encoding="utf-8")
    (elsewhere / "unit_data" / "leak.yaml").write_text("id: SECRET-LINE-OF-ANOTHER-FOLDER\n", encoding="utf-8")
    lines = record.read_text(encoding="utf-8").splitlines()
    header = json.loads(lines[0])
    header["data"] = str(elsewhere)
    record.write_text("\n".join([json.dumps(header), *lines[1:]]) + "\n", encoding="utf-8")
    capsys.readouterr()
    assert main(["replay", str(record)]) == 0  # still the project's data: the folder named is not read
    assert "SECRET" not in capsys.readouterr().err

    outside = tmp_path / "outside"
    outside.mkdir()
    monkeypatch.chdir(outside)  # the demo data: the record's data hash does not match
    assert main(["replay", str(record)]) == 1
    err = capsys.readouterr().err
    assert "SECRET" not in err
    assert "data has changed" in err
    assert f"played with the data in '{elsewhere}': give that folder as --data" in err
    assert main(["replay", str(record), "--data", str(project)]) == 0
