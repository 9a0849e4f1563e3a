"""What simulations let a designer conclude: the ladder's verdict, degenerate-run warnings, the paired
before/after comparison and the designer metrics (on hand-made results, so every branch is pinned)."""

from __future__ import annotations

import json

from toolkit.cli import main
from toolkit.figure.sim.games import GameMetrics, GameResult
from toolkit.figure.sim.metrics import designer_metrics
from toolkit.figure.sim.verdict import ladder_verdict, paired_difference, warnings


def result(index: int, winner: int, turns: int = 20, reason: str = "goal_capture", metrics: GameMetrics | None = None):
    return GameResult(index, index % 2, winner, reason, turns, (0,) * 12, (0,) * 12, (0, 0), None, metrics)


def rung(players: str, wins_a: int, wins_b: int, first_low: float, first_high: float, squads=("x", "y")):
    return {"players": {"a": players, "b": players}, "squads": {"a": squads[0], "b": squads[1]},
            "wins": {"a": wins_a, "b": wins_b}, "first_player_rate": (first_low + first_high) / 2,
            "first_player_interval": [first_low, first_high]}


def test_a_verdict_is_stable_only_when_the_two_strongest_rungs_agree():
    rungs = [rung("random", 50, 50, 0.4, 0.6), rung("greedy", 80, 20, 0.6, 0.8), rung("search:10", 30, 70, 0.2, 0.45),
             rung("search:20", 28, 72, 0.3, 0.48)]
    verdict = ladder_verdict(rungs)
    assert verdict["favoured"] == "y"
    assert verdict["first_player_edge"] == "second"
    assert verdict["stable"] is True
    assert verdict["changes_below_top"] == ["random", "greedy"]
    verdict = ladder_verdict([*rungs[:3], rung("search:20", 50, 50, 0.4, 0.6)])
    assert verdict["stable"] is False
    assert "depends on the players' strength" in verdict["note"]


def test_a_mirror_match_favours_no_squad():
    mirror = ("x", "x")
    verdict = ladder_verdict([rung("greedy", 70, 30, 0.6, 0.8, mirror), rung("search", 60, 40, 0.4, 0.7, mirror)])
    assert [r["favoured"] for r in verdict["rungs"]] == ["mirror", "mirror"]
    assert verdict["rungs"][0]["first_player_edge"] == "first"
    assert verdict["rungs"][1]["first_player_edge"] == "none"


def test_degenerate_runs_are_named_with_what_to_try():
    same = [result(i, i % 2, turns=4) for i in range(20)]  # the first player always wins, on turn 4, by goal
    found = " | ".join(warnings(same, ("greedy", "greedy")))
    assert "every game lasted exactly 4 turns" in found
    assert "first player won 100%" in found
    assert "20 of 20 games were over before turn 6" in found
    assert "every game ended the same way (goal capture)" in found
    assert "--players search,search" in found
    assert "--ladder" in found
    varied = [result(i, (i // 3) % 2, turns=10 + i, reason=("goal_capture", "lockout")[i % 2]) for i in range(20)]
    assert warnings(varied, ("search", "search")) == []


def test_a_paired_difference_counts_only_what_changed_between_the_versions():
    old = [result(i, 0 if i < 10 else 1) for i in range(20)]
    new = [result(i, 0 if i < 16 else 1) for i in range(20)]
    change = paired_difference(new, old, 0)
    assert change["difference"] == 0.3
    low, high = change["difference_interval"]
    assert 0 < low < 0.3 < high
    assert paired_difference(old, old, 0)["difference_interval"] == [0.0, 0.0]


def test_designer_metrics_add_up_the_games():
    games = [result(0, 0, 10, metrics=GameMetrics(10, 100, 8, 2, 0.2, 30, 60)),
             result(1, -1, 20, metrics=GameMetrics(10, 300, 2, 0, 0.0, 60, 60))]
    m = designer_metrics(games)
    assert m["branching_factor"] == 20.0
    assert m["real_choice_share"] == 0.5
    assert m["lead_changes_per_game"] == 1.0
    assert m["drama"] == 0.2  # decisive games only
    assert m["board_coverage"] == 0.75
    assert m["length_stdev"] == 5.0


def test_simulate_ladder_plays_each_rung_and_prints_the_verdict(capsys):
    code = main(["simulate", "hydro-conductor", "malfunction-cascade", "--games", "2", "--seed", "2",
                 "--ladder", "random,greedy", "--json"])
    out = capsys.readouterr().out
    assert code == 0
    summary = json.loads(out)
    assert [s["players"]["a"] for s in summary["ladder"]] == ["random", "greedy"]
    assert [s["games"] for s in summary["ladder"]] == [2, 2]
    assert set(summary["verdict"]) >= {"favoured", "first_player_edge", "stable", "rungs"}
    assert all("designer" in s and "warnings" in s for s in summary["ladder"])
    code = main(["simulate", "hydro-conductor", "malfunction-cascade", "--games", "2", "--seed", "2",
                 "--ladder", "random,greedy"])
    text = capsys.readouterr().out
    assert "skill ladder, 2 games a rung" in text
    assert "verdict at the top rung (greedy)" in text


def test_simulate_baseline_pairs_the_same_seeds_on_another_project(capsys, tmp_path):
    for name in ("old", "new"):
        assert main(["new", str(tmp_path / name), "--from-bundled"]) == 0
    unit = tmp_path / "new" / "unit_data" / "m-490.yaml"
    unit.write_text(unit.read_text().replace("mp: 1", "mp: 3"))
    capsys.readouterr()
    code = main(["simulate", "hydro-conductor", "malfunction-cascade", str(tmp_path / "new"), "--games", "2",
                 "--seed", "4", "--baseline", str(tmp_path / "old"), "--json"])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    baseline = json.loads(captured.out)["baseline"]
    assert set(baseline["difference"]) == {"a", "b"}
    assert baseline["pairs"] == 1
    low, high = baseline["difference_interval"]["a"]
    assert low <= baseline["difference"]["a"] <= high
    same = main(["simulate", "hydro-conductor", "malfunction-cascade", str(tmp_path / "old"), "--games", "2",
                 "--seed", "4", "--baseline", str(tmp_path / "old"), "--json"])
    assert same == 0
    assert json.loads(capsys.readouterr().out)["baseline"]["difference"] == {"a": 0.0, "b": 0.0}


def test_lead_changes_ignore_the_side_to_move_and_drama_measures_the_winners_shortfall():
    from toolkit.figure.sim.games import _drama, _lead_changes

    assert _lead_changes([0.6, 0.45, 0.6, 0.45]) == 0  # the mover's edge alone: nobody is really ahead
    assert _lead_changes([0.7, 0.7, 0.3, 0.3, 0.8, 0.8]) == 2
    assert abs(_drama([0.4, 0.6], 0) - 0.1) < 1e-12  # behind by 0.1 on one of two turn starts
    assert abs(_drama([0.4, 0.6], 1) - 0.1) < 1e-12
    assert _drama([0.4, 0.6], -1) == 0.0

