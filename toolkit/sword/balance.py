"""`duelkit balance` on a sword-duel project: what self-play says about the techniques, builds and honor rule.

- Technique against technique: every pair of the draft (a mirror too), each player holding one technique
  twice so the duel measures the technique and not its partner, builds chosen by the players.
- A technique's rating: its score (wins + half the draws) over all its duels against other techniques.
- Builds: the score of each build over every duel of the table (the players choose builds uniformly, so
  every build meets the same field).
- The honor rule: whole drafted duels with the rule and without it (Retreat never loses), side by side.
- Outliers: a technique or build whose interval lies wholly off 50%, with the matchups or attributes that
  drive it and the linter's findings on its card.
All numbers depend on the players (default equilibrium against equilibrium) and the number of duels; the
report says both beside every table.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from toolkit.game import SimulateRequest
from toolkit.problems import Problem, UsageError
from toolkit.selfplay.pool import run_tasks
from toolkit.selfplay.stats import derive, wilson
from toolkit.sword import constants
from toolkit.sword.bots import make_bot
from toolkit.sword.context import SwordDatabase
from toolkit.sword.sim.duels import DuelResult, DuelTask, Setup, play_pair
from toolkit.sword.sim.stats import build_name
from toolkit.sword.simulate import setup_for

MATCHUP_DUELS = 10  # per technique pair (5 seat-swapped pairs): a technique's rating pools 90
HONOR_DUELS = 100  # per side of the honor comparison
PLAYERS = ("equilibrium", "equilibrium")
SEED = 1
OFF_PARITY = 0.5  # an outlier's whole interval lies on one side of this


@dataclass(frozen=True)
class BalanceTask:
    setup: str  # key of the setup in the context
    duel: DuelTask


def _play(setups: dict[str, Setup], task: BalanceTask) -> tuple[tuple[str, DuelResult], ...]:
    return tuple((task.setup, result) for result in play_pair(setups[task.setup], task.duel))


@dataclass(frozen=True)
class Score:
    """Wins, draws and duels of one side; its score counts a draw as half a win."""

    wins: int
    draws: int
    games: int

    @property
    def rate(self) -> float:
        return (self.wins + self.draws / 2) / self.games if self.games else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(round(self.wins + self.draws / 2), self.games)


@dataclass
class SwordBalance:
    techniques: list[str]
    players: tuple[str, str]
    seed: int
    matchup_duels: int
    honor_duels: int
    matchups: dict[tuple[str, str], Score] = field(default_factory=dict)  # row technique's score vs column
    ratings: dict[str, Score] = field(default_factory=dict)
    builds: dict[str, Score] = field(default_factory=dict)
    honor: dict[str, dict[str, Any]] = field(default_factory=dict)  # "with" / "without" -> figures
    outliers: list[tuple[str, str]] = field(default_factory=list)  # (name, why)
    challenger: Score = Score(0, 0, 0)  # the Challenger's score in the mirror matches


def _request(board: SimulateRequest | None) -> tuple[tuple[str, str], int, int, int, int]:
    if board is None:
        return PLAYERS, MATCHUP_DUELS, HONOR_DUELS, SEED, 1
    if board.games % 2 or board.games < 2:
        raise UsageError("--board-games is an even number: duels come in seat-swapped pairs")
    for name in board.players:
        make_bot(name)
    return board.players, board.games, board.games * 10, board.seed, board.jobs


def run_balance(db: SwordDatabase, board: SimulateRequest | None,
                progress: Callable[[int], None] | None = None) -> SwordBalance:
    players, per_matchup, honor_duels, seed, jobs = _request(board)
    base = setup_for(db, SimulateRequest(None, 2, players, seed))
    deck = sorted(base.deck)
    setups: dict[str, Setup] = {}
    tasks: list[BalanceTask] = []
    for i, x in enumerate(deck):
        for y in deck[i:]:
            key = f"{x}|{y}"
            setups[key] = replace(base, hands=((x, x), (y, y)))
            tasks += [BalanceTask(key, DuelTask(players, derive(seed, key), k)) for k in range(per_matchup // 2)]
    for key, honor in (("honor", True), ("no-honor", False)):
        setups[key] = replace(base, honor=honor)
        tasks += [BalanceTask(key, DuelTask(players, derive(seed, "honor"), k)) for k in range(honor_duels // 2)]
    results = run_tasks(_play, setups, tasks, jobs, None, progress)
    found = SwordBalance(deck, players, seed, per_matchup, honor_duels)
    _tables(found, results)
    _honor(found, results)
    _outliers(found, db.problems)
    return found


def _tables(found: SwordBalance, results: list[tuple[str, DuelResult]]) -> None:
    counts: Counter[tuple[str, str, str]] = Counter()  # (row, column, win/draw/game)
    builds: Counter[tuple[str, str]] = Counter()
    challenger = [0, 0, 0]
    for key, r in results:
        if "|" not in key:
            continue
        x, y = key.split("|")
        for side, (me, them) in enumerate(((x, y), (y, x))):
            counts[(me, them, "games")] += 1
            counts[(me, them, "wins")] += r.winner == side
            counts[(me, them, "draws")] += r.winner < 0
            name = build_name(r.builds[side])
            builds[(name, "games")] += 1
            builds[(name, "wins")] += r.winner == side
            builds[(name, "draws")] += r.winner < 0
            if x == y:
                break  # a mirror duel counts once in its cell
        if x == y:
            challenger[2] += 1
            challenger[0] += r.winner == r.challenger
            challenger[1] += r.winner < 0
    for x in found.techniques:
        wins = draws = games = 0
        for y in found.techniques:
            cell = Score(counts[(x, y, "wins")], counts[(x, y, "draws")], counts[(x, y, "games")])
            found.matchups[(x, y)] = cell
            if x != y:
                wins, draws, games = wins + cell.wins, draws + cell.draws, games + cell.games
        found.ratings[x] = Score(wins, draws, games)
    names = sorted({name for name, _ in builds})
    found.builds = {name: Score(builds[(name, "wins")], builds[(name, "draws")], builds[(name, "games")])
                    for name in names}
    found.challenger = Score(challenger[0], challenger[1], challenger[2])


def _honor(found: SwordBalance, results: list[tuple[str, DuelResult]]) -> None:
    for key, label in (("honor", "with"), ("no-honor", "without")):
        duels = [r for k, r in results if k == key]
        n = len(duels)
        decisive = [r for r in duels if r.winner >= 0]
        won = sum(1 for r in decisive if r.winner == r.challenger)
        ended = Counter(r.reason for r in duels)
        long = sum(1 for r in duels if r.turns >= constants.HONOR_TURN)  # reached the turns the rule covers
        found.honor[label] = {
            "duels": n, "draws": n - len(decisive), "draw_interval": wilson(n - len(decisive), n),
            "mean_turns": sum(r.turns for r in duels) / n if n else 0.0,
            "long": long, "long_interval": wilson(long, n),
            "challenger_wins": won, "decisive": len(decisive), "challenger_interval": wilson(won, len(decisive)),
            "ended": dict(sorted(ended.items())),
        }


def _outliers(found: SwordBalance, problems: list[Problem]) -> None:
    for name, score in sorted(found.ratings.items(), key=lambda kv: -kv[1].rate):
        low, high = score.interval
        if low <= OFF_PARITY <= high:
            continue
        cells = sorted(((found.matchups[(name, y)].rate, y) for y in found.techniques if y != name), reverse=True)
        strong = low > OFF_PARITY
        side = cells[:2] if strong else cells[-2:]
        drivers = ", ".join(f"{y} {rate * 100:.0f}%" for rate, y in side)
        lint = sorted({p.code for p in problems if p.code.startswith("L") and name in str(p.file)})
        why = (f"{'strong' if strong else 'weak'}: scores {score.rate * 100:.0f}% ({low * 100:.0f}-{high * 100:.0f}%) "
               f"over {score.games} duels; {'best' if strong else 'worst'} against {drivers}"
               + (f"; the linter flags its card ({', '.join(lint)})" if lint else ""))
        found.outliers.append((name, why))
    for name, score in sorted(found.builds.items(), key=lambda kv: -kv[1].rate):
        low, high = score.interval
        if low <= OFF_PARITY <= high:
            continue
        speed, strength, defense = (int(v) for v in name.split("/"))
        why = (f"{'strong' if low > OFF_PARITY else 'weak'} build (Speed {speed}, Strength {strength}, Defense "
               f"{defense}): scores {score.rate * 100:.0f}% ({low * 100:.0f}-{high * 100:.0f}%) over {score.games} "
               "duels of the technique table")
        found.outliers.append((f"build {name}", why))
