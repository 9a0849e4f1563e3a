"""Zero-sum matrix games solved by linear programming (HiGHS).

`solve` takes one payoff matrix per opponent type the player imagines (rows: its choices; columns: that type's
choices) and maximises the average over types of what the worst column of each type leaves: the opponent knows its
own type, the player does not (a Bayesian game in which every type answers separately). With one type it is the
classic maximin strategy of a matrix game.

The first LP of a `prefer` solve is only asked for the game's value, which is unique, so it runs without HiGHS's
presolve on the game without dominated or repeated columns and rows (`_value`). The second, the preference LP,
runs without dominated columns nor rows worse everywhere and in preference, with the guarantee as a tie-break
(`_preferred`): equal optima are the rule there, and
without it the strategy was whichever vertex HiGHS reached first. Both go to HiGHS through highspy, the HiGHS
project's own binding, one quiet instance per thread reused: linprog's checks and set-up cost 5x the solve of so
small an LP. linprog (scipy's HiGHS) solves the plain game (`prefer` None: draft values, exploitability).

An LP is skipped only when its answer is certain: the value LP at a certified saddle point (`saddle_point`),
the preference LP when one row is its only optimum (`preferred_row`): in 56 recorded decisions of self-play,
21 and 25.
"""

from __future__ import annotations

import os
import sys
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import highspy
import numpy as np
from scipy.optimize import linprog

from toolkit.problems import DuelkitError


class SolverError(DuelkitError):
    """HiGHS did not find the optimum (it always exists for a finite matrix game)."""


@dataclass(frozen=True)
class Solution:
    strategy: tuple[float, ...]  # probability of each row, summing to 1
    value: float  # the guaranteed average value over the types


def _solve_lp(cost: np.ndarray, a_ub: np.ndarray, b_ub: np.ndarray, rows: int,
              presolve: bool = True) -> tuple[np.ndarray, float] | None:
    """min cost.x subject to a_ub.x <= b_ub, the first `rows` variables in [0, 1] summing to 1, the others
    free; (x, objective) or None when HiGHS reports no optimum. No `presolve` is for a value alone."""
    n = cost.size
    a_eq = np.concatenate([np.ones(rows), np.zeros(n - rows)])[None, :]
    found = linprog(cost, A_ub=a_ub, b_ub=b_ub, A_eq=a_eq, b_eq=[1.0],
                    bounds=[(0.0, 1.0)] * rows + [(None, None)] * (n - rows), method="highs",
                    options={"presolve": presolve})
    return (found.x, float(found.fun)) if found.status == 0 else None


Matrix = Sequence[Sequence[float]] | np.ndarray  # rows x columns


def solve(matrices: Sequence[Matrix], prefer: Sequence[float] | np.ndarray | None = None,
          slack: float = 1e-6) -> Solution:
    """The row player's maximin mixed strategy against every type's best columns. Many strategies often
    guarantee the same value (every choice can be punished by some column); with `prefer` (a value per row)
    a second LP picks, among the strategies guaranteeing the optimum (within `slack`), the one with the best
    preferred value and, among those, the best guarantee (`_preferred`), rather than whichever vertex the
    solver reaches first."""
    rows = len(matrices[0])
    types = len(matrices)
    if rows == 1:
        return Solution((1.0,), float(np.mean([min(m[0]) for m in matrices])))
    arrays = [np.asarray(matrix, dtype=float) for matrix in matrices]
    if prefer is None:
        # variables: x_1..x_rows, v_1..v_types; maximise mean(v) <=> minimise -sum(v)/types
        cost = np.concatenate([np.zeros(rows), -np.ones(types) / types])
        a_ub = _constraints(arrays, rows)
        found = _solve_lp(cost, a_ub, np.zeros(a_ub.shape[0]), rows)
        if found is None:
            raise SolverError("the matrix game could not be solved (HiGHS found no optimum)")
        x, value = found[0], -found[1]
    else:
        columns = None  # each type's undominated columns, once an LP needs them (both LPs run without the rest)
        saddle = saddle_point(arrays)
        if saddle is not None:  # the value is known: only the preferred strategy is solved for
            value, row = saddle
            x = np.zeros(rows)
            x[row] = 1.0  # the pure row attaining it, should the second LP fail
        else:  # only the value counts: it is the reduced game's
            columns = [undominated(a) for a in arrays]
            value, x = _value(arrays, columns)
        pure = preferred_row(arrays, prefer, value - slack)
        if pure is not None:  # the second LP's only solution: no need to run it
            x = np.zeros(rows)
            x[pure] = 1.0
        else:
            columns = [undominated(a) for a in arrays] if columns is None else columns
            x = _preferred(arrays, columns, np.asarray(prefer, dtype=float), value - slack, x)
    x = np.clip(x[:rows], 0.0, None)
    x = x / x.sum()
    return Solution(tuple(float(p) for p in x), value)


# Among strategies equally preferred, the one guaranteeing more: what a unit of guarantee is worth in preferred
# value in the preference LP's objective. Small enough to give up at most TIE_BREAK x the payoffs' spread of
# preferred value (0.002 on the -1..1 scale), large enough (against HiGHS's 1e-7 tolerances) to decide ties.
TIE_BREAK = 1e-3


