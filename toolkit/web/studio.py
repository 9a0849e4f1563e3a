"""What the server serves: the project's games (reloaded when a YAML file is saved), their cards as SVG, the
tables being played and their seats.

A table's seats: the browser that started it holds every human seat; when both seats are human the page
also shows a link for the second seat, and the first browser to open that link (its token) takes that seat
from then on. Tokens are 128-bit secrets; a table is reached only with one of its tokens.
"""

from __future__ import annotations

import secrets
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import Path

from toolkit.game import Game, GameData
from toolkit.problems import DuelkitError, Problem, UsageError
from toolkit.registry import discover
from toolkit.render.svg import render_svg
from toolkit.web.html import attrs, h
from toolkit.web.table import HUMAN, Table, TableRequest

MAX_TABLES = 64  # the oldest table is dropped past this: a long session cannot fill the memory
MAX_PROBLEMS_SHOWN = 50


@dataclass
class Seat:
    seats: frozenset[int]
    hotseat: bool  # one browser for two people: hidden choices need a "pass the device" screen


@dataclass
class Session:
    """One table and who may act at it."""

    id: str
    game_id: str
    table: Table
    query: str  # the /play query that started it (a restart starts the same game on the current data)
    data_version: int
    owner: str = field(default_factory=lambda: secrets.token_urlsafe(16))
    guest: str = field(default_factory=lambda: secrets.token_urlsafe(16))
    guest_joined: bool = False
    lock: threading.Lock = field(default_factory=threading.Lock)

    def guest_seat(self) -> int | None:
        """The seat the second browser may take: B when both seats are human."""
        humans = self.table.human_seats()
        return 1 if len(humans) == 2 else None

    def seat_of(self, token: str) -> Seat:
        """The seats a token holds; PermissionError for a token of no seat."""
        guest = self.guest_seat()
        if guest is not None and secrets.compare_digest(token, self.guest):
            self.guest_joined = True
            return Seat(frozenset({guest}), hotseat=False)
        if secrets.compare_digest(token, self.owner):
            humans = self.table.human_seats()
            if self.guest_joined and guest is not None:
                humans = humans - {guest}
            return Seat(humans, hotseat=len(humans) == 2)
        raise PermissionError("this link's token does not hold a seat at this table")


@dataclass
class Loaded:
    game: Game
    data: GameData


class Studio:
    """The project (or the bundled games) and everything the pages ask of it."""

    def __init__(self, data_dir: Path | None) -> None:
        self.data_dir = data_dir
        self.version = 0
        self.games: list[Loaded] = []
        self.problems: list[Problem] = []
        self.error = ""
        self._cards: dict[tuple[int, str], str] = {}
        self.tables: OrderedDict[str, Session] = OrderedDict()
        self.lock = threading.Lock()
        self.reload()

    # ---- the data ------------------------------------------------------------------------------------

    def reload(self) -> None:
        """Load every game again (after a save); problems are kept for the pages to show."""
        games: list[Loaded] = []
        problems: list[Problem] = []
        error = ""
        try:
            found, problems = discover(self.data_dir)
            for game, where in found:
                data = game.load(where)
                problems += data.problems
                games.append(Loaded(game, data))
        except DuelkitError as exc:
            error = str(exc)
        with self.lock:
            self.games, self.problems, self.error = games, problems, error
            self.version += 1
            self._cards.clear()

    def find(self, game_id: str) -> Loaded:
        for loaded in self.games:
            if loaded.game.id == game_id:
                return loaded
        raise UsageError(f"no game '{game_id}' here; games: {', '.join(g.game.id for g in self.games) or 'none'}")

    def errors(self) -> list[Problem]:
        return [problem for problem in self.problems if problem.is_error]

    def problems_html(self) -> str:
        """The project's problems as `validate` words them (file:line:column, code, message, hint)."""
        if self.error:
            return f'<div class="problems" data-problems><p>{h(self.error)}</p></div>'
        shown = [p for p in self.problems if p.is_error][:MAX_PROBLEMS_SHOWN]
        if not shown:
            return ""
        items = "".join(f"<li><code>{h(p.file)}:{p.line}:{p.column}</code> {h(p.severity.value)}[{h(p.code)}]: "
                        f"{h(p.message)}{' (hint: ' + h(p.hint) + ')' if p.hint else ''}</li>" for p in shown)
        more = len([p for p in self.problems if p.is_error]) - len(shown)
        tail = f"<li>and {more} more (<code>duelkit validate</code> lists them)</li>" if more > 0 else ""
        return (f'<div class="problems" data-problems><h2>The data has problems</h2>'
                f"<p>Fix them and save: this page updates.</p><ul>{items}{tail}</ul></div>")

    def cards_html(self, game_id: str) -> str:
        """Every card of a game, drawn from the scenes the PDFs are drawn from (inline SVG, the page's fonts)."""
        loaded = self.find(game_id)
        key = (self.version, game_id)
        cached = self._cards.get(key)
        if cached is not None:
            return cached
        if loaded.data.has_errors:
            return "<p>The cards are drawn once the data has no errors.</p>"
        export = loaded.game.export_set(loaded.data)
        parts = []
        number = 0
        for deck in export.decks:
            parts.append(f'<h4>{h(deck.name)} cards ({len(deck.cards)})</h4><div class="cards">')
            for card in deck.cards:
                number += 1
                svg = render_svg(card.page, card.title, embed_fonts=False)
                svg = svg.replace('id="clip', f'id="k{number}clip').replace("url(#clip", f"url(#k{number}clip")
                parts.append(f'<figure{attrs(class_="card", data_card=card.slug)}>{svg}'
                             f"<figcaption>{h(card.title)}</figcaption></figure>")
            parts.append("</div>")
        html = "".join(parts)
        self._cards[key] = html
        return html

    def warm(self) -> None:
        """Draw every game's cards ahead of the first visit (run in a background thread)."""
        for loaded in list(self.games):
            try:
                self.cards_html(loaded.game.id)
            except Exception:  # a page asking later gets the same failure, reported there
                continue

    # ---- tables ----------------------------------------------------------------------------------------

    def open_table(self, game_id: str, request: TableRequest, query: str) -> Session:
        loaded = self.find(game_id)
        if loaded.data.has_errors:
            raise DuelkitError(f"the {game_id} data has problems: fix them first (they are listed on the start page)")
        known = [HUMAN, *loaded.game.web_players()]
        for name in request.players:
            if name not in known:
                raise UsageError(f"unknown player '{name[:40]}'; players: {', '.join(known)}")
        table = loaded.game.web_table(loaded.data, request)
        session = Session(secrets.token_urlsafe(12), game_id, table, query, self.version)
        with self.lock:
            self.tables[session.id] = session
            while len(self.tables) > MAX_TABLES:
                self.tables.popitem(last=False)
        return session

    def session(self, table_id: str) -> Session:
        with self.lock:
            session = self.tables.get(table_id)
        if session is None:
            raise LookupError("no such table (the server may have restarted): start a new game")
        return session
