"""The sword lookahead's fast paths give what the slow ones give: a whole payoff matrix is the engine's value
of every cell, a quiet turn is the logged turn without its events, and the value LP solved without presolve
leads to the solutions a presolved one gives."""

from __future__ import annotations

import random

import numpy as np
import pytest

from tests.sword.samples import TECHNIQUES
from toolkit.players import Player
from toolkit.sword.bots import lookahead, matrix
from toolkit.sword.bots.lookahead import Candidate, candidate_choices, candidates, cell_value, evaluate, payoff
from toolkit.sword.engine.duel import (
    Action,
    Choice,
    DuelState,
    PlayerState,
    legal_builds,
    legal_choices,
    new_duel,
    resolve_turn,
)
from toolkit.sword.rules.positions import Range


def _random_state(rng: random.Random) -> DuelState:
    """Any two hands of the 12 samples, any builds, resources up to Fudoshin's cap, Health, turn and range."""
    builds = legal_builds()
    start = new_duel(rng.choice(builds), rng.sample(TECHNIQUES, 2), rng.choice(builds), rng.sample(TECHNIQUES, 2),
                     honor=rng.random() < 0.8)
    players = tuple(PlayerState(p.role, p.attributes, p.techniques, rng.randint(0, 3), rng.randint(0, 6),
                                rng.randint(1, 3)) for p in start.players)
    return DuelState(rng.randint(1, 10), rng.choice(list(Range)), (players[0], players[1]), None, start.honor)


def _engine_value(state: DuelState, a: Choice, b: Choice) -> float:
    after = resolve_turn(state, a, b).state
    return 0.0 if after.result is None and state.turn >= 10 else evaluate(after, Player.A)


def _variant(state: DuelState, rng: random.Random) -> DuelState:
    """The same hands and resources with what the remembered transitions leave out or read only sometimes
    changed: Health, the turn, the builds."""
    builds = legal_builds()
    players = tuple(PlayerState(p.role, rng.choice(builds), p.techniques, p.momentum, p.balance, rng.randint(1, 3))
                    for p in state.players)
    return DuelState(rng.randint(1, 10), state.range, (players[0], players[1]), None, state.honor)


def _some(found: list[Candidate], rng: random.Random) -> list[Choice]:
    """Up to 6 attacks (the cells that read most: two attacks, evades, initiative) and 4 other choices."""
    attacks = [c.choice for c in found if c.choice.action is Action.ATTACK]
    others = [c.choice for c in found if c.choice.action is not Action.ATTACK]
    return rng.sample(attacks, min(6, len(attacks))) + rng.sample(others, min(4, len(others)))


def test_a_whole_payoff_matrix_is_the_engines_value_of_every_cell_for_either_player() -> None:
    """Each state is followed by variants the memory may answer from what the first one left: a key that
    leaves out something resolution reads would give the first state's value."""
    rng = random.Random(11)
    for _ in range(10):
        state = _random_state(rng)
        rows, cols = (_some(candidates(state, player), rng) for player in (Player.A, Player.B))
        for seen in (state, _variant(state, rng), _variant(state, rng), _variant(state, rng)):
            expected = [[_engine_value(seen, a, b) for b in cols] for a in rows]
            np.testing.assert_allclose(payoff(seen, Player.A, rows, cols), expected, atol=1e-12)
            np.testing.assert_allclose(payoff(seen, Player.B, cols, rows), -np.array(expected).T, atol=1e-12)


def test_a_matrix_valued_with_numpy_is_the_cell_by_cell_value_to_the_bit() -> None:
    """The matrix path values its packed transitions with numpy; the cell path unpacks one and values it in
    Python: the same floats (knockouts, dishonor, the turn limit, clipped leaves included), or play would drift."""
    rng = random.Random(14)
    for _ in range(12):
        state = _random_state(rng)
        rows, cols = (_some(candidates(state, player), rng) for player in (Player.A, Player.B))
        expected = [[cell_value(state, a, b) for b in cols] for a in rows]
        assert payoff(state, Player.A, rows, cols) == expected