def _preferred(arrays: Sequence[np.ndarray], columns: Sequence[np.ndarray], prefer: np.ndarray, floor: float,
               fallback: np.ndarray) -> np.ndarray:
    """The preference LP: a strategy (one weight per row) that guarantees `floor` on average over the types and
    maximises the preferred value plus TIE_BREAK x its guarantee (`fallback` should HiGHS find no optimum).
    It runs on the game without dominated columns, nor rows that another row is at least everywhere and in
    preference (of equal rows, the first): the same optimum from an LP about a tenth of the size. Without the
    tie-break, equal optima are the rule and the strategy would be whichever vertex HiGHS reaches first.
    `columns`: each type's undominated columns."""
    reduced = [a[:, kept] for a, kept in zip(arrays, columns, strict=True)]
    kept = undominated(-np.hstack([*reduced, prefer[:, None]]).T)
    reduced = [a[kept] for a in reduced]
    rows, types = len(kept), len(reduced)
    guarantee = np.concatenate([np.zeros(rows), -np.ones(types) / types])  # -mean(v)
    a_ub = np.vstack([_constraints(reduced, rows), guarantee[None, :]])
    b_ub = np.zeros(a_ub.shape[0])
    b_ub[-1] = -floor
    found = _highs_lp(np.concatenate([-prefer[kept], TIE_BREAK * guarantee[rows:]]), a_ub, b_ub, rows)
    if found is None:
        return fallback
    x = np.zeros(len(prefer))
    x[kept] = found[0][:rows]
    return x


def undominated(a: np.ndarray) -> np.ndarray:
    """The columns of `a` that no other column is at most everywhere (of equal columns, the first): a column
    player never needs the others, so the game's value without them is the same."""
    nowhere_above = (a[:, :, None] <= a[:, None, :]).all(axis=0)  # [k, j]: column k is nowhere above column j
    n = nowhere_above.shape[0]
    dominated = nowhere_above & (~nowhere_above.T | np.triu(np.ones((n, n), dtype=bool), 1))
    np.fill_diagonal(dominated, False)
    return np.flatnonzero(~dominated.any(axis=0))


def _value(arrays: Sequence[np.ndarray], columns: Sequence[np.ndarray] | None = None) -> tuple[float, np.ndarray]:
    """The game's value (one LP without presolve) and a maximin strategy (rows, then the types' values), from
    the game without dominated or repeated columns of each type and rows: the same value from an LP about a
    tenth of the size (self-play's 150 constraints become about 15; the values agree to 6e-15). `columns`: each
    type's undominated columns, when known."""
    columns = [undominated(a) for a in arrays] if columns is None else columns
    reduced = [a[:, kept] for a, kept in zip(arrays, columns, strict=True)]
    kept = undominated(-np.hstack(reduced).T)  # rows: none that another row is at least everywhere
    reduced = [a[kept] for a in reduced]
    rows, types = len(kept), len(reduced)
    cost = np.concatenate([np.zeros(rows), -np.ones(types) / types])
    a_ub = _constraints(reduced, rows)
    found = _highs_lp(cost, a_ub, np.zeros(a_ub.shape[0]), rows)
    if found is None:
        raise SolverError("the matrix game could not be solved (HiGHS found no optimum)")
    x = np.zeros(len(arrays[0]))
    x[kept] = found[0][:rows]
    return -found[1], x


_LOCAL = threading.local()  # each thread's HiGHS instance (the web studio plays tables in threads)
_FIRST = threading.Lock()
_made: list[object] = []  # a HiGHS instance was made in this process


def _new_highs() -> Any:
    """A HiGHS instance. Later highspy releases (1.16; not 1.12) print HiGHS's banner on stdout when a process
    makes its first one, before any option can be set; stdout carries `simulate --json` and records, so that
    first one is made with the process's stdout (file descriptor 1) on the null device for the moment it takes."""
    with _FIRST:
        if _made:
            return highspy.Highs()
        sys.stdout.flush()
        saved, null = os.dup(1), os.open(os.devnull, os.O_WRONLY)  # no file is written: output is dropped
        try:
            os.dup2(null, 1)
            highs = highspy.Highs()
        finally:
            os.dup2(saved, 1)
            os.close(saved)
            os.close(null)
        _made.append(highs)
        return highs


