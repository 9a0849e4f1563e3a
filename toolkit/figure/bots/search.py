"""The search bot: expectimax over whole turns with exact chance, Star1 pruning and iterative deepening.

A node is the start of a turn. Its mover's candidate actions are ordered by the greedy bot's one-turn
values (greedy move ordering); each candidate's turn is played out by turns.after_action into every
position the next turn can start from, with its exact probability (the engine's `chance_outcomes`, a
battle's spins merged into the groups that leave different boards). The tree alternates max nodes (our
turns), min nodes (theirs) and these chance nodes; leaves are valued by features.win_probability, a logistic
model fitted on self-play, so every value is a probability in [0, 1]. Those bounds make Ballard's Star1
pruning sound: a chance node stops as soon as its remaining outcomes cannot lift it above alpha or drop it
below beta, and max/min nodes use ordinary alpha-beta windows.

Iterative deepening: depth 1 looks at our turn's outcomes, depth 2 adds the opponent's best reply turn
(their modules and subroutines included, since greedy tries them), depth 3 our next turn, and so on, until
the budget runs out; an iteration cut short counts only for the candidates it finished (the previous best
is searched first, so it always finishes). Every legal action is a root candidate (no fixed shortlist);
inner nodes consider the greedy bot's best INNER_WIDTH (forward pruning, as deep programs do). Positions and
turn outcomes are remembered for the whole decision, so each iteration reuses the one before.

The budget counts turns played out (`after_action` calls). `search:N` is reproducible (the same position
gives the same choice on any machine); `search:Nms` stops by the clock. The search is deterministic given
its rng, which orders equally valued actions only.
"""

from __future__ import annotations

import math
import random
import time

from toolkit.figure.bots.features import MOVE_MODULES, win_probability
from toolkit.figure.bots.greedy import QUIET_LOOKS, TIE, TURN_PHASES, _turn_values, best_action, ranked_actions
from toolkit.figure.bots.knowledge import Knowledge, knowledge
from toolkit.figure.bots.turns import Line, Outcomes, after_action, replay
from toolkit.figure.engine.actions import MODULE, MOVE, SUBROUTINE, Action
from toolkit.figure.engine.state import GameState

DEFAULT_ITERATIONS = 80  # turns played out per decision (bench/search_speed.py times it: well under 0.25 s)
INNER_WIDTH = 3  # candidates looked at below the root, greedy's best first
RANKING_COST = 2  # a ranking of a position's plain actions costs about two turns played out
GOAL_RUNS = 2  # movement modules added to an inner node's candidates
GOAL_RUN_STEPS = 2  # ... when a unit stands at most this many steps beyond its MP from the enemy goal
MAX_DEPTH = 8


class _OutOfBudget(Exception):
    """The budget ran out in the middle of an iteration."""


class SearchBot:
    """Expectimax over turns, exact chance, Star1 pruning, iterative deepening within a budget."""

    name = "search"

    def __init__(self, iterations: int | None = DEFAULT_ITERATIONS, milliseconds: int | None = None) -> None:
        self.iterations = None if milliseconds is not None else iterations
        self.milliseconds = milliseconds
        self.last_depth = 0  # the deepest iteration the last decision finished (for tests and benches)

    def choose(self, state: GameState, rng: random.Random) -> Action:
        legal = state.decisions()
        if len(legal) == 1:
            return legal[0]
        if state.phase not in TURN_PHASES:
            # The rest of a turn (a battle to take or decline, a re-spin, an upgrade, a Purple placement) is
            # the greedy bot's, by the exact odds, as in every turn the search played out: the move was chosen
            # for the turn greedy would finish. Searching it again let the fitted evaluation's horizon turn
            # down a 49%-to-4% battle (tests/figure/tactics.py).
            self.last_depth = 1
            return best_action(state, knowledge(state.game), rng=rng)[0]
        deadline = None if self.milliseconds is None else time.perf_counter() + self.milliseconds / 1000
        return _Search(state, knowledge(state.game), self.iterations, deadline, rng).run(self)


