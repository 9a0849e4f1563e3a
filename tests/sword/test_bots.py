"""Sword-duel players: the matrix-game solver, what a player may know, and how the players choose."""

from __future__ import annotations

import random
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest
import yaml

from toolkit.players import Player
from toolkit.problems import UsageError
from toolkit.sword.bots import EquilibriumBot, GreedyBot, RandomBot, make_bot
from toolkit.sword.bots.lookahead import candidates, cell_value, evaluate
from toolkit.sword.bots.matrix import exploitability, greedy_reply, guaranteed, solve
from toolkit.sword.bots.observation import Observation, all_hands
from toolkit.sword.engine.duel import Attributes, legal_choices, new_duel
from toolkit.sword.model import Technique
from toolkit.sword.rules.positions import Range

TECHNIQUES = {path.stem: Technique.model_validate(yaml.safe_load(path.read_text(encoding="utf-8")))
              for path in sorted((Path(__file__).resolve().parents[2] / "techniques").glob("*.yaml"))}
DECK = ("fudoshin", "irimi", "kuzushi", "ma-ai", "mizu-no-kokoro", "mushin", "nagashi", "sen-sen-no-sen",
        "tsubame-gaeshi", "tsuki-kage")


def test_rock_paper_scissors_is_solved_to_the_uniform_mix() -> None:
    found = solve([[[0, -1, 1], [1, 0, -1], [-1, 1, 0]]])
    assert found.value == pytest.approx(0.0, abs=1e-9)
    assert found.strategy == pytest.approx((1 / 3, 1 / 3, 1 / 3), abs=1e-6)
    assert exploitability(found.strategy, [[0, -1, 1], [1, 0, -1], [-1, 1, 0]]) == pytest.approx(0.0, abs=1e-9)


def test_a_pure_strategy_in_rock_paper_scissors_is_exploited_by_a_full_point() -> None:
    assert exploitability((1.0, 0.0, 0.0), [[0, -1, 1], [1, 0, -1], [-1, 1, 0]]) == pytest.approx(1.0)


def test_a_dominant_row_is_played_for_sure() -> None:
    found = solve([[[1, 2], [0, 0]]])
    assert found.strategy == pytest.approx((1.0, 0.0))
    assert found.value == pytest.approx(1.0)


def test_two_opponent_types_each_answer_with_their_own_best_column() -> None:
    # type 1 punishes row 0, type 2 punishes row 1: an even mix guarantees 0.5 against either
    found = solve([[[0, 1], [1, 1]], [[1, 1], [1, 0]]])
    assert found.value == pytest.approx(0.5, abs=1e-6)
    assert guaranteed(found.strategy, [[0, 1], [1, 1]]) + guaranteed(found.strategy, [[1, 1], [1, 0]]) == \
        pytest.approx(1.0, abs=1e-6)


def test_among_equally_safe_strategies_the_one_better_against_a_uniform_opponent_is_kept() -> None:
    matrix = [[0, 0], [0, 1]]  # both rows guarantee 0; the second can also win
    assert solve([matrix], prefer=[0.0, 0.5]).strategy == pytest.approx((0.0, 1.0))
    assert solve([matrix], prefer=[0.0, 0.5]).value == pytest.approx(0.0)


def test_among_equally_preferred_strategies_the_safer_one_is_kept() -> None:
    # matching pennies with both rows preferred alike and any guarantee allowed: the even mix guarantees 0, a pure
    # row -1; the solver's first vertex would be a pure row
    found = solve([[[1, -1], [-1, 1]]], prefer=[0.0, 0.0], slack=1.0)
    assert found.strategy == pytest.approx((0.5, 0.5), abs=1e-6)
    # two imagined opponents: a row one of them punishes is given up for the row neither can
    games = [[[1, -1], [0, 1], [1, 1]], [[1, 1], [1, -1], [1, 1]]]
    assert solve(games, prefer=[1.0, 1.0, 1.0], slack=1.0).strategy == pytest.approx((0.0, 0.0, 1.0), abs=1e-6)


def test_the_first_lp_of_a_process_writes_nothing_on_stdout() -> None:
    """Newer highspy releases print HiGHS's banner when a process makes its first solver; stdout carries
    `simulate --json`, so it must stay empty."""
    code = ("from toolkit.sword.bots.matrix import solve; "
            "print(solve([[[1.0, -1.0], [-1.0, 1.0]]], prefer=[0.0, 0.0]).strategy, file=__import__('sys').stderr)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300,
                          cwd=Path(__file__).resolve().parents[2])
    assert done.returncode == 0, done.stderr
    assert "0.5" in done.stderr  # the LP ran
    assert done.stdout == ""


def test_a_greedy_opponent_answers_a_uniform_player_with_its_best_column_on_average() -> None:
    # against rows chosen evenly the column player likes column 1 (average 0 for the rows) over 0 (0.5)
    assert greedy_reply([[1, -1], [0, 1]], [1, 1]) == 1
    # rows weighted 3:1 (an Insight row stands for four choices) change the answer
    assert greedy_reply([[1, 0], [0, 2]], [3, 1]) == 1
    assert greedy_reply([[1, 0], [0, 2]], [1, 3]) == 0


