"""A sword-duel record in the browser, step by step, checked as `duelkit replay` checks it (`record.replay`):
every line is re-played against the rules and the first that does not agree stops the replay, named by its
line number; the steps before it are shown. A record knows every secret, so the replay shows both hands and
builds. Pure: text in, HTML out; every name from a data file or the record is escaped here."""

from __future__ import annotations

import json
from dataclasses import replace

from toolkit.players import PLAYERS
from toolkit.problems import DuelkitError, UsageError
from toolkit.sword.context import SwordDatabase
from toolkit.sword.record import GAME, Divergence, Step, data_hash, replay
from toolkit.sword.web.view import ROLES, public_html, result_words
from toolkit.web.html import attrs, h
from toolkit.web.table import ReplayFrames

DRAFT_WORDS = {"remove": "removes at random", "pick": "takes", "discard": "discards face down",
               "random_discard": "discards at random"}


def replay_frames(database: SwordDatabase, text: str) -> ReplayFrames:
    """Every step of the record (a draft step, a build, a turn) as a picture of the duel and a log line."""
    header = _header(text)
    if database.has_errors:
        raise DuelkitError("the sword-duel data has problems: fix them first")
    deck = tuple(t.id for t in database.draft_techniques())
    steps: list[Step] = []
    problem = None
    try:
        replay(text, dict(database.techniques), deck, visit=steps.append)
    except Divergence as exc:
        if exc.line == 1:  # the header itself: nothing to step through, refused as `duelkit replay` refuses it
            raise DuelkitError(f"line {exc}") from None
        problem = str(exc)
    ended = [step for step in steps if "result" in step.item]
    steps = [step for step in steps if "result" not in step.item]
    if ended and steps:  # a draw by time is declared on the result line
        steps[-1] = replace(steps[-1], state=ended[0].state)
    notes = []
    if header.get("data_hash") != data_hash(database.techniques, deck):
        notes.append("the record was played with other technique data than this project's (it still follows the "
                     "rules with this data)")
    players = header.get("players")
    names = [str(p)[:40] for p in players] if isinstance(players, list) and len(players) == 2 else ["?", "?"]
    title = f"{database.name}: the sword duel, {names[0]} (Challenger) against {names[1]} (Defender)"
    return ReplayFrames(title, len(steps), lambda k: _frame(database, steps[k - 1] if k else None),
                        [_log_line(database, step, k) for k, step in enumerate(steps, start=1)], problem, notes)


def _header(text: str) -> dict[str, object]:
    """The record's header; UsageError when it is not a sword-duel record (the server then asks the other
    games)."""
    first = text.lstrip().split("\n", 1)[0]
    try:
        header = json.loads(first)
    except (ValueError, RecursionError):
        header = None
    if not isinstance(header, dict) or header.get("game") != GAME:
        raise UsageError("not a sword-duel record")
    return header


def _name(database: SwordDatabase, card: str) -> str:
    technique = database.techniques.get(card)
    return technique.name if technique is not None else card


def _log_line(database: SwordDatabase, step: Step, number: int) -> str:
    item = step.item
    results: list[str] = []
    if "draft" in item:
        by = item.get("by")
        who = "Chance" if by is None else ROLES["AB".index(str(by))]
        cards = ", ".join(_name(database, str(card)) for card in item["cards"])
        text = f"{who} {DRAFT_WORDS.get(str(item['draft']), str(item['draft']))}: {cards}"
    elif "hand" in item:
        text = f"{ROLES['AB'.index(str(item['hand']))]}'s hand: " + \
            " and ".join(_name(database, str(card)) for card in item["cards"])
    elif "build" in item:
        text = (f"{ROLES['AB'.index(str(item['build']))]}'s secret build: Speed {item['speed']}, "
                f"Strength {item['strength']}, Defense {item['defense']}")
    else:
        text, results = (step.events[0], list(step.events[1:])) if step.events else (f"turn {item['turn']}", [])
    extra = "".join(f'<span class="result">{h(line)}</span>' for line in results)
    return f'<li{attrs(data_step=number, data_turn=item.get("turn"))}>{h(text)}{extra}</li>'


def _frame(database: SwordDatabase, step: Step | None) -> str:
    """The duel after a step: the mats once it started, the draft and builds before."""
    if step is not None and step.state is not None:
        state = step.state
        status = result_words(state) if state.result is not None else f"turn {state.turn}: both choose in secret"
        return f'<div class="status" data-status>{h(status)}</div>{public_html(state, None, everything=True)}'
    parts = []
    draft = None if step is None else step.draft
    for player in PLAYERS:
        picks = draft.picks[player.seat] if draft is not None else ()
        cards = step.hands.get(player, picks) if step is not None else picks
        build = step.builds.get(player) if step is not None else None
        built = f"Speed {build.speed} · Strength {build.strength} · Defense {build.defense}" if build else "not yet"
        parts.append(f'<div class="duelist"{attrs(data_duelist=player.value)}><h3>{ROLES[player.seat]} '
                     f"({player.value})</h3>"
                     f"<p>Techniques: {h(', '.join(_name(database, c) for c in cards) or 'none yet')}</p>"
                     f'<p data-build>Build: {h(built)}</p></div>')
    deck = draft.deck if draft is not None else tuple(t.id for t in database.draft_techniques())
    status = "the draft" if draft is None or not draft.done else "secret builds"
    left = f"<p>In the deck: {h(', '.join(_name(database, c) for c in deck))}</p>" if deck else ""
    return f'<div class="status" data-status>{h(status)}</div><div class="duel">{"".join(parts)}</div>{left}'
