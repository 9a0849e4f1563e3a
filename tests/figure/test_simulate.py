"""`duelkit simulate`: seat-swapped pairs over shared dice, honest intervals, the same results whatever --jobs."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

from toolkit.cli import main
from toolkit.figure.database import find_datasets, load_database
from toolkit.figure.engine import build_game
from toolkit.figure.sim import pool, stats
from toolkit.figure.sim.games import GameResult, PairTask, derive, play_pair
from toolkit.figure.sim.stats import games_csv, wilson

MATCH = ("hydro-conductor", "malfunction-cascade")


@pytest.fixture(scope="module")
def hydro_game():
    database = next(load_database(ds) for ds in find_datasets(None)[0] if ds.theme_id == "duel-protocol")
    return build_game(*MATCH, database)


def run(capsys, *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_wilson_interval_matches_the_textbook_values():
    low, high = wilson(5, 10)
    assert (round(low, 4), round(high, 4)) == (0.2366, 0.7634)
    low, high = wilson(0, 10)
    assert low == 0
    assert round(high, 4) == 0.2775
    low, high = wilson(400, 400)
    assert high == pytest.approx(1)
    assert 0.99 < low < 1


def test_seeds_are_derived_without_pythons_hash():
    assert derive(7, 3, "dice") == derive(7, 3, "dice") != derive(7, 4, "dice")
    assert derive(7, 3, "dice") == 0xb001b3ad1146ede2  # pinned: the same in every process, Python version and machine


def test_a_pair_swaps_the_first_player_over_the_same_dice(hydro_game):
    first, second = play_pair(hydro_game, PairTask(("random", "random"), 11, 0, record=True))
    assert (first.first, second.first) == (0, 1)
    assert (first.index, second.index) == (0, 1)
    header = [json.loads(r.record.splitlines()[0]) for r in (first, second)]
    assert header[0]["seed"] == header[1]["seed"] == derive(11, 0, "dice")
    assert header[0]["first"] == "A"
    assert header[1]["first"] == "B"


def test_results_do_not_depend_on_the_number_of_jobs(capsys):
    common = ("simulate", *MATCH, "--games", "4", "--seed", "5", "--players", "greedy,random", "--json")
    code, one, _ = run(capsys, *common, "--jobs", "1")
    assert code == 0
    code, two, _ = run(capsys, *common, "--jobs", "2")
    assert code == 0
    assert json.loads(one) == json.loads(two)


def test_json_has_the_documented_keys(capsys):
    code, out, _ = run(capsys, "simulate", *MATCH, "--games", "2", "--seed", "1", "--players", "random,greedy",
                       "--json")
    assert code == 0
    data = json.loads(out)
    for key in ("games", "wins", "draws", "interval", "first_player_wins", "victory", "mean_turns"):
        assert key in data
    assert data["games"] == 2
    assert set(data["wins"]) == {"a", "b"}
    assert data["wins"]["a"] + data["wins"]["b"] + data["draws"] == 2
    assert all(0 <= low <= high <= 1 for low, high in data["interval"].values())
    assert set(data["victory"]) == {"goal_capture", "lockout", "turn_limit", "repetition"}
    assert sum(data["victory"].values()) == 2
    assert data["wins"]["b"] == 2  # greedy beats random in both seats


def test_until_ci_stops_only_at_a_checkpoint_and_says_so(monkeypatch):
    from toolkit.figure import simulate as module
    from toolkit.game import SimulateRequest

    monkeypatch.setattr(module, "CHECKPOINT_GAMES", 4)
    database = next(load_database(ds) for ds in find_datasets(None)[0] if ds.theme_id == "duel-protocol")
    request = SimulateRequest(MATCH, 40, ("random", "random"), 3, until_ci=0.9)
    result = module.simulate(database, request, lambda _done, _total: None)
    assert result.summary["games"] == 4  # a 4-game interval is narrower than 0.9: stopped at the first checkpoint
    assert result.summary["stopping"]["rule"] == "until_ci"
    assert result.summary["stopping"]["reached"]
    assert "checked every 4 games" in result.summary["stopping"]["note"]
    request = SimulateRequest(MATCH, 8, ("random", "random"), 3, until_ci=0.01)
    result = module.simulate(database, request, lambda _done, _total: None)
    assert result.summary["games"] == 8
    assert not result.summary["stopping"]["reached"]
    assert "at the cap of 8 games" in result.summary["stopping"]["note"]


def test_out_writes_the_report_the_table_and_replayable_records(capsys, tmp_path: Path):
    code, out, err = run(capsys, "simulate", *MATCH, "--games", "4", "--seed", "2", "--players", "random,random",
                         "--out", str(tmp_path))
    assert code == 0, err
    folder = tmp_path / "hydro-conductor-vs-malfunction-cascade"
    names = {p.name for p in folder.iterdir()}
    assert {"playtest.pdf", "games.csv", "game-0001.jsonl", "game-0004.jsonl", ".duelkit-output"} <= names
    assert (folder / "playtest.pdf").read_bytes().startswith(b"%PDF")
    rows = list(csv.DictReader(io.StringIO((folder / "games.csv").read_text())))
    assert [row["game"] for row in rows] == ["1", "2", "3", "4"]
    assert [row["first"] for row in rows] == ["hydro-conductor", "malfunction-cascade"] * 2
    code, out, _ = run(capsys, "replay", str(folder / "game-0003.jsonl"))
    assert code == 0
    assert "matches the record" in out


def test_the_same_seed_gives_byte_identical_files(capsys, tmp_path: Path):
    for name in ("one", "two"):
        code, _, _ = run(capsys, "simulate", *MATCH, "--games", "2", "--seed", "9", "--players", "random,random",
                         "--out", str(tmp_path / name))
        assert code == 0
    files = sorted(p.name for p in (tmp_path / "one" / "hydro-conductor-vs-malfunction-cascade").iterdir())
    for file_name in files:
        one = (tmp_path / "one" / "hydro-conductor-vs-malfunction-cascade" / file_name).read_bytes()
        assert one == (tmp_path / "two" / "hydro-conductor-vs-malfunction-cascade" / file_name).read_bytes()


def test_games_csv_quotes_a_formula_behind_a_space_as_every_duelkit_csv_does():
    """One CSV-injection guard (toolkit.csvsafe): stats' own copy left ' =HYPERLINK(...)' live (issue 21 item 5)."""
    from types import SimpleNamespace

    game = SimpleNamespace(squad_ids=(' =HYPERLINK("http://x")', "-2+3"), modules=((), ()))
    result = GameResult(0, 0, 1, "goal_capture", 12, (0,) * 12, (0,) * 12, (0, 0), None)
    rows = list(csv.reader(io.StringIO(games_csv(game, [result]))))  # type: ignore[arg-type]
    assert rows[1][2:6] == ['\' =HYPERLINK("http://x")', "'-2+3", '\' =HYPERLINK("http://x")', "'-2+3"]
    assert (rows[1][0], rows[1][7]) == ("1", "12")  # numbers stay numbers
    assert not hasattr(stats, "neutralise")


