"""The server's front door (plain ASGI middleware): requests naming another host are refused (so a web page
elsewhere cannot reach the studio through DNS rebinding) and request bodies are bounded."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from toolkit.problems import DuelkitError

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

MAX_BODY = 8 * 1024 * 1024  # a 300-turn game record is about 100 KB; forms are far smaller


class BodyTooLarge(DuelkitError):
    """A request body grew past the bound while it streamed in."""


class Guard:
    """Refuse a request whose Host header is not one of `hosts` (421) or whose body exceeds `max_body` (413)."""

    def __init__(self, app: ASGIApp, hosts: frozenset[str], max_body: int = MAX_BODY) -> None:
        self.app = app
        self.hosts = hosts
        self.max_body = max_body

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        headers = {key.decode("latin-1").lower(): value.decode("latin-1") for key, value in scope.get("headers", [])}
        host = headers.get("host", "").lower()
        if host not in self.hosts:
            await _refuse(send, 421, "this server answers only to its own address")
            return
        length = headers.get("content-length", "")
        if length and (not length.isdigit() or int(length) > self.max_body):
            await _refuse(send, 413, f"request bodies are limited to {self.max_body // (1024 * 1024)} MB")
            return
        seen = 0

        async def bounded() -> Message:
            nonlocal seen
            message = await receive()
            seen += len(message.get("body", b""))
            if seen > self.max_body:
                raise BodyTooLarge
            return message

        try:
            await self.app(scope, bounded, send)
        except BodyTooLarge:
            await _refuse(send, 413, "request body too large")


async def _refuse(send: Send, status: int, text: str) -> None:
    body = text.encode("utf-8")
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"text/plain; charset=utf-8"),
                            (b"content-length", str(len(body)).encode("ascii"))]})
    await send({"type": "http.response.body", "body": body})
