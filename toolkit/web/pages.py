"""The pages' HTML: a shell (the package's own stylesheet and script, nothing from elsewhere), the start page,
the play page and the replay page. Pure: what to show comes in, HTML goes out, every name escaped."""

from __future__ import annotations

from urllib.parse import urlencode

from toolkit.web.html import attrs, h
from toolkit.web.studio import Loaded, Session, Studio
from toolkit.web.table import HUMAN, TableView

# The pages allow only their own origin: no script, style, font or image from anywhere else can load.
CSP = ("default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; font-src 'self' data:; "
       "script-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'")


def shell(title: str, body: str, page: str, live: int) -> str:
    return ("<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
            f"<title>{h(title)}</title><link rel=\"stylesheet\" href=\"/assets/studio.css\">"
            "<link rel=\"icon\" href=\"data:,\">"
            f"</head><body{attrs(data_page=page, data_live=live)}>"
            "<header class=\"top\"><a href=\"/\" class=\"brand\">duelkit studio</a>"
            "<nav><a href=\"/\">Games</a> <a href=\"/replay\">Replay a record</a></nav></header>"
            f"<main>{body}</main><script src=\"/assets/studio.js\"></script></body></html>")


def start_page(studio: Studio, where: str) -> str:
    body = (f"<h1>Playtest studio</h1><p class=\"where\">{h(where)}</p>"
            f"<div id=\"start\" data-start>{start_fragment(studio)}</div>")
    return shell("duelkit studio", body, "start", studio.version)


def start_fragment(studio: Studio) -> str:
    """The games with their squads (or the sword duel's draft) and a place for their cards."""
    parts = [studio.problems_html()]
    for loaded in studio.games:
        parts.append(_game_section(loaded))
    if not studio.games and not studio.error:
        parts.append("<p>No game found here.</p>")
    return "".join(parts)


def _game_section(loaded: Loaded) -> str:
    game, data = loaded.game, loaded.data
    squads = game.squad_ids(data)
    players = [HUMAN, *game.web_players()]
    preferred = game.default_players.get("play", "").split(",")[-1]  # the game's own choice for `play`
    computer = preferred if preferred in players else next((p for p in players if p == "greedy"), players[-1])
    head = (f'<section class="game"{attrs(data_game=game.id)}>'
            f"<h2>{h(game.kit_title(data))} <small>{h(game.id)}</small></h2>")
    if data.has_errors:
        return head + "<p>This game's data has errors (listed above): fix them to play.</p></section>"
    form = ['<form class="start-game" method="get" action="/play">'
            f'<input type="hidden" name="game" value="{h(game.id)}">']
    if squads:
        for side, pick in (("a", 0), ("b", min(1, len(squads) - 1))):
            options = "".join(f"<option{attrs(value=s, selected=i == pick)}>{h(s)}</option>"
                              for i, s in enumerate(squads))
            form.append(f"<label>Squad {side.upper()} <select name=\"{side}\">{options}</select></label>")
    else:
        form.append(f"<p class=\"draft\">{h(game.web_intro(data))}</p>")
    seat_options = []
    for side, default in (("A", HUMAN), ("B", computer)):
        options = "".join(f"<option{attrs(value=p, selected=p == default)}>{h(p)}</option>" for p in players)
        seat_options.append(f"<label>{side} <select data-seat-select=\"{side}\">{options}</select></label>")
    form.append("".join(seat_options))
    form.append(f'<input type="hidden" name="players" value="{HUMAN},{h(computer)}">')
    form.append('<label>Seed <input name="seed" type="number" min="0" max="2147483647" value="1"></label>'
                '<button type="submit" data-start-game>Play</button></form>')
    quick = ""
    if squads:
        links = []
        for a in squads:
            for b in squads:
                query = urlencode({"game": game.id, "a": a, "b": b, "players": f"{HUMAN},{computer}", "seed": 1})
                links.append(f'<li><a href="/play?{h(query)}">{h(a)} vs {h(b)}</a></li>')
        quick = (f"<details><summary>Every match-up, against {h(computer)}</summary>"
                 f"<ul class=\"matchups\">{''.join(links)}</ul></details>")
    cards = f'<div class="deck" data-cards-for="{h(game.id)}"><p class="loading">drawing the cards…</p></div>'
    return head + "".join(form) + quick + "<h3>Cards</h3>" + cards + "</section>"


def play_page(studio: Studio, session: Session, token: str, view: TableView, base: str) -> str:
    guest = session.guest_seat()
    invite = ""
    if guest is not None and token == session.owner and session.guest_joined:
        invite = '<p class="invite" data-invite-taken>The second seat (B) is played from another browser.</p>'
    elif guest is not None and token == session.owner:
        link = f"{base}/table/{session.id}?seat={session.guest}"
        invite = (f'<p class="invite">Second seat (B) on another browser: <a data-invite href="{h(link)}">{h(link)}</a>'
                  " — until someone opens it, this browser plays both seats.</p>")
    record = (f'<a class="record" href="/api/table/{h(session.id)}/record?seat={h(token)}" download="game.jsonl">'
              "Download the record</a>" if session.table.writes_record else "")
    body = (f'<div class="table-head"><h1 data-title>{h(view.title)}</h1>{record}</div>'
            f'<div class="live-note" data-live-note hidden>The project\'s data changed: this game keeps the data it '
            f'started with. <a href="/play?{h(session.query)}">Restart with the new data</a></div>'
            f"{invite}"
            f'<div id="table"{attrs(data_table=session.id, data_seat=token, data_version=session.table.version)}'
            f'{attrs(data_computer=str(view.computer_next).lower())}>'
            f"{view.html}</div>")
    return shell(view.title or "duelkit studio", body, "play", studio.version)


def replay_page(studio: Studio) -> str:
    body = ("<h1>Replay a game record</h1>"
            "<p>A record written by <code>duelkit play --record FILE</code> or <code>duelkit simulate --out DIR</code> "
            "(its <code>game-0001.jsonl</code> or, for the sword duel, <code>duel-0001.jsonl</code> files). "
            "It is checked against this project's data, line by line, "
            "as <code>duelkit replay</code> checks it.</p>"
            '<label class="pick">Record file <input type="file" accept=".jsonl,.json,.txt" data-record-input></label>'
            '<div class="replay-problem" data-replay-problem hidden></div>'
            '<div id="replay" data-replay hidden><h2 data-replay-title></h2>'
            '<div class="stepper"><button type="button" data-step-prev>◀ Back</button>'
            '<input type="range" min="0" max="0" value="0" data-step-slider>'
            '<button type="button" data-step-next>Next ▶</button> <span data-step-label></span></div>'
            '<div data-replay-board></div><section class="log"><h3>Move log</h3>'
            '<ol class="history" data-history></ol></section></div>')
    return shell("Replay — duelkit studio", body, "replay", studio.version)


def error_page(studio: Studio, title: str, message: str) -> str:
    body = f'<h1>{h(title)}</h1><p class="error" data-error>{h(message)}</p><p><a href="/">Back to the games</a></p>'
    return shell(title, body, "error", studio.version)