def test_round_robin_gives_a_matrix_per_theme(capsys):
    code, out, _ = run(capsys, "simulate", "--round-robin", "--games", "2", "--seed", "1", "--players",
                       "random,random", "--json")
    assert code == 0
    data = json.loads(out)["round_robin"]
    assert {d["theme"] for d in data} == {"duel-protocol", "chimera"}
    for theme in data:
        n = len(theme["squads"])
        assert len(theme["matrix"]) == n
        assert all(len(row) == n for row in theme["matrix"])
        assert len(theme["matches"]) == n * (n + 1) // 2  # every pair once, mirror matches included


@pytest.mark.parametrize(("args", "message"), [
    (("--players", "greedy,chess"), "unknown player"),
    (("--players", "greedy,search:\u0663"), "unknown player"),  # an Arabic-Indic three is not a budget
    (("--games", "3"), "even number"),
    (("--rules", "turn_limit=abc"), "turn_limit"),
    (("--rules", "no_such=1"), "unknown rules switch"),
    (("--until-ci", "5"), "--until-ci"),
    (("--jobs", "0"), "--jobs"),
])
def test_bad_options_are_usage_errors(capsys, args, message):
    code, _, err = run(capsys, "simulate", *MATCH, "--seed", "1", "--games", "2", *args)
    assert code == 2
    assert message in err
    assert "Traceback" not in err