def test_the_safety_margin_trades_a_bounded_part_of_the_value_for_the_preferred_strategy() -> None:
    matrix = [[0.0, 0.0], [-0.04, 1.0]]  # row 0 guarantees 0; row 1 gives up 0.04 but wins big otherwise
    assert solve([matrix], prefer=[0.0, 1.0]).strategy == pytest.approx((1.0, 0.0), abs=1e-4)
    safe = solve([matrix], prefer=[0.0, 1.0], slack=0.05)
    assert safe.strategy == pytest.approx((0.0, 1.0), abs=1e-6)
    assert guaranteed(safe.strategy, matrix) >= safe.value - 0.05


def _duel(a: tuple[str, str] = ("irimi", "mushin"), b: tuple[str, str] = ("kuzushi", "fudoshin"),
          b_build: tuple[int, int, int] = (1, 4, 1)):
    return new_duel(Attributes(2, 2, 2), [TECHNIQUES[t] for t in a], Attributes(*b_build), [TECHNIQUES[t] for t in b])


def _seen(state, player: Player = Player.A) -> Observation:
    return Observation(player, state, all_hands(list(DECK)), frozenset(), TECHNIQUES)


def test_a_player_never_reads_the_opponents_hidden_build_or_hand() -> None:
    """Two duels that differ only in what the Challenger cannot see give the same decisions."""
    one = _duel()
    other = _duel(b=("mizu-no-kokoro", "ma-ai"), b_build=(4, 1, 1))
    for player in (GreedyBot(), EquilibriumBot(2)):
        first = player.choose(_seen(one), random.Random(5))
        second = player.choose(_seen(other), random.Random(5))
        assert first == second


def test_insight_narrows_the_builds_a_player_imagines() -> None:
    state = _duel()
    me = replace(state.players[0], knows=replace(state.players[0].knows, strength=4))
    seen = _seen(replace(state, players=(me, state.players[1])))
    assert {b.strength for b in seen.possible_builds()} == {4}
    assert len(_seen(state).possible_builds()) == 10


def test_revealed_techniques_narrow_the_hands_a_player_imagines() -> None:
    seen = replace(_seen(_duel()), revealed=frozenset({"kuzushi"}))
    assert seen.possible_hands()
    assert all("kuzushi" in hand for hand in seen.possible_hands())


def test_the_equilibrium_strategy_is_a_distribution_over_legal_choices_and_sampled_with_the_players_rng() -> None:
    state = replace(_duel(), range=Range.SWORD)
    rows, strategy = EquilibriumBot(2).strategy(_seen(state), random.Random(1))
    legal = set(legal_choices(state, Player.A))
    assert set(rows) <= legal
    assert sum(strategy) == pytest.approx(1.0)
    assert min(strategy) >= 0.0
    player = EquilibriumBot(2)
    assert player.choose(_seen(state), random.Random(9)) == player.choose(_seen(state), random.Random(9))


def test_greedy_takes_a_free_kill() -> None:
    """At Close Combat against a 1-Health opponent, greedy attacks (any landed blow wins)."""
    state = replace(_duel(), range=Range.CLOSE)
    foe = replace(state.players[1], health=1)
    state = replace(state, players=(state.players[0], foe))
    choice = GreedyBot().choose(_seen(state), random.Random(3))
    assert choice.action is not None
    assert choice.action.value == "attack"


def test_candidates_fold_the_four_insight_targets_into_one() -> None:
    state = _duel()
    folded = candidates(state, Player.A)
    assert sum(c.weight for c in folded) == len(legal_choices(state, Player.A))
    assert len(folded) < len(legal_choices(state, Player.A))


def test_a_cell_agrees_with_the_engine_whatever_the_health() -> None:
    """Remembered transitions leave Health out; the value must still be the engine's."""
    from toolkit.sword.engine.duel import resolve_turn

    rng = random.Random(4)
    for _ in range(200):
        state = replace(_duel(), range=rng.choice(list(Range)), turn=rng.randint(1, 10))
        players = tuple(replace(p, health=rng.randint(1, 3), momentum=rng.randint(0, 3), balance=rng.randint(0, 3))
                        for p in state.players)
        state = replace(state, players=players)
        a = rng.choice(legal_choices(state, Player.A))
        b = rng.choice(legal_choices(state, Player.B))
        after = resolve_turn(state, a, b).state
        expected = 0.0 if after.result is None and state.turn >= 10 else evaluate(after, Player.A)
        assert cell_value(state, a, b) == pytest.approx(expected)


def test_player_names() -> None:
    assert isinstance(make_bot("random"), RandomBot)
    assert make_bot("equilibrium:4").name == "equilibrium:4"
    with pytest.raises(UsageError, match="unknown sword-duel player"):
        make_bot("search")
    with pytest.raises(UsageError):
        make_bot("equilibrium:0")
    with pytest.raises(UsageError, match="unknown sword-duel player"):
        make_bot("equilibrium:\u0664")  # an Arabic-Indic four is not a depth
