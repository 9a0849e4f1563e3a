"""`duelkit simulate` in a sword-duel project: whole duels (draft, builds, turns) in seat-swapped pairs.

The command line owns the terminal; this module checks the request, plays the pairs through the shared
pool (`toolkit.selfplay.pool`), stops at the fixed checkpoints of `--until-ci`, and builds the summary
and, on request, the files for `--out` (duels.csv and the first duels' records).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from toolkit.game import SimulateRequest, SimulateResult
from toolkit.problems import DuelkitError, UsageError
from toolkit.report import summary as problem_summary
from toolkit.selfplay.pool import run_tasks
from toolkit.selfplay.stats import derive
from toolkit.selfplay.stopping import play_to_stopping_rule
from toolkit.sword.bots import make_bot
from toolkit.sword.context import SwordDatabase
from toolkit.sword.engine.duel import Attributes, InvalidBuild, validate_build
from toolkit.sword.record import data_hash
from toolkit.sword.sim.duels import DuelResult, DuelTask, Setup, play_pair
from toolkit.sword.sim.stats import duels_csv, summarize, summary_lines, widest_interval
from toolkit.terminal import terminal_safe

CHECKPOINT_GAMES = 100  # --until-ci looks at the intervals only after every this many duels
MAX_GAMES = 1_000_000


def _safe(text: str, limit: int = 60) -> str:
    return terminal_safe(text)[:limit]


def parse_builds(text: str | None, db: SwordDatabase) -> tuple[Attributes | None, Attributes | None]:
    """`--builds A,B` (one value: both players): a build id of the kit or S/T/D such as 1/4/1."""
    if text is None:
        return (None, None)
    parts = [part.strip() for part in text.split(",")]
    if len(parts) not in (1, 2) or not all(parts):
        raise UsageError("--builds takes one build or two separated by a comma (player a's, then b's), each a "
                         "build id or Speed/Strength/Defense such as 1/4/1")
    found = [_build(part, db) for part in parts]
    return (found[0], found[-1])


def _build(text: str, db: SwordDatabase) -> Attributes:
    if text in db.builds:
        b = db.builds[text]
        values = (b.speed, b.strength, b.defense)
    else:
        pieces = text.split("/")
        if len(pieces) != 3 or not all(p.isdigit() and len(p) <= 2 for p in pieces):
            known = ", ".join(sorted(db.builds)) or "none"
            raise UsageError(f"unknown build '{_safe(text)}': give a build id ({known}) or Speed/Strength/Defense "
                             "such as 2/2/2")
        values = (int(pieces[0]), int(pieces[1]), int(pieces[2]))
    try:
        return validate_build(Attributes(*values))
    except InvalidBuild as exc:
        raise UsageError(f"build '{_safe(text)}': {exc}") from None


def parse_techniques(text: str | None, deck: tuple[str, ...], db: SwordDatabase
                     ) -> tuple[tuple[str, str] | None, tuple[str, str] | None]:
    """`--techniques X+Y,Z+W`: each player's hand (no draft); a single technique X is a hand of X twice.
    One hand given applies to both players."""
    if text is None:
        return (None, None)
    hands = []
    for part in text.split(","):
        cards = [card.strip() for card in part.split("+")]
        if len(cards) not in (1, 2) or not all(cards):
            raise UsageError("--techniques takes a hand per player separated by a comma, each one technique id or "
                             "two joined by '+', e.g. irimi+mushin,kuzushi+fudoshin")
        for card in cards:
            if card not in db.techniques:
                raise UsageError(f"unknown technique '{_safe(card)}'; techniques: {', '.join(sorted(db.techniques))}")
        hands.append((cards[0], cards[-1]))
    if len(hands) > 2:
        raise UsageError("--techniques takes at most two hands (player a's, then b's)")
    del deck
    return (hands[0], hands[-1])


def setup_for(db: SwordDatabase, request: SimulateRequest, data: str | None = None) -> Setup:
    if db.has_errors:
        raise DuelkitError(f"the sword-duel data has problems ({problem_summary(db.problems)}); "
                           "`duelkit validate` lists them")
    deck = tuple(t.id for t in db.draft_techniques())
    hands = parse_techniques(request.techniques, deck, db)
    if hands == (None, None) and len(deck) < 7:
        raise DuelkitError(f"the draft needs at least 7 techniques; the kit has {len(deck)} (give --techniques)")
    return Setup(dict(db.techniques), deck, parse_builds(request.builds, db), hands, data_hash(db.techniques, deck),
                 data)


def check_request(request: SimulateRequest) -> None:
    if request.squads is not None:
        raise UsageError("sword-duel has no squads: `duelkit simulate` takes only [DATA_DIR]")
    if not 2 <= request.games <= MAX_GAMES or request.games % 2:
        raise UsageError(f"the number of duels (--games) is an even number from 2 to {MAX_GAMES}: duels come in "
                         "seat-swapped pairs")
    if request.until_ci is not None and not 0 < request.until_ci < 1:
        raise UsageError("--until-ci takes the interval width as a fraction, e.g. 0.05 for 5 points")
    if request.rules:
        raise UsageError("sword-duel has no --rules switches (its rulings are listed in DESIGN.md)")
    for name in request.players:
        make_bot(name)


def play(setup: Setup, request: SimulateRequest, advance: Callable[[int], None],
         first_pair: int = 0) -> tuple[list[DuelResult], dict[str, Any]]:
    """The duels (all at once, or checkpoint by checkpoint under --until-ci) and the stopping rule."""
    def tasks(start: int, stop: int) -> list[DuelTask]:
        return [DuelTask(request.players, request.seed, first_pair + pair, pair * 2 < request.records)
                for pair in range(start, stop)]

    return play_to_stopping_rule(
        lambda start, stop: run_tasks(play_pair, setup, tasks(start, stop), request.jobs, request.cluster, advance),
        request.games, request.until_ci, widest_interval, CHECKPOINT_GAMES, "duel")


def simulate(db: SwordDatabase, request: SimulateRequest, progress: Callable[[int, int], None]) -> SimulateResult:
    check_request(request)
    setup = setup_for(db, request, request.data)
    done = [0]

    def advance(games: int) -> None:
        done[0] += games
        progress(done[0], request.games)

    results, stopping = play(setup, request, advance)
    summary = summarize(results, request.players, request.seed)
    summary["setup"] = {"builds": [None if b is None else f"{b.speed}/{b.strength}/{b.defense}" for b in setup.builds],
                        "techniques": [None if h is None else "+".join(h) for h in setup.hands],
                        "draft": list(setup.deck) if setup.drafted else None}
    summary["stopping"] = stopping
    result = SimulateResult(summary, summary_lines(summary))
    if request.files:
        files = {"duels.csv": duels_csv(results, request.players).encode()}
        files |= {f"duel-{r.index + 1:04d}.jsonl": r.record.encode() for r in results if r.record is not None}
        result.files[output_folder_name(request.players)] = files
    return result


def output_folder_name(players: tuple[str, str]) -> str:
    """The folder `--out` writes: known before the duels, so a folder that cannot be replaced stops them."""
    return f"sword-duel-{_slug(players[0])}-vs-{_slug(players[1])}"


def _slug(name: str) -> str:
    return "".join(ch if ch.isalnum() else "-" for ch in name)


__all__ = ["derive", "parse_builds", "parse_techniques", "play", "setup_for", "simulate"]
