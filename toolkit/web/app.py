"""The web server (Starlette; uvicorn runs it): the only module of `duelkit serve` that touches the network or
files. It serves the pages, the package's own assets and fonts (a fixed list: never a path from a request),
and a small JSON API the pages' script calls. Game work runs in a worker thread, one table at a time."""

from __future__ import annotations

import json
import secrets
import threading
from collections import OrderedDict
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from starlette.routing import Route

from toolkit.problems import DuelkitError, UsageError
from toolkit.render.fonts import FONT_DIR, FONT_FILES
from toolkit.web.guard import MAX_BODY, Guard
from toolkit.web.pages import CSP, error_page, play_page, replay_page, start_fragment, start_page
from toolkit.web.studio import Session, Studio
from toolkit.web.table import ReplayFrames, TableRequest, TableView

ASSETS = Path(__file__).resolve().parent / "assets"
ASSET_TYPES = {".css": "text/css; charset=utf-8", ".js": "text/javascript; charset=utf-8"}
FONT_TYPE = "font/ttf"
MAX_SEED = 2**31 - 1
MAX_FIELD = 200  # characters of one query or form value
MAX_REPLAYS = 16  # records kept for stepping; the oldest is dropped
T = TypeVar("T")


def _assets() -> dict[str, tuple[Path, str]]:
    """The files the server may send, by URL: the package's assets and the shipped fonts, nothing else."""
    files = {f"/assets/{p.name}": (p, ASSET_TYPES[p.suffix]) for p in ASSETS.iterdir() if p.suffix in ASSET_TYPES}
    files |= {f"/fonts/{name}": (FONT_DIR / name, FONT_TYPE) for name in FONT_FILES.values()}
    return files


def _headers() -> dict[str, str]:
    return {"Content-Security-Policy": CSP, "X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer",
            "Cache-Control": "no-store"}


