"""The server's safety, asked over plain HTTP (no browser): its own Host only, no file outside the project
and the package's assets, bounded request bodies, a seat only with its link's token, 127.0.0.1 by default."""

from __future__ import annotations

import http.client
import json
from typing import Any

import pytest

from tests.web.conftest import Studio


def _ask(studio: Studio, method: str, path: str, body: bytes | None = None,
         headers: dict[str, str] | None = None) -> tuple[int, bytes, Any]:
    host, port = studio.host.split(":")
    connection = http.client.HTTPConnection(host, int(port), timeout=20)
    try:
        connection.request(method, path, body=body, headers=headers or {})
        response = connection.getresponse()
        return response.status, response.read(), response
    finally:
        connection.close()


def test_it_listens_on_127_0_0_1_by_default(studio: Studio) -> None:
    assert studio.url.startswith("http://127.0.0.1:")


def test_a_request_naming_another_host_is_refused(studio: Studio) -> None:
    status, _, _ = _ask(studio, "GET", "/", headers={"Host": "attacker.example:80"})
    assert status == 421
    status, _, _ = _ask(studio, "GET", "/", headers={"Host": studio.host})
    assert status == 200
    status, _, _ = _ask(studio, "GET", "/", headers={"Host": "localhost:" + studio.host.split(":")[1]})
    assert status == 200


def test_only_the_packages_assets_are_served(studio: Studio) -> None:
    assert _ask(studio, "GET", "/assets/studio.js")[0] == 200
    assert _ask(studio, "GET", "/fonts/DejaVuSans.ttf")[0] == 200
    for path in ("/assets/../app.py", "/assets/%2e%2e/app.py", "/assets/..%2fapp.py", "/fonts/../../pyproject.toml",
                 "/assets/studio.js/../../__init__.py", "/etc/passwd", "/fonts/%2e%2e%2f%2e%2e%2fpaths.py"):
        status, body, _ = _ask(studio, "GET", path)
        assert status == 404, path
        assert b"import" not in body


def test_request_bodies_are_bounded(studio: Studio) -> None:
    status, _, _ = _ask(studio, "POST", "/api/replay", body=b"x" * (9 * 1024 * 1024))
    assert status == 413


def test_a_seat_needs_its_token(studio: Studio) -> None:
    status, _, response = _ask(studio, "GET", "/play?game=chimera&a=attrition-lock&b=grid-surge&players=human,human"
                               "&seed=3")
    assert status == 303
    location = response.getheader("Location")
    table = location.split("/table/")[1].split("?")[0]
    assert _ask(studio, "GET", location)[0] == 200
    assert _ask(studio, "GET", f"/table/{table}?seat=guessed")[0] == 404
    status, body, _ = _ask(studio, "POST", f"/api/table/{table}/act?seat=guessed", body=b'{"action": "0"}')
    assert status == 404
    assert b"token" in body
    assert _ask(studio, "GET", f"/api/table/{table}/record?seat=guessed")[0] == 404


def test_an_uploaded_record_is_checked(studio: Studio) -> None:
    status, body, _ = _ask(studio, "POST", "/api/replay", body=b"{\"record\": \"something else\"}\n")
    assert status == 400
    assert "not a duelkit game record" in json.loads(body)["error"] or "JSON" in json.loads(body)["error"]
    status, body, _ = _ask(studio, "POST", "/api/replay", body=b"\xff\xfe")
    assert status == 400


def test_bad_play_requests_get_a_page_that_says_why(studio: Studio) -> None:
    status, body, _ = _ask(studio, "GET", "/play?game=chimera&a=attrition-lock&b=nope&players=human,greedy")
    assert status == 400
    assert b"nope" in body
    status, body, _ = _ask(studio, "GET", "/play?game=chimera&a=attrition-lock&b=grid-surge&players=human,wizard")
    assert status == 400
    assert b"unknown player" in body
    status, body, _ = _ask(studio, "GET", "/play?game=chimera&a=attrition-lock&b=grid-surge&seed=-4")
    assert status == 400


def test_the_names_the_server_answers_to() -> None:
    from toolkit.cli.serve import _hosts

    local = _hosts("127.0.0.1", 8765)
    assert local == frozenset({"127.0.0.1:8765", "localhost:8765", "[::1]:8765"})
    everywhere = _hosts("0.0.0.0", 8765)  # friends on the network use this machine's addresses
    assert "127.0.0.1:8765" in everywhere
    assert "attacker.example:8765" not in everywhere


def test_a_port_in_use_is_a_clear_error(studio: Studio) -> None:
    from toolkit.cli.serve import _bind
    from toolkit.problems import DuelkitError

    port = int(studio.host.split(":")[1])
    with pytest.raises(DuelkitError, match=f"port {port} is in use"):
        _bind("127.0.0.1", port)