def test_unknown_squads_are_named(capsys):
    code, _, err = run(capsys, "simulate", "hydro-conductor", "nobody", "--games", "2")
    assert code == 2
    assert "nobody" in err


def test_a_local_ray_instance_plays_the_same_games_as_the_pool(hydro_game):
    ray = pytest.importorskip("ray", reason="Ray is not installed (pip install 'duelkit[cluster]')")
    tasks = [PairTask(("greedy", "random"), 4, pair, record=False) for pair in range(2)]
    local = pool.play_pairs(hydro_game, tasks, jobs=1)
    try:
        on_ray = pool.play_pairs(hydro_game, tasks, cluster="local")
    except pool.ClusterError as exc:
        pytest.skip(f"a local Ray instance could not start here: {exc}")
    finally:
        if ray.is_initialized():
            ray.shutdown()
    assert on_ray == local


def test_the_pool_keeps_pair_order(hydro_game):
    tasks = [PairTask(("random", "random"), 8, pair, record=False) for pair in range(4)]
    assert pool.play_pairs(hydro_game, tasks, jobs=2) == pool.play_pairs(hydro_game, tasks, jobs=1)


def test_newcombe_interval_of_a_difference():
    from toolkit.figure.sim.impact import newcombe

    low, high = newcombe(56, 70, 48, 80)  # Newcombe (1998), 56/70 - 48/80: 0.0524 to 0.3339
    assert (round(low, 4), round(high, 4)) == (0.0524, 0.3339)


def test_balance_board_options_name_themselves_and_need_board(capsys, tmp_path: Path):
    code, _, err = run(capsys, "balance", "--game", "duel-protocol", "--board-games", "4", "--seed", "3",
                       "--out", str(tmp_path / "a"))
    assert code == 2
    assert "--board-games, --seed only apply to the board-level section: add --board" in err
    code, _, err = run(capsys, "balance", "--game", "duel-protocol", "--board", "--board-games", "3",
                       "--players", "random,random", "--out", str(tmp_path / "b"))
    assert code == 2
    assert "--board-games for balance) is an even number" in err
    assert not (tmp_path / "a").exists()
    assert not (tmp_path / "b").exists()


def test_balance_board_adds_the_round_robin_and_unit_impact(capsys, tmp_path: Path):
    import pikepdf

    code, _, err = run(capsys, "balance", "--game", "duel-protocol", "--out", str(tmp_path / "plain"))
    assert code == 0, err
    code, out, err = run(capsys, "balance", "--game", "duel-protocol", "--board", "--board-games", "2",
                         "--players", "random,random", "--ladder", "random,greedy", "--out", str(tmp_path / "board"))
    assert code == 0, err
    assert "board level: 2 squads" in out
    assert "(random vs random)" in out  # the report names its players
    assert out.count("skill ladder, 2 games a rung") == 3  # each match of the round robin, at each rung
    folder = tmp_path / "board" / "duel-protocol"
    rows = list(csv.DictReader(io.StringIO((folder / "board.csv").read_text())))
    assert len(rows) == 12
    assert {row["squad"] for row in rows} == {"hydro-conductor", "malfunction-cascade"}
    assert all(float(row["impact_low"]) <= float(row["impact"]) <= float(row["impact_high"]) for row in rows)
    plain = len(pikepdf.open(tmp_path / "plain" / "duel-protocol" / "balance.pdf").pages)
    assert len(pikepdf.open(folder / "balance.pdf").pages) == plain + 2


def test_a_mirror_match_says_which_side_each_line_is_about(capsys):
    """With the same squad on both sides, 'hydro-conductor wins 11' twice would not say whose wins they are."""
    assert main(["simulate", "hydro-conductor", "hydro-conductor", "--games", "2", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "hydro-conductor (A)" in out
    assert "hydro-conductor (B)" in out
    assert "  hydro-conductor (A)" in next(line for line in out.splitlines() if " wins " in line)
    assert "hydro-conductor (B) modules used" in out