class _Search:
    def __init__(self, root: GameState, know: Knowledge, budget: int | None, deadline: float | None,
                 rng: random.Random) -> None:
        self.rng = rng
        self.root = root
        self.know = know
        self.me = root.current_player
        self.budget = budget
        self.deadline = deadline
        self.spent = 0
        self.outcomes: dict[tuple[int, Action], Outcomes] = {}
        self.orders: dict[int, list[Action]] = {}
        self.killers: dict[tuple[int, int], Line] = {}  # (depth, mover) -> a turn that won the game there

    def run(self, bot: SearchBot) -> Action:
        ranked = [a for a, _ in shuffle_ties(ranked_actions(self.root, self.know, rng=self.rng), self.rng)]
        listed = set(ranked)
        order = ranked + [a for a in self.root.decisions() if a not in listed]
        best = order[0]
        bot.last_depth = 1  # greedy's ranking is a one-turn search with the hand-weighted evaluation
        threatened = False
        for depth in range(2, MAX_DEPTH + 1):
            values: dict[Action, float] = {}
            alpha = -1.0
            try:
                position = 0
                while position < len(order):
                    action = order[position]
                    value = self.chance(self.root, action, depth, alpha, 2.0)
                    values[action] = value
                    alpha = max(alpha, value)
                    position += 1
                    if value == 0.0 and not threatened:
                        threatened = self.threat_first(order, position, depth)
            except _OutOfBudget:
                pass
            if order[0] in values:
                best = max(values, key=lambda a: values[a])  # the first of equals: the previous order
            if len(values) < len(order):
                break
            bot.last_depth = depth
            order = sorted(order, key=lambda a: -values[a])
            if all(v in (0.0, 1.0) for v in values.values()):
                break  # every line is decided: deeper looks change nothing
        return best

    def threat_first(self, order: list[Action], start: int, depth: int) -> bool:
        """A candidate lost to a winning reply: move the candidates that land on or next to a node that reply
        moved to up to `start` (a block is usually there), keeping their order. True once done."""
        killer = self.killers.get((depth - 1, 1 - self.me))
        if killer is None:
            return False
        game = self.root.game
        hit = 0
        for action in killer:
            if action[0] == MOVE:
                hit |= 1 << action[2] | game.nbr_mask[action[2]]
        if not hit:
            return False
        rest = order[start:]
        first = [a for a in rest if a[0] == MOVE and hit >> a[2] & 1]
        order[start:] = first + [a for a in rest if not (a[0] == MOVE and hit >> a[2] & 1)]
        return True

    def node(self, state: GameState, depth: int, alpha: float, beta: float) -> float:
        """A turn start: the mover's best candidate (ours: max, theirs: min). A turn that won the game for the
        mover in a sibling position is tried first, before any ranking (a refutation: cheap and often enough)."""
        if state.is_terminal() or depth == 0:
            return win_probability(state, self.me, self.know)
        mover = state.current_player
        maximizing = mover == self.me
        killer = self.killers.get((depth, mover))
        if killer is not None:
            won = replay(state, killer)
            if won is not None and won.is_terminal() and win_probability(won, mover, self.know) == 1.0:
                return 1.0 if maximizing else 0.0
        best = -1.0 if maximizing else 2.0
        for action in self.candidates(state):
            value = self.chance(state, action, depth, alpha, beta)
            outcomes = self.turn(state, action)
            if len(outcomes) == 1 and outcomes[0][1].is_terminal() and value == (1.0 if maximizing else 0.0):
                self.killers[(depth, mover)] = outcomes[0][2]
            if maximizing:
                best = max(best, value)
                alpha = max(alpha, value)
            else:
                best = min(best, value)
                beta = min(beta, value)
            if alpha >= beta:
                break
        return best

    def chance(self, state: GameState, action: Action, depth: int, alpha: float, beta: float) -> float:
        """The expectation over the turn's outcomes, with Star1 cut-offs (values lie in [0, 1])."""
        total = 0.0
        left = 1.0
        for p, child, _ in self.turn(state, action):
            left -= p
            low = (alpha - total - left) / p  # below this the node cannot reach alpha whatever follows
            high = (beta - total) / p  # above this it stays at or over beta whatever follows
            value = self.node(child, depth - 1, max(low, 0.0), min(high, 1.0))
            if value <= low:
                return total + p * value + max(left, 0.0)
            if value >= high:
                return total + p * value
            total += p * value
        return total

    def candidates(self, state: GameState) -> list[Action]:
        """Below the root: greedy's best INNER_WIDTH plain actions (modules left out of the ranking: weighing
        every module is most of a greedy decision's time), then the movement modules that could take a unit
        to the enemy goal this turn (the threat a goal race turns on)."""
        key = id(state)  # every state searched is kept in `outcomes`, so ids are not reused within a decision
        order = self.orders.get(key)
        if order is None:
            legal = state.decisions()
            if len(legal) == 1:
                order = legal
            elif state.phase in TURN_PHASES:
                self.charge(RANKING_COST)
                plain = [a for a in legal if a[0] not in (MODULE, SUBROUTINE)]
                ranked = _turn_values(state, plain, state.current_player, self.know, QUIET_LOOKS,
                                      self.know.looks_at(state), self.rng)
                ranked.sort(key=lambda pair: -pair[1])
                order = [a for a, _ in shuffle_ties(ranked, self.rng)[:INNER_WIDTH]] + goal_runs(state, legal,
                                                                                                 self.know)
            else:
                self.charge(RANKING_COST)
                ranked = ranked_actions(state, self.know, rng=self.rng)
                order = [a for a, _ in shuffle_ties(ranked, self.rng)[:INNER_WIDTH]]
            self.orders[key] = order
        return order

    def turn(self, state: GameState, action: Action) -> Outcomes:
        key = (id(state), action)
        found = self.outcomes.get(key)
        if found is None:
            self.charge(1)
            found = sorted(after_action(state, action, self.know, self.rng), key=lambda pair: -pair[0])
            self.outcomes[key] = found
        return found

    def charge(self, cost: int) -> None:
        if self.budget is not None and self.spent + cost > self.budget:
            raise _OutOfBudget
        if self.deadline is not None and self.spent and time.perf_counter() >= self.deadline:
            raise _OutOfBudget
        self.spent += cost


