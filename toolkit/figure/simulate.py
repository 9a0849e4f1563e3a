"""`duelkit simulate`, driven from outside: one match or a round robin, summaries, and the playtest files.

The command line owns the terminal (it prints the lines and the progress bar); this module owns the
games: it checks the request, compiles the GameTables, has `sim.pool` play the pairs, stops at the fixed
checkpoints of `--until-ci`, and builds the summary and, on request, the files for `--out`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from toolkit.errors import DuelkitError, UsageError
from toolkit.figure.bots import make_bot
from toolkit.figure.database import Database
from toolkit.figure.engine import build_game
from toolkit.figure.engine.render_text import safe
from toolkit.figure.engine.rules import Rules, RulesError
from toolkit.figure.engine.setup import SetupError
from toolkit.figure.engine.tables import GameTables
from toolkit.figure.sim.games import GameResult, PairTask
from toolkit.figure.sim.pool import play_pairs
from toolkit.figure.sim.stats import games_csv, summarize, summary_lines, widest_interval
from toolkit.figure.sim.verdict import baseline_lines, baseline_report, ladder_lines, ladder_verdict, warnings
from toolkit.game import SimulateRequest, SimulateResult
from toolkit.report import summary as problem_summary
from toolkit.selfplay.stopping import play_to_stopping_rule
from toolkit.whole_numbers import NumberError, read_whole

if TYPE_CHECKING:
    from toolkit.figure.sim.impact import BoardBalance

CHECKPOINT_GAMES = 100  # --until-ci looks at the interval only after every this many games
MAX_GAMES = 1_000_000


def parse_rules(pairs: tuple[str, ...]) -> Rules:
    """`--rules NAME=VALUE ...`: whole numbers and true/false are read as such; unknown names are refused."""
    values: dict[str, Any] = {}
    for pair in pairs:
        name, sep, text = pair.partition("=")
        if not sep or not name:
            raise UsageError(f"--rules takes NAME=VALUE, e.g. turn_limit=200 (got '{safe(pair, 60)}')")
        value: Any = text
        if text in ("true", "false"):
            value = text == "true"
        elif text[:1].isdigit():  # meant as a number: 0-9 only, at most MAX_DIGITS of them
            try:
                value = read_whole(text)
            except NumberError as exc:
                raise UsageError(f"--rules {safe(name, 40)}: {exc}") from None
        values[name.strip()] = value
    try:
        return Rules.from_dict(values)
    except RulesError as exc:
        raise UsageError(safe(str(exc), 300)) from None


def check_request(request: SimulateRequest) -> None:
    if request.builds is not None or request.techniques is not None:
        raise UsageError("--builds and --techniques are for sword-duel projects; the figure duel plays squads")
    if not 2 <= request.games <= MAX_GAMES or request.games % 2:
        raise UsageError(f"the number of games (--games; --board-games for balance) is an even number from 2 to "
                         f"{MAX_GAMES}: games come in seat-swapped pairs")
    if request.until_ci is not None and not 0 < request.until_ci < 1:
        raise UsageError("--until-ci takes the interval width as a fraction, e.g. 0.05 for 5 points")
    for name in (*request.players, *(request.ladder or ())):
        make_bot(name)


def simulate(database: Database, request: SimulateRequest, progress: Callable[[int, int], None]) -> SimulateResult:
    """One match (request.squads) or every squad against every squad (request.squads is None)."""
    if database.has_errors:
        raise DuelkitError(f"the {database.theme.id} data has problems ({problem_summary(database.problems)}); "
                           "`duelkit validate` lists them")
    check_request(request)
    rules = parse_rules(request.rules)
    if request.squads is None:
        if request.ladder is not None or request.baseline is not None:
            raise UsageError("--ladder and --baseline compare one match: name SQUAD_A SQUAD_B")
        return _round_robin(database, request, rules, progress)
    if request.ladder is not None:
        if request.baseline is not None:
            raise UsageError("--ladder and --baseline: one comparison at a time")
        return _ladder(database, request, rules, progress)
    game = _compile(database, request.squads[0], request.squads[1], rules)
    done = [0]
    total = request.games * (2 if request.baseline is not None else 1)

    def advance(games: int) -> None:
        done[0] += games
        progress(done[0], total)

    summary, results = _match(game, request, advance)
    lines = summary_lines(summary)
    if request.baseline is not None:
        before = _baseline_database(request.baseline)
        old_game = _compile(before, request.squads[0], request.squads[1], rules)
        old_summary, old_results = _match(old_game, request, advance)
        summary["baseline"] = baseline_report(request.baseline_name, old_summary, results, old_results)
        lines += baseline_lines(summary)
    result = SimulateResult(summary, lines)
    if request.files:
        from toolkit.figure.kit.playtest import playtest_pdf

        files = {"playtest.pdf": playtest_pdf(database, [summary]), "games.csv": games_csv(game, results).encode()}
        files |= _records(results)
        result.files[output_folder_name(database, request.squads)] = files
    return result


def _baseline_database(data: Any) -> Database:
    from toolkit.figure.game import _database

    database = _database(data)
    if database.has_errors:
        raise DuelkitError(f"the baseline data has problems ({problem_summary(database.problems)}); "
                           "`duelkit validate` lists them")
    return database


def _ladder(database: Database, request: SimulateRequest, rules: Rules,
            progress: Callable[[int, int], None]) -> SimulateResult:
    """The same match (same seeds, same dice) once per rung, each rung's bot playing both squads."""
    assert request.ladder is not None
    assert request.squads is not None
    game = _compile(database, request.squads[0], request.squads[1], rules)
    total = request.games * len(request.ladder)
    done = [0]

    def advance(games: int) -> None:
        done[0] += games
        progress(done[0], total)

    summaries = []
    for rung in request.ladder:
        summary, _ = _match(game, replace(request, players=(rung, rung)), advance)
        summaries.append(summary)
    verdict = ladder_verdict(summaries)
    summary = {"theme": database.theme.id, "squads": {"a": game.squad_ids[0], "b": game.squad_ids[1]},
               "seed": request.seed, "games_per_rung": request.games, "ladder": summaries, "verdict": verdict}
    return SimulateResult(summary, ladder_lines(summary))