def _highs_lp(cost: np.ndarray, a_ub: np.ndarray, b_ub: np.ndarray, rows: int) -> tuple[np.ndarray, float] | None:
    """`_solve_lp(..., presolve=False)` through highspy: the same LP handed to HiGHS directly, by one instance
    per thread reused; (x, objective) or None when HiGHS reports no optimum."""
    highs = getattr(_LOCAL, "highs", None)
    if highs is None:
        highs = _LOCAL.highs = _new_highs()
        highs.setOptionValue("output_flag", False)  # never a word on stdout (`simulate --json` prints there)
        highs.setOptionValue("presolve", "off")
    n = cost.size
    a = np.vstack([a_ub, np.concatenate([np.ones(rows), np.zeros(n - rows)])])  # the last row: sum x = 1
    nonzero = a.T != 0  # column-wise, as HiGHS stores it
    lp = highspy.HighsLp()
    lp.num_col_, lp.num_row_ = n, a.shape[0]
    lp.col_cost_ = cost
    lp.col_lower_ = np.concatenate([np.zeros(rows), np.full(n - rows, -highspy.kHighsInf)])
    lp.col_upper_ = np.concatenate([np.ones(rows), np.full(n - rows, highspy.kHighsInf)])
    lp.row_lower_ = np.concatenate([np.full(a_ub.shape[0], -highspy.kHighsInf), [1.0]])
    lp.row_upper_ = np.concatenate([b_ub, [1.0]])
    lp.a_matrix_.format_ = highspy.MatrixFormat.kColwise
    lp.a_matrix_.num_col_, lp.a_matrix_.num_row_ = n, a.shape[0]
    lp.a_matrix_.start_ = np.concatenate([[0], np.cumsum(nonzero.sum(axis=1))]).astype(np.int32)
    lp.a_matrix_.index_ = np.nonzero(nonzero)[1].astype(np.int32)
    lp.a_matrix_.value_ = a.T[nonzero]
    highs.passModel(lp)
    highs.run()
    if highs.getModelStatus() != highspy.HighsModelStatus.kOptimal:
        return None
    return np.array(highs.getSolution().col_value), float(highs.getInfo().objective_function_value)


def _constraints(arrays: Sequence[np.ndarray], rows: int) -> np.ndarray:
    """v_t - sum_i x_i a_ij <= 0 for every type t and column j (variables: x_1..x_rows, v_1..v_types)."""
    types = len(arrays)
    blocks = []
    for t, a in enumerate(arrays):
        block = np.zeros((a.shape[1], rows + types))
        block[:, :rows] = -a.T
        block[:, rows + t] = 1.0
        blocks.append(block)
    return np.vstack(blocks)


def saddle_point(arrays: Sequence[np.ndarray]) -> tuple[float, int] | None:
    """The game's value and a pure row attaining it (a saddle point, in about half the decisions of self-play),
    or None when none is found. A row best on average over the types' worst columns guarantees that much; if
    every row does no better against one of those worst columns per type, no mixed strategy can either: so it
    is the value, and the value LP need not run. Among a row's worst columns, each type's least good for any
    row is tried (it certifies 21 of 28 pure saddles in 56 recorded decisions, against 8 for the first)."""
    worst = np.mean([a.min(axis=1) for a in arrays], axis=0)  # per row: the mean over types of its worst column
    for best in np.flatnonzero(worst == worst.max()).tolist():
        columns = []
        for a in arrays:
            ties = np.flatnonzero(a[best] == a[best].min())
            columns.append(int(ties[np.argmin(a[:, ties].max(axis=0))]))
        replies = np.mean([a[:, j] for a, j in zip(arrays, columns, strict=True)], axis=0)  # every row against them
        if replies.max() <= worst[best]:
            return float(worst[best]), best
    return None


MARGIN = 1e-6  # well above HiGHS's tolerances (1e-7): a shortcut is taken only when the LP's answer is certain


def preferred_row(arrays: Sequence[np.ndarray], prefer: Sequence[float] | np.ndarray, floor: float) -> int | None:
    """The preference LP's answer when it is a single row (about half the decisions of self-play), or None.
    A strategy's preferred value is an average of its rows', so when one row is preferred strictly to every
    other and alone guarantees the floor, putting all weight on it is the LP's only optimum."""
    values = np.asarray(prefer, dtype=float)
    best = int(np.argmax(values))
    # moving weight d off the best row loses d x the gap in preference and gains at most d x the spread of the
    # payoffs in guarantee, which the LP values at TIE_BREAK
    spread = max(float(a.max()) for a in arrays) - min(float(a.min()) for a in arrays)
    if values.size > 1 and np.partition(values, -2)[-2] > values[best] - MARGIN - TIE_BREAK * spread:
        return None  # another row is preferred about as much: the LP chooses among them
    guarantee = float(np.mean([a[best].min() for a in arrays]))
    return best if guarantee >= floor + MARGIN else None


def greedy_reply(matrix: Matrix, weights: Sequence[float]) -> int:
    """The column an opponent plays when it best-replies to rows chosen in proportion to `weights` (a greedy
    opponent facing a uniform player): the column worst for the row player on average; the first on ties."""
    averages = np.asarray(weights, dtype=float) @ np.asarray(matrix, dtype=float)
    return int(np.argmin(averages))


def guaranteed(strategy: Sequence[float], matrix: Sequence[Sequence[float]]) -> float:
    """What a mixed strategy guarantees against an opponent who knows it and answers best (its worst column)."""
    a = np.asarray(matrix, dtype=float)
    return float(np.min(np.asarray(strategy) @ a))


def exploitability(strategy: Sequence[float], matrix: Sequence[Sequence[float]]) -> float:
    """How much a best response takes from the strategy below the game's value (0 for an equilibrium)."""
    return solve([matrix]).value - guaranteed(strategy, matrix)