def shuffle_ties(ranked: list[tuple[Action, float]], rng: random.Random) -> list[tuple[Action, float]]:
    """`ranked` (best first) with equally valued actions in an order drawn with `rng`. Legal order follows node
    names, which the board's rotation does not preserve: taking the first of equals played side A and side B
    differently (a chimera mirror went 78-22 for side A at search:10 before this)."""
    out: list[tuple[Action, float]] = []
    group: list[tuple[Action, float]] = []
    for pair in ranked:
        if group and abs(pair[1] - group[0][1]) > TIE:
            rng.shuffle(group)
            out += group
            group = []
        group.append(pair)
    rng.shuffle(group)
    return out + group


def goal_runs(state: GameState, legal: list[Action], know: Knowledge) -> list[Action]:
    """The mover's movement modules (extra MP, moving through) for the units within the module's reach of the
    enemy goal: at most GOAL_RUNS of them, nearest unit first."""
    side = state.player
    game = state.game
    goal = game.goals[1 - side]
    runs = []
    for action in legal:
        if action[0] != MODULE:
            continue
        kind = game.module_kinds[side][action[1]]
        if kind not in MOVE_MODULES:
            continue
        units = [action[2]] if action[2] >= 0 else list(state.units_of(side))
        steps = min((know.dist[state.pos[s]][goal] - state.effective_mp(s) for s in units if state.pos[s] >= 0),
                    default=99)
        if steps <= GOAL_RUN_STEPS:
            runs.append((steps, action))
    runs.sort(key=lambda pair: pair[0])
    return [a for _, a in runs[:GOAL_RUNS]]


def _sample(state: GameState, rng: random.Random) -> int:
    """One outcome of the spin due now, drawn with `rng` by the exact probabilities (for tests and tools)."""
    outcomes = state.chance_outcomes()
    denominator = math.lcm(*(p.denominator for _, p in outcomes))
    pick = rng.randrange(denominator)
    for outcome, probability in outcomes:
        pick -= probability.numerator * (denominator // probability.denominator)
        if pick < 0:
            return outcome
    return outcomes[-1][0]
