"""Answers to the questions designers ask: one unit against all, "did you mean", where the odds come from
(segment by segment), and a balance.csv that says who stands out and why."""

from __future__ import annotations

import csv
import io
import json
from fractions import Fraction
from pathlib import Path

from toolkit.cli import main


def run(capsys, *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_vs_all_ranks_the_unit_against_every_other_unit(capsys) -> None:
    code, out, _ = run(capsys, "odds", "v-k4", "--vs", "all", "--json")
    assert code == 0
    rows = json.loads(out)["defenders"]
    assert len(rows) == 19
    assert "v-k4" not in {row["defender"] for row in rows}
    ratings = [row["rating"] for row in rows]
    assert ratings == sorted(ratings, reverse=True)  # best matchup first
    sq7 = next(row for row in rows if row["defender"] == "sq-7")
    code, out, _ = run(capsys, "odds", "v-k4", "sq-7", "--json")
    single = json.loads(out)["exact"]
    # the columns are the single battle's knockout, effect and being knocked out, kept apart
    assert sq7["exact"]["knockout"] == single["defender_deactivated"]
    assert sq7["exact"]["effect"] == single["attacker_effect"]
    assert sq7["exact"]["knocked_out"] == single["attacker_deactivated"]
    assert Fraction(sq7["exact"]["dodge"]) == Fraction(16, 96) * Fraction(96 - 52, 96)  # Dodge vs non-Blue


def test_vs_all_as_text_has_one_column_per_consequence(capsys) -> None:
    code, out, _ = run(capsys, "odds", "v-k4", "--vs", "all")
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "Volt-Class Unit V-K4 (v-k4) attacks each of 19 other units, best matchup first"
    header = next(line for line in lines if "defender" in line).split()
    assert header == ["#", "defender", "knocks", "out", "effect", "dodges", "deactivated", "rating"]
    assert lines[-1].split()[0] == "average"


def test_an_unknown_unit_gets_a_did_you_mean(capsys) -> None:
    code, _, err = run(capsys, "odds", "v-k5", "sq-7")
    assert code == 2
    assert "no unit 'v-k5'" in err
    assert "did you mean 'v-k4'" in err
    code, _, err = run(capsys, "odds", "v-k4", "--vs", "sq7")
    assert code == 2
    assert "did you mean 'sq-7'" in err
    code, _, err = run(capsys, "odds", "v-k4", "sq-7", "--module", "x-atack")
    assert code == 2
    assert "did you mean 'x-attack'" in err
    code, _, err = run(capsys, "odds", "v-k4", "sq-7", "--vs", "all")
    assert code == 2
    assert "not both" in err
    code, _, err = run(capsys, "odds", "v-k4")
    assert code == 2
    assert "--vs all" in err


def test_the_text_output_shows_where_the_odds_come_from_segment_by_segment(capsys) -> None:
    code, out, _ = run(capsys, "odds", "v-k4", "sq-7")
    assert code == 0
    table = out[out.index("segment by segment"):].splitlines()[2:]
    assert len(table) == 6 * 3  # every pair of the two wheels
    assert any(line.split() == ["Thunder", "Shock", "(W", "30)", "Withdraw", "(B)", "13.54", "%", "sq-7", "dodges"]
               for line in table)
    assert any("Thunder Wave (P *)" in line and "v-k4 wins: sq-7 gets EMP Static" in line for line in table)
    total = sum(float(line.split("%")[0].split()[-1]) for line in table)
    assert abs(total - 100) < 0.05


def test_confusion_shows_its_self_hit_spin_in_the_table(capsys) -> None:
    code, out, _ = run(capsys, "odds", "v-k4", "sq-7", "--attacker-status", "confusion")
    assert code == 0
    assert "(confusion: self-hit spin)" in out
    assert "v-k4 hits itself" in out


def _balance_csv(capsys, project: Path, theme: str) -> list[dict[str, str]]:
    assert main(["balance", str(project)]) == 0
    capsys.readouterr()
    path = project / "output" / "balance" / theme / "balance.csv"
    return list(csv.DictReader(io.StringIO(path.read_text(encoding="utf-8"))))


def test_balance_csv_has_mp_and_class_and_drops_columns_that_never_vary(capsys, tmp_path: Path) -> None:
    assert main(["balance", "--game", "chimera", "--game", "duel-protocol", "--out", str(tmp_path)]) == 0
    capsys.readouterr()
    chimera = list(csv.DictReader(io.StringIO((tmp_path / "chimera" / "balance.csv").read_text())))
    assert {"mp", "class", "rating", "knockouts"} <= set(chimera[0])
    # nobody is an outlier in chimera: the column would be all 0; attack_win repeats win_rating
    assert "outlier" not in chimera[0]
    assert "attack_win" not in chimera[0]
    assert "defend_win" not in chimera[0]
    protocol = list(csv.DictReader(io.StringIO((tmp_path / "duel-protocol" / "balance.csv").read_text())))
    z0 = next(row for row in protocol if row["id"] == "z-0")
    assert (z0["mp"], z0["class"], z0["outlier"]) == ("2", "UX", "1")
    assert z0["outlier_why"].startswith("driven by: knocks out 33% of battles (database average 18%)")
    assert z0["outlier_why"].endswith("no other unit has MP 2, class UX")


def test_an_outlier_is_compared_with_the_units_of_its_mp_and_class(capsys, base_project: Path) -> None:
    more = base_project / "unit_data" / "more.yaml"
    text = more.read_text()
    bravo = text.index("id: bravo")
    more.write_text(text[:bravo] + text[bravo:].replace("class: C", "class: UX", 1))  # bravo joins foxtrot
    rows = _balance_csv(capsys, base_project, "duel-protocol")
    foxtrot = next(row for row in rows if row["id"] == "foxtrot")
    assert foxtrot["outlier_why"].startswith("driven by: is knocked out only 2% of battles")
    assert "against the other unit with MP 1, class UX: rating +0.19 vs -0.13" in foxtrot["outlier_why"]


def test_odds_on_a_unit_whose_file_has_errors_points_at_validate(capsys, tmp_path: Path) -> None:
    """Issue 21 item 5: not "no unit 'spark' in this data" when spark's own file fails to load."""
    project = tmp_path / "p"
    assert main(["new", str(project)]) == 0
    spark = project / "unit_data" / "spark.yaml"
    spark.write_text(spark.read_text(encoding="utf-8").replace("mp: 2 ", "mp: 9 "), encoding="utf-8")
    capsys.readouterr()
    code, _, err = run(capsys, "odds", "spark", "ember", "--data", str(project))
    assert code == 1
    assert "unit 'spark'" in err
    assert "has problems in its file" in err
    assert "`duelkit validate` lists them" in err
    assert "no unit" not in err