def test_remembered_side_ids_of_a_listing_give_the_matrix_worked_out_afresh() -> None:
    """The same listing (one tuple) meets other builds, resources and hands: what is remembered of it must
    never stand for another player's side ids."""
    rng = random.Random(15)
    for _ in range(8):
        state = _random_state(rng)
        for seen in (state, _variant(state, rng), _variant(state, rng), _random_state(rng)):
            rows, cols = candidate_choices(seen, Player.A), candidate_choices(seen, Player.B)
            remembered = payoff(seen, Player.B, cols, rows)
            lookahead._SIDES.clear()
            assert payoff(seen, Player.B, list(cols), list(rows)) == remembered


def test_a_remembered_matrix_is_the_one_worked_out_afresh() -> None:
    """Whole matrices are remembered by what they read: the same listings at another Health, turn, build or
    resources must not be answered from memory."""
    rng = random.Random(17)
    for _ in range(10):
        state = _random_state(rng)
        rows, cols = candidate_choices(state, Player.A), candidate_choices(state, Player.B)
        variants = [state, _variant(state, rng), _variant(state, rng), state]
        variants += [DuelState(turn, state.range, state.players, None, state.honor) for turn in (1, 4, 9, 10)]
        for seen in variants:
            np.testing.assert_array_equal(lookahead.payoff_array(seen, Player.A, rows, cols),
                                          lookahead._worked_out(seen, rows, cols))


def test_a_quiet_turn_is_the_logged_turn_without_its_events() -> None:
    rng = random.Random(12)
    for _ in range(300):
        state = _random_state(rng)
        a, b = rng.choice(legal_choices(state, Player.A)), rng.choice(legal_choices(state, Player.B))
        logged, quiet = resolve_turn(state, a, b), resolve_turn(state, a, b, checked=True, quiet=True)
        assert quiet.state == logged.state
        assert quiet.events == ()
        assert logged.events


def test_the_preference_lp_keeps_the_best_preferred_value_then_the_best_guarantee() -> None:
    """The preference LP runs on the game without dominated columns and rows, through highspy, with a tie-break
    for the guarantee: checked against linprog's two LPs in turn on the whole game (the best preferred value
    above the floor, then the best guarantee keeping it), on random games full of ties and copies."""
    rng = np.random.default_rng(13)
    for _ in range(40):
        rows, cols = rng.integers(2, 9), rng.integers(2, 7)
        games = [rng.integers(-2, 3, size=(rows, cols)) / 2 for _ in range(3)]
        games = [np.vstack([g, g[:2]]) for g in games]  # repeated rows, as self-play's matrices have
        prefer = rng.integers(0, 3, size=rows + 2) / 2  # equal preferences are the rule
        floor = matrix.solve(games).value - 0.25
        x = np.array(matrix.solve(games, prefer=prefer, slack=0.25).strategy)
        n, types = rows + 2, len(games)
        mean_v = np.concatenate([np.zeros(n), -np.ones(types) / types])[None, :]
        a_ub, b_ub = np.vstack([matrix._constraints(games, n), mean_v]), np.zeros(types * cols + 1)
        b_ub[-1] = -floor
        best = matrix._solve_lp(np.concatenate([-prefer, np.zeros(types)]), a_ub, b_ub, n)
        assert best is not None
        keep = np.concatenate([-prefer, np.zeros(types)])[None, :]
        safest = matrix._solve_lp(mean_v[0], np.vstack([a_ub, keep]), np.concatenate([b_ub, [best[1] + 1e-9]]), n)
        assert safest is not None

        guarantee = float(np.mean([min(x @ g) for g in games]))
        assert guarantee >= floor - 1e-9
        assert prefer @ x >= -best[1] - matrix.TIE_BREAK * 2  # the payoffs' spread is at most 2
        assert prefer @ x + matrix.TIE_BREAK * guarantee >= -best[1] - matrix.TIE_BREAK * safest[1] - 1e-9