def output_folder_name(database: Database, squads: tuple[str, str] | None) -> str:
    """The folder `simulate --out` writes a match (or the round robin, squads None) into."""
    return f"{database.theme.id}-round-robin" if squads is None else f"{squads[0]}-vs-{squads[1]}"


def _compile(database: Database, squad_a: str, squad_b: str, rules: Rules) -> GameTables:
    try:
        return build_game(squad_a, squad_b, database, rules)
    except SetupError as exc:
        raise DuelkitError(str(exc)) from None


def _match(game: GameTables, request: SimulateRequest, advance: Callable[[int], None]) -> tuple[dict[str, Any],
                                                                                       list[GameResult]]:
    """Play the games (all at once, or checkpoint by checkpoint under --until-ci) and summarise them."""
    def tasks(first_pair: int, last_pair: int) -> list[PairTask]:
        return [PairTask(request.players, request.seed, pair, pair * 2 < request.records, request.data)
                for pair in range(first_pair, last_pair)]

    results, stopping = play_to_stopping_rule(
        lambda start, stop: play_pairs(game, tasks(start, stop), request.jobs, request.cluster, advance),
        request.games, request.until_ci, widest_interval, CHECKPOINT_GAMES)
    summary = summarize(game, results, request.players, request.seed)
    summary["warnings"] = warnings(results, request.players)
    summary["rules"] = {k: v for k, v in game.rules.as_dict().items() if v != getattr(Rules(), k)}
    summary["stopping"] = stopping
    if any(name.endswith("ms") for name in request.players):
        stopping["note"] += ("; a player searched by the clock (search:Nms), so the same seed can give other "
                             "results on another machine or load")
    return summary, results


def _records(results: list[GameResult]) -> dict[str, bytes]:
    return {f"game-{r.index + 1:04d}.jsonl": r.record.encode() for r in results if r.record is not None}


def _round_robin(database: Database, request: SimulateRequest, rules: Rules,
                 progress: Callable[[int, int], None]) -> SimulateResult:
    """Every squad against every squad (itself included: a mirror match shows the first player's edge)."""
    squads = sorted(database.squads)
    if not squads:
        raise DuelkitError(f"the {database.theme.id} data has no squads to play")
    pairs = [(a, b) for i, a in enumerate(squads) for b in squads[i:]]
    total = len(pairs) * request.games
    done = [0]

    def advance(games: int) -> None:
        done[0] += games
        progress(done[0], total)

    matches = []
    files: dict[str, bytes] = {}
    csv_parts: list[str] = []
    for a, b in pairs:
        game = _compile(database, a, b, rules)
        summary, results = _match(game, request, advance)
        matches.append(summary)
        if request.files:
            text = games_csv(game, results)
            csv_parts.append(text if not csv_parts else text.split("\n", 1)[1])
            files |= {f"{a}-vs-{b}-{name}": data for name, data in _records(results[:2]).items()}
    index = {squad: i for i, squad in enumerate(squads)}
    matrix: list[list[float | None]] = [[None] * len(squads) for _ in squads]
    for m in matches:
        i, j = index[m["squads"]["a"]], index[m["squads"]["b"]]
        matrix[i][j] = m["win_rate"]["a"]
        if i != j:
            matrix[j][i] = m["win_rate"]["b"]
    summary = {"theme": database.theme.id, "squads": squads, "players": {"a": request.players[0],
               "b": request.players[1]}, "seed": request.seed, "matrix": matrix, "matches": matches}
    lines = [f"{database.theme.id}: round robin of {len(squads)} squads, {request.games} games per match "
             f"({request.players[0]} as the row squad, {request.players[1]} as the column squad)"]
    width = max(len(s) for s in squads)
    lines.append("  " + " " * width + "  " + "  ".join(f"{s[:10]:>10}" for s in squads))
    for i, s in enumerate(squads):
        cells = "  ".join(f"{'-' if v is None else f'{v * 100:.0f}%':>10}" for v in matrix[i])
        lines.append(f"  {s:<{width}}  {cells}")
    lines.append("  (each cell: the row squad's win rate against the column squad; draws make up the rest)")
    for m in matches:
        lines += ["", *summary_lines(m)]
    result = SimulateResult(summary, lines)
    if request.files:
        from toolkit.figure.kit.playtest import playtest_pdf

        files["playtest.pdf"] = playtest_pdf(database, matches, round_robin=(squads, matrix))
        files["games.csv"] = "".join(csv_parts).encode()
        result.files[output_folder_name(database, None)] = files
    return result


def board_level(database: Database, request: SimulateRequest,
                progress: Callable[[int, int], None] | None = None) -> BoardBalance:
    """The balance report's board-level section: round robin and per-unit impact (`duelkit balance --board`)."""
    from toolkit.figure.sim.impact import board_balance

    if database.has_errors:
        raise DuelkitError(f"the {database.theme.id} data has problems; `duelkit validate` lists them")
    check_request(request)
    before = None if request.baseline is None else _baseline_database(request.baseline)
    return board_balance(database, request.players, request.games, request.seed, request.jobs,
                         parse_rules(request.rules), progress, request.ladder or (), before)