class Server:
    def __init__(self, studio: Studio, where: str) -> None:
        self.studio = studio
        self.where = where
        self.files = _assets()
        self.cache: dict[str, bytes] = {}
        self.replays: OrderedDict[str, ReplayFrames] = OrderedDict()
        self.lock = threading.Lock()

    # ---- helpers ----------------------------------------------------------------------------------------

    def html(self, text: str, status: int = 200) -> HTMLResponse:
        return HTMLResponse(text, status_code=status, headers=_headers())

    def json(self, data: Any, status: int = 200) -> JSONResponse:
        return JSONResponse(data, status_code=status, headers=_headers())

    @staticmethod
    def _field(request: Request, name: str, default: str = "") -> str:
        value = request.query_params.get(name, default)
        if len(value) > MAX_FIELD:
            raise UsageError(f"'{name}' is too long")
        return value

    def _session(self, request: Request) -> tuple[Session, str]:
        session = self.studio.session(request.path_params["table"])
        return session, self._field(request, "seat")

    def _view(self, session: Session, token: str) -> TableView:
        seat = session.seat_of(token)
        return session.table.view(seat.seats, seat.hotseat)

    def _view_json(self, session: Session, token: str) -> dict[str, Any]:
        view = self._view(session, token)
        return {"version": session.table.version, "html": view.html, "computer": view.computer_next,
                "over": view.over, "data_changed": session.data_version != self.studio.version}

    async def _locked(self, session: Session, work: Callable[[], T]) -> T:
        def run() -> T:
            with session.lock:
                return work()
        return await run_in_threadpool(run)

    # ---- pages ---------------------------------------------------------------------------------------------

    async def start(self, request: Request) -> Response:
        del request
        return self.html(await run_in_threadpool(start_page, self.studio, self.where))

    async def start_part(self, request: Request) -> Response:
        del request
        return self.json({"version": self.studio.version, "html": start_fragment(self.studio)})

    async def cards(self, request: Request) -> Response:
        game_id = request.path_params["game"]
        try:
            html = await run_in_threadpool(self.studio.cards_html, game_id)
        except UsageError as exc:
            return self.json({"error": str(exc)}, 404)
        return self.json({"version": self.studio.version, "html": html})

    async def play(self, request: Request) -> Response:
        """`/play?game=ID&a=SQUAD&b=SQUAD&players=P,Q&seed=S`: a new table, then its page (the starting browser
        holds every human seat)."""
        try:
            game_id = self._field(request, "game")
            players = tuple(p.strip() for p in self._field(request, "players", "human,greedy").split(","))
            if len(players) != 2:
                raise UsageError("players= names two players separated by a comma, e.g. human,greedy")
            seed_text = self._field(request, "seed") or str(secrets.randbelow(MAX_SEED))
            if not seed_text.isdigit() or int(seed_text) > MAX_SEED:
                raise UsageError(f"seed= is a whole number from 0 to {MAX_SEED}")
            a, b = self._field(request, "a"), self._field(request, "b")
            squads = (a, b) if a or b else None
            request_ = TableRequest(squads, (players[0], players[1]), int(seed_text),
                                    None if self.studio.data_dir is None else str(self.studio.data_dir))
            query = str(request.url.query)
            session = await run_in_threadpool(self.studio.open_table, game_id, request_, query)
        except DuelkitError as exc:
            return self.html(error_page(self.studio, "Cannot start this game", str(exc)), 400)
        return RedirectResponse(f"/table/{session.id}?seat={session.owner}", status_code=303)

    async def table(self, request: Request) -> Response:
        try:
            session, token = self._session(request)
            view = await self._locked(session, lambda: self._view(session, token))
        except (LookupError, PermissionError) as exc:
            return self.html(error_page(self.studio, "No seat here", str(exc)), 404)
        base = f"{request.url.scheme}://{request.headers.get('host', '')}"
        return self.html(play_page(self.studio, session, token, view, base))

    async def replay(self, request: Request) -> Response:
        del request
        return self.html(replay_page(self.studio))

    async def asset(self, request: Request) -> Response:
        found = self.files.get(request.url.path)
        if found is None:
            return Response("not found", status_code=404)
        path, kind = found
        with self.lock:
            data = self.cache.get(request.url.path)
            if data is None:
                data = self.cache[request.url.path] = path.read_bytes()
        headers = _headers() | {"Cache-Control": "max-age=3600" if kind == FONT_TYPE else "no-cache"}
        return Response(data, media_type=kind, headers=headers)

    # ---- the API the pages' script calls --------------------------------------------------------------------

    async def table_state(self, request: Request) -> Response:
        try:
            session, token = self._session(request)
            since = self._field(request, "since")
            if since == str(session.table.version) and session.data_version == self.studio.version:
                session.seat_of(token)
                return self.json({"same": True, "version": session.table.version})
            return self.json(await self._locked(session, lambda: self._view_json(session, token)))
        except (LookupError, PermissionError) as exc:
            return self.json({"error": str(exc)}, 404)

    async def table_do(self, request: Request) -> Response:
        """POST act / computer / undo / redo."""
        what = request.path_params["what"]
        try:
            session, token = self._session(request)
            form = await self._form(request)
        except (LookupError, PermissionError, UsageError) as exc:
            return self.json({"error": str(exc)}, 404)

        def work() -> dict[str, Any]:
            seats = session.seat_of(token).seats
            table = session.table
            if what == "act":
                table.act(seats, form)
            elif what == "computer":
                table.computer_turn()
            elif what == "undo":
                table.undo(seats)
            elif what == "redo":
                table.redo(seats)
            else:
                raise UsageError(f"unknown request '{what[:20]}'")
            return self._view_json(session, token)

        try:
            return self.json(await self._locked(session, work))
        except (LookupError, PermissionError) as exc:
            return self.json({"error": str(exc)}, 404)
        except DuelkitError as exc:
            data = await self._locked(session, lambda: self._view_json(session, token))
            return self.json(data | {"error": str(exc)}, 409)

    async def _form(self, request: Request) -> dict[str, str]:
        body = await request.body()
        if not body:
            return {}
        try:
            data = json.loads(body)
        except ValueError:
            raise UsageError("the request is not JSON") from None
        if not isinstance(data, dict) or len(data) > 40:
            raise UsageError("the request is not a form")
        return {str(k)[:MAX_FIELD]: str(v)[:MAX_FIELD] for k, v in data.items()}

    async def record(self, request: Request) -> Response:
        try:
            session, token = self._session(request)
            text = await self._locked(session, lambda: (session.seat_of(token), session.table.record())[1])
        except (LookupError, PermissionError) as exc:
            return Response(str(exc), status_code=404)
        if text is None:
            return Response("this game writes no record", status_code=404)
        return Response(text, media_type="application/x-ndjson",
                        headers=_headers() | {"Content-Disposition": 'attachment; filename="game.jsonl"'})

    async def replay_load(self, request: Request) -> Response:
        """POST a record's text: its frames, checked against the project's data as `duelkit replay` checks."""
        body = await request.body()
        try:
            text = body.decode("utf-8")
        except UnicodeDecodeError:
            return self.json({"error": "not a game record (not UTF-8 text)"}, 400)
        try:
            frames = await run_in_threadpool(self._replay, text)
        except DuelkitError as exc:
            return self.json({"error": str(exc)}, 400)
        replay_id = secrets.token_urlsafe(12)
        with self.lock:
            self.replays[replay_id] = frames
            while len(self.replays) > MAX_REPLAYS:
                self.replays.popitem(last=False)
        return self.json({"id": replay_id, "title": frames.title, "steps": frames.steps, "log": frames.log,
                          "problem": frames.problem, "notes": frames.notes, "frame0": frames.frame(0)})

    async def replay_frame(self, request: Request) -> Response:
        with self.lock:
            frames = self.replays.get(request.path_params["replay"])
        step = self._field(request, "step")
        if frames is None or not step.isdigit() or int(step) > frames.steps:
            return self.json({"error": "no such replay step (load the record again)"}, 404)
        return self.json({"step": int(step), "html": await run_in_threadpool(frames.frame, int(step))})

    def _replay(self, text: str) -> ReplayFrames:
        problems: list[str] = []
        for loaded in self.studio.games:
            try:
                return loaded.game.web_replay(loaded.data, text)
            except UsageError:
                continue  # a game without replays, or whose data does not hold the record's squads
            except DuelkitError as exc:
                problems.append(str(exc))
        raise DuelkitError(problems[0] if problems else "no game here replays this record")

    async def live(self, request: Request) -> Response:
        del request
        return self.json({"version": self.studio.version, "errors": len(self.studio.errors())})


def create_app(studio: Studio, hosts: frozenset[str], where: str, max_body: int = MAX_BODY) -> Guard:
    server = Server(studio, where)
    routes = [
        Route("/", server.start),
        Route("/play", server.play),
        Route("/table/{table}", server.table),
        Route("/replay", server.replay),
        Route("/assets/{name}", server.asset),
        Route("/fonts/{name}", server.asset),
        Route("/api/start", server.start_part),
        Route("/api/cards/{game}", server.cards),
        Route("/api/live", server.live),
        Route("/api/table/{table}", server.table_state),
        Route("/api/table/{table}/record", server.record),
        Route("/api/table/{table}/{what}", server.table_do, methods=["POST"]),
        Route("/api/replay", server.replay_load, methods=["POST"]),
        Route("/api/replay/{replay}", server.replay_frame),
    ]
    return Guard(Starlette(routes=routes), hosts, max_body)