def test_a_saddle_point_has_the_value_lp_s_value() -> None:
    """The value LP is skipped only when a pure row is certified to attain the game's value: checked against
    the LP on random games with one to three types (with and without saddle points)."""
    rng = np.random.default_rng(14)
    certified = mixed = 0
    for _ in range(300):
        rows, cols = rng.integers(2, 7), rng.integers(2, 7)
        games = [rng.integers(-2, 3, size=(rows, cols)) / 2 for _ in range(rng.integers(1, 4))]
        value = matrix.solve(games).value
        saddle = matrix.saddle_point(games)
        if saddle is not None:
            assert saddle[0] == pytest.approx(value, abs=1e-9)
            assert np.mean([g[saddle[1]].min() for g in games]) == saddle[0]  # the row guarantees it
            certified += 1
        mixed += value > max(np.mean([g[i].min() for g in games]) for i in range(rows)) + 1e-9
    assert certified > 30
    assert mixed > 30


def test_a_single_preferred_row_is_what_the_preference_lp_returns(monkeypatch: pytest.MonkeyPatch) -> None:
    """The preference LP is skipped only when its answer is one row: the same strategies as with the LP
    always run, on random games where the shortcut is taken and where it is not."""
    rng = np.random.default_rng(15)
    games = []
    for k in range(80):
        rows, cols = rng.integers(2, 7), rng.integers(2, 7)
        m = [rng.integers(-2, 3, size=(rows, cols)) / 2 for _ in range(rng.integers(1, 4))]
        # half the preferences follow the rows' guarantees (as a greedy reply often does), half are anything
        guarantees = np.mean([g.min(axis=1) for g in m], axis=0)
        games.append((m, rng.random(rows) + (4 * guarantees if k % 2 else 0)))
    shortcut = [matrix.solve(m, prefer=p, slack=0.05) for m, p in games]
    taken = sum(matrix.preferred_row(m, p, matrix.solve(m).value - 0.05) is not None for m, p in games)
    monkeypatch.setattr(matrix, "preferred_row", lambda *_: None)
    for (m, p), quick in zip(games, shortcut, strict=True):
        full = matrix.solve(m, prefer=p, slack=0.05)
        assert quick.strategy == pytest.approx(full.strategy, abs=1e-9)
        assert quick.value == pytest.approx(full.value, abs=1e-9)
    assert 15 < taken < 65  # both ways are checked


def test_the_value_of_the_game_without_dominated_columns_and_rows_is_the_full_lp_s() -> None:
    """The value LP runs on the game without dominated or repeated columns and rows: the same value as the
    whole game's LP, and its strategy still guarantees it in the whole game (games full of ties and copies)."""
    rng = np.random.default_rng(16)
    smaller = 0
    for _ in range(120):
        rows, cols = rng.integers(2, 9), rng.integers(2, 9)
        games = [rng.integers(-2, 3, size=(rows, cols)) / 2 for _ in range(rng.integers(1, 4))]
        games = [np.hstack([g, g[:, :2]]) for g in games]  # repeated columns, as self-play's matrices have
        whole = matrix.solve(games).value
        value, x = matrix._value(games)
        assert value == pytest.approx(whole, abs=1e-9)
        guarantee = np.mean([min(x[: len(g)] @ g) for g in games])
        assert guarantee == pytest.approx(whole, abs=1e-9)
        smaller += sum(len(matrix.undominated(g)) for g in games) < sum(g.shape[1] for g in games)
    assert smaller == 120


def test_a_technique_edited_under_the_same_id_is_not_answered_from_the_old_ones_cells() -> None:
    """The studio and `watch` load a project again after each save: a card edited but keeping its id must be
    resolved with its new text, not with the cells the process remembers of the old one."""
    rng = random.Random(18)
    for index in range(6):
        state = _random_state(rng)
        old = state.players[0].techniques[0]
        edited = next(t for t in TECHNIQUES[index:] + TECHNIQUES if t.id != old.id).model_copy(update={"id": old.id})
        first = state.players[0]
        players = (PlayerState(first.role, first.attributes, (edited, first.techniques[1]), first.momentum,
                               first.balance, first.health), state.players[1])
        after_edit = DuelState(state.turn, state.range, players, None, state.honor)
        for seen in (state, after_edit):
            rows, cols = (_some(candidates(seen, player), rng) for player in (Player.A, Player.B))
            expected = [[_engine_value(seen, a, b) for b in cols] for a in rows]
            np.testing.assert_allclose(payoff(seen, Player.A, rows, cols), expected, atol=1e-12)
