"""simulate, balance, play and replay in a sword-duel project made by `duelkit new`."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pikepdf
import pytest

from toolkit.cli import main


def run(capsys, *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.fixture(scope="module")
def project(tmp_path_factory) -> Path:
    target = tmp_path_factory.mktemp("sword") / "duel"
    assert main(["new", str(target), "--theme", "sword-duel"]) == 0
    return target


def test_simulate_plays_seat_swapped_pairs_and_reports_the_figure_games_keys(capsys, project: Path) -> None:
    code, out, err = run(capsys, "simulate", str(project), "--games", "6", "--players", "greedy,random",
                         "--seed", "3", "--json")
    assert code == 0, err
    s = json.loads(out)
    for key in ("games", "win_rate", "interval", "draws", "victory", "challenger_rate", "challenger_interval",
                "mean_turns", "turns", "stopping"):
        assert key in s
    assert s["games"] == 6
    assert s["pairs"] == 3
    assert s["wins"]["a"] + s["wins"]["b"] + s["draws"] == 6
    assert set(s["victory"]) == {"knockout", "dishonor", "double_knockout", "double_dishonor", "time"}
    assert sum(s["victory"].values()) == 6
    assert s["wins"]["a"] > s["wins"]["b"]  # greedy beats random
    low, high = s["interval"]["a"]
    assert low <= s["win_rate"]["a"] <= high


def test_simulate_results_do_not_depend_on_the_order_of_pairs_or_jobs(capsys, project: Path) -> None:
    first = run(capsys, "simulate", str(project), "--games", "8", "--players", "random,random", "--seed", "9",
                "--json")[1]
    again = run(capsys, "simulate", str(project), "--games", "8", "--players", "random,random", "--seed", "9",
                "--json", "--jobs", "2")[1]
    assert json.loads(first) == json.loads(again)


def test_builds_and_techniques_fix_the_setup(capsys, project: Path, tmp_path: Path) -> None:
    code, out, err = run(capsys, "simulate", str(project), "--games", "4", "--players", "random,random",
                         "--seed", "1", "--builds", "glass-cannon,2/2/2", "--techniques", "irimi+mushin,kuzushi",
                         "--json", "--out", str(tmp_path / "o"))
    assert code == 0, err
    s = json.loads(out)
    assert s["builds"]["a"] == {"1/4/1": {"games": 4, "wins": s["wins"]["a"]}}
    assert set(s["techniques"]["b"]) == {"kuzushi"}
    folder = next((tmp_path / "o").iterdir())
    rows = list(csv.DictReader((folder / "duels.csv").open(encoding="utf-8")))
    assert [row["hand_a"] for row in rows] == ["irimi+mushin"] * 4
    assert {row["challenger"] for row in rows} == {"a", "b"}
    record = folder / "duel-0001.jsonl"
    code, out, err = run(capsys, "replay", str(record), "--data", str(project))
    assert code == 0, err
    assert "the record replays" in out


@pytest.mark.parametrize(("options", "message"), [
    (["--builds", "5/1/0"], "not 1..4"),
    (["--builds", "nobody"], "unknown build 'nobody'"),
    (["--techniques", "irimi+nothing"], "unknown technique 'nothing'"),
    (["--players", "random,search"], "unknown sword-duel player"),
    (["--games", "3"], "even number"),
    (["--round-robin"], "no squads"),
])
def test_bad_options_are_usage_errors(capsys, project: Path, options: list[str], message: str) -> None:
    code, _, err = run(capsys, "simulate", str(project), "--games", "2", *options)
    assert code == 2
    assert message in err
    assert "Traceback" not in err


def test_play_records_a_duel_that_replays_and_a_tampered_line_is_named(capsys, project: Path, tmp_path: Path) -> None:
    record = tmp_path / "duel.jsonl"
    code, out, err = run(capsys, "play", str(project), "--players", "random,greedy", "--seed", "5", "--record",
                         str(record))
    assert code == 0, err
    assert "Result:" in out
    code, out, err = run(capsys, "replay", str(record), "--data", str(project))
    assert code == 0, err
    lines = record.read_text(encoding="utf-8").splitlines()
    turn = next(i for i, line in enumerate(lines) if line.startswith('{"turn": 1,'))
    item = json.loads(lines[turn])
    item["A"] = {"move": "advance", "technique": 0, "action": "defend", "insight": "speed"}
    lines[turn] = json.dumps(item)
    record.write_text("\n".join(lines) + "\n", encoding="utf-8")
    code, out, err = run(capsys, "replay", str(record), "--data", str(project))
    assert code == 1
    assert f"{record}:{turn + 1}:" in err


def test_hot_seat_clears_the_screen_before_each_secret_choice(capsys, project: Path, monkeypatch) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("1\n" * 3000))
    code, out, err = run(capsys, "play", str(project), "--players", "human,human", "--seed", "2")
    assert code == 0, err
    blocks = out.split("\n" * 40)
    assert len(blocks) > 6  # every draft step, build and turn choice starts on a cleared screen
    for block in blocks[1:]:
        assert block.lstrip("\n").startswith(("The Challenger (A) takes the seat", "The Defender (B) takes the seat",
                                              "Both choices are in"))
    # nothing the first player chose shows on the second player's screen before the reveal
    for block in blocks:
        if block.lstrip("\n").startswith("The Defender (B) takes the seat"):
            assert " plays " not in block


def test_balance_writes_the_report_and_neutralised_csvs(capsys, project: Path, tmp_path: Path) -> None:
    out_dir = tmp_path / "bal"
    code, out, err = run(capsys, "balance", str(project), "--board-games", "2", "--players", "random,random",
                         "--out", str(out_dir))
    assert code == 0, err
    folder = out_dir / "sword-duel"
    with pikepdf.open(folder / "balance.pdf") as pdf:
        assert len(pdf.pages) == 3
    techniques = list(csv.DictReader((folder / "techniques.csv").open(encoding="utf-8")))
    assert len(techniques) == 10
    matchups = list(csv.DictReader((folder / "matchups.csv").open(encoding="utf-8")))
    assert len(matchups) == 100
    assert "techniques, strongest first" in out
    assert "the honor rule" in out
