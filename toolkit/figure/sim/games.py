"""Playing the games of a simulation: seat-swapped pairs that share their dice, each a pure function of
(root seed, pair index), so results never depend on how many processes or machines play them.

Pair k's two games spin from the same stream, `random.Random(derive(seed, k, "dice"))`: in the first
side A moves first, in the second side B does, so the luck of the dice is dealt to both seats. Each
player has its own stream (`derive(seed, k, game, side)`), which only a search player draws from.
Seeds are derived with blake2b, never Python's `hash` (which changes between processes).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from toolkit.figure.bots import make_bot
from toolkit.figure.bots.features import win_probability
from toolkit.figure.bots.knowledge import knowledge
from toolkit.figure.engine import CHANCE, GameState
from toolkit.figure.engine.actions import PASS, Action
from toolkit.figure.engine.play import sample_outcome
from toolkit.figure.engine.record import Recorder, make_header
from toolkit.figure.engine.tables import BAY, REMOVED, GameTables
from toolkit.players import PLAYERS
from toolkit.selfplay.stats import derive


@dataclass(frozen=True)
class GameResult:
    """One finished game, small enough to send between processes."""

    index: int  # game number, from 0: pair * 2 + (0: A first, 1: B first)
    first: int  # the side that moved first
    winner: int  # 0 (A), 1 (B) or -1 (a draw)
    reason: str
    turns: int
    knockouts: tuple[int, ...]  # per unit slot: enemies it Deactivated in battle
    deactivations: tuple[int, ...]  # per unit slot: times it was Deactivated (battle, surround, self-hit)
    modules_used: tuple[int, int]  # per side: bit set of the squad's modules spent
    record: str | None = None  # the game record (JSON lines), for the first few games
    metrics: GameMetrics | None = None  # the designer metrics' raw counts (sim/metrics.py sums them)


@dataclass(frozen=True)
class GameMetrics:
    """What one game adds to the designer metrics (sim/metrics.py): counts, not rates, so games sum."""

    decisions: int  # decisions taken by a bot
    options: int  # legal actions summed over those decisions (the branching factor's numerator)
    choices: int  # decisions with at least two legal actions besides passing
    lead_changes: int  # times the leader (by the search's win probability at turn starts) changed
    drama: float  # mean over turn starts of how far the eventual winner was behind (0: never behind)
    covered: int  # board nodes a unit stood on at some point
    nodes: int  # board nodes


@dataclass(frozen=True)
class PairTask:
    """What a worker needs to play one pair (the GameTables is sent once per worker, not per task)."""

    players: tuple[str, str]
    seed: int
    pair: int
    record: bool  # keep the two games' records
    data: str | None = None


def play_pair(game: GameTables, task: PairTask) -> tuple[GameResult, GameResult]:
    """The pair's two games: A moves first, then B moves first, over the same dice."""
    dice_seed = derive(task.seed, task.pair, "dice")
    return (_play(game, task, dice_seed, 0), _play(game, task, dice_seed, 1))


def _play(game: GameTables, task: PairTask, dice_seed: int, first: int) -> GameResult:
    index = task.pair * 2 + first
    players = tuple(make_bot(name) for name in task.players)
    player_rngs = tuple(random.Random(derive(task.seed, task.pair, first, "player", side)) for side in (0, 1))
    dice = random.Random(dice_seed)
    state = GameState.initial(game, PLAYERS[first])
    recorder = Recorder(make_header(game, data=task.data, seed=dice_seed, players=list(task.players),
                                    first=PLAYERS[first])) if task.record else None
    deactivations = [0] * len(game.slots)
    know = knowledge(game)
    tally = [0, 0, 0]  # decisions, options, choices
    leads: list[float] = []  # side A's win probability at each turn start
    covered = state.masks[0] | state.masks[1]
    last_turn = -1
    while not state.is_terminal():
        player = state.current_player
        if player != CHANCE:
            legal = state.decisions()
            tally[0] += 1
            tally[1] += len(legal)
            tally[2] += sum(1 for a in legal if a[0] != PASS) > 1  # two ways to act, not just act or pass
            if state.turn != last_turn:
                last_turn = state.turn
                leads.append(win_probability(state, 0, know))
        step: Action | int = (sample_outcome(state, dice) if player == CHANCE
                              else players[player].choose(state, player_rngs[player]))
        if recorder is not None:
            recorder.on_step(state, step)
        before = state.pos[:]
        state.apply(step)
        for slot, where in enumerate(state.pos):
            if where in (BAY, REMOVED) and before[slot] not in (BAY, REMOVED):
                deactivations[slot] += 1
        covered |= state.masks[0] | state.masks[1]
    if recorder is not None:
        recorder.finish(state)
    outcome = state.outcome()
    assert outcome is not None
    winner = -1 if outcome.winner is None else outcome.winner.seat  # -1: a draw
    metrics = GameMetrics(tally[0], tally[1], tally[2], _lead_changes(leads), _drama(leads, winner),
                          bin(covered).count("1"), len(game.adj))
    return GameResult(index, first, winner, outcome.reason,
                      state.turns_played(), tuple(state.kos), tuple(deactivations), (state.used[0], state.used[1]),
                      recorder.text() if recorder is not None else None, metrics)


def _lead_changes(leads: list[float]) -> int:
    """How often the side ahead changed. Each reading is the mean of two consecutive turn starts (one of
    each side to move), so the evaluation's edge for the side about to move does not flip it every turn;
    even readings are skipped."""
    changes, ahead = 0, 0
    for p in (sum(leads[i:i + 2]) / 2 for i in range(max(len(leads) - 1, 0))):
        now = 1 if p > 0.5 else -1 if p < 0.5 else 0
        if now and ahead and now != ahead:
            changes += 1
        ahead = now or ahead
    return changes


def _drama(leads: list[float], winner: int) -> float:
    """Browne's drama: how far behind the eventual winner was, on average (twice the shortfall below one
    half, so 1 is a winner given up for lost all game); 0 for a draw."""
    if winner < 0 or not leads:
        return 0.0
    return sum(max(0.0, 0.5 - (p if winner == 0 else 1 - p)) * 2 for p in leads) / len(leads)
