"""The playtest report of `duelkit simulate --out`: two pages per match a designer can take in at a glance.

Page one: the win rates as bars with their 95% intervals as whiskers, the first player's edge, how the
games were won, and the game-length histogram. Page two: each unit's knockouts and deactivations per
game, and the modules each squad spent. A round robin starts with the squad x squad matrix. Numbers come
from `toolkit.figure.sim.stats` (the same summary `--json` prints); this module only lays them out.
"""

from __future__ import annotations

from typing import Any

from toolkit.csvsafe import csv_text
from toolkit.figure.database import Database
from toolkit.figure.sim.impact import BoardBalance
from toolkit.figure.sim.stats import REASON_WORDS
from toolkit.kit.palette import ACCENT, INK, MUTED, RULE, TEAM
from toolkit.players import Player
from toolkit.render.pdf import render_pdf
from toolkit.render.scene import Document, Line, Page, Rect, Shape, Style, Text, filled
from toolkit.render.textfit import fit_line

WIDTH, HEIGHT = 210.0, 297.0  # A4: a report, not a kit sheet
MARGIN = 16.0
INNER = WIDTH - 2 * MARGIN
DRAW_GREY = "#9a9a9a"
BAR_GREY = "#5b6f86"
PARITY = "#c0392b"


def playtest_pdf(database: Database, matches: list[dict[str, Any]],
                 round_robin: tuple[list[str], list[list[float | None]]] | None = None) -> bytes:
    pages: list[Page] = []
    if round_robin is not None:
        pages.append(_matrix_page(database, matches, *round_robin))
    for match in matches:
        pages += [_result_page(database, match), _units_page(database, match)]
    title = f"{database.theme.terms.game}: playtest"
    return render_pdf(Document(title, pages))


def _pct(value: float) -> str:
    return f"{value * 100:.0f}%"


def _heading(page: Page, title: str, subtitle: str) -> float:
    page.add(Rect(MARGIN, MARGIN, INNER, 1.2, filled(ACCENT)))
    fitted = fit_line(title, INNER, "bold", 16, 9)
    page.add(Text(MARGIN, MARGIN + 9, fitted.lines[0], fitted.size, "bold", INK))
    small = fit_line(subtitle, INNER, "regular", 7.5, 5)
    page.add(Text(MARGIN, MARGIN + 14, small.lines[0], small.size, "regular", MUTED))
    return MARGIN + 22


def _section(page: Page, y: float, title: str, note: str = "") -> float:
    page.add(Text(MARGIN, y, title, 10, "bold", ACCENT))
    if note:
        fitted = fit_line(note, INNER, "regular", 7, 5)
        page.add(Text(MARGIN, y + 4.5, fitted.lines[0], fitted.size, "regular", MUTED))
        return y + 9
    return y + 5


def _axis(x: float, y: float, width: float, height: float) -> list[Shape]:
    """0-100 % ticks under a bar area, and the parity line at 50 %."""
    items: list[Shape] = []
    for k in range(0, 101, 25):
        tx = x + width * k / 100
        items.append(Line(tx, y + height, tx, y + height + 1.2, Style(stroke=MUTED, width=0.2)))
        items.append(Text(tx, y + height + 4, f"{k}%", 6, "regular", MUTED, "middle"))
    mid = x + width / 2
    items.append(Line(mid, y - 1, mid, y + height, Style(stroke=PARITY, width=0.3, dash=(1.0, 1.0))))
    return items


def _bar(x: float, y: float, width: float, rate: float, interval: list[float] | None, fill: str,
         label: str, value: str) -> list[Shape]:
    """A labelled bar of `rate` (0..1) with an interval whisker."""
    label_w = 52.0
    bar_x, bar_w = x + label_w, width - label_w - 22
    name = fit_line(label, label_w - 2, "regular", 8, 5)
    items: list[Shape] = [Text(x, y + 4, name.lines[0], name.size, "regular", INK),
                          Rect(bar_x, y, bar_w, 5.5, Style(fill="#f1f1f1", stroke=RULE, width=0.2)),
                          Rect(bar_x, y, bar_w * rate, 5.5, filled(fill))]
    if interval is not None:
        low, high = bar_x + bar_w * interval[0], bar_x + bar_w * interval[1]
        whisker = Style(stroke=INK, width=0.4)
        items += [Line(low, y + 2.75, high, y + 2.75, whisker), Line(low, y + 1, low, y + 4.5, whisker),
                  Line(high, y + 1, high, y + 4.5, whisker)]
    items.append(Text(bar_x + bar_w + 2, y + 4, value, 7.5, "bold", INK))
    return items


def _result_page(database: Database, m: dict[str, Any]) -> Page:
    page = Page(WIDTH, HEIGHT, label="Playtest results")
    a, b = m["squads"]["a"], m["squads"]["b"]
    n = m["games"]
    y = _heading(page, f"{a} vs {b}",
                 f"{database.theme.terms.game}: {n} games in {m['pairs']} seat-swapped pairs sharing their dice; "
                 f"players {m['players']['a']} (A) and {m['players']['b']} (B); seed {m['seed']}")
    y = _section(page, y, "Win rates", "Bars: share of all games; whiskers: Wilson 95% intervals; dashed: parity. "
                 "An interval that does not cross the dashed line is a real edge, not luck.")
    top = y
    rows = [(f"{a} (A)", m["win_rate"]["a"], m["interval"]["a"], TEAM[Player.A].fill),
            (f"{b} (B)", m["win_rate"]["b"], m["interval"]["b"], "#c9a227"),
            ("draws", m["draws"] / n if n else 0.0, None, DRAW_GREY)]
    for label, rate, interval, fill in rows:
        page.add(*_bar(MARGIN, y, INNER, rate, interval, fill, label, _pct(rate)))
        y += 8
    page.add(*_axis(MARGIN + 52, top - 1, INNER - 74, y - top))
    y += 12
    y = _section(page, y, "First player's edge", "Share of the decisive games won by the side that moved first "
                 "(each pair plays once with A first and once with B first).")
    top = y
    page.add(*_bar(MARGIN, y, INNER, m["first_player_rate"], m["first_player_interval"], BAR_GREY,
                   "first player", f"{_pct(m['first_player_rate'])} of {m['wins']['a'] + m['wins']['b']}"))
    y += 8
    page.add(*_axis(MARGIN + 52, top - 1, INNER - 74, y - top))
    y += 12
    y = _section(page, y, "How the games ended")
    for reason, count in m["victory"].items():
        page.add(*_bar(MARGIN, y, INNER, count / n if n else 0.0, None, BAR_GREY, REASON_WORDS[reason],
                       f"{count} ({_pct(count / n if n else 0)})"))
        y += 8
    y += 6
    y = _section(page, y, "Game length", f"Turns per game (both players' turns counted): mean {m['mean_turns']:.1f}, "
                 f"median {m['turns']['median']}, from {m['turns']['min']} to {m['turns']['max']}.")
    page.add(*_histogram(MARGIN, y + 2, INNER, HEIGHT - MARGIN - 14 - (y + 2), m["turns"]["histogram"]))
    note = m.get("stopping", {}).get("note", "")
    if note:
        fitted = fit_line(note, INNER, "regular", 7, 5)
        page.add(Text(MARGIN, HEIGHT - MARGIN, fitted.lines[0], fitted.size, "regular", MUTED))
    return page


def _histogram(x: float, y: float, width: float, height: float, bins: list[list[int]]) -> list[Shape]:
    items: list[Shape] = []
    height = max(20.0, min(height, 70.0))
    if not bins:
        return items
    tallest = max(count for _, _, count in bins) or 1
    left = x + 8
    slot = (width - 8) / len(bins)
    items.append(Line(left, y + height, x + width, y + height, Style(stroke=INK, width=0.3)))
    for k in range(0, 5):
        value = tallest * k / 4
        ty = y + height - height * k / 4
        items.append(Text(left - 1.5, ty + 1, f"{value:.0f}", 6, "regular", MUTED, "end"))
        if k:
            items.append(Line(left, ty, x + width, ty, Style(stroke=RULE, width=0.1)))
    for i, (low, high, count) in enumerate(bins):
        h = height * count / tallest
        items.append(Rect(left + i * slot + 0.6, y + height - h, slot - 1.2, h, filled(BAR_GREY)))
        label = str(low) if low == high else f"{low}-{high}"
        items.append(Text(left + (i + 0.5) * slot, y + height + 4, label, 5.5, "regular", INK, "middle"))
    items.append(Text(x + width, y + height + 8, "turns", 6, "regular", MUTED, "end"))
    return items


def _units_page(database: Database, m: dict[str, Any]) -> Page:
    page = Page(WIDTH, HEIGHT, label="Playtest units")
    terms = database.theme.terms
    y = _heading(page, f"{m['squads']['a']} vs {m['squads']['b']}: {terms.units.lower()} and modules",
                 "Per game: enemies a unit Deactivated in battle (knockouts) and times it was Deactivated itself "
                 "(battle, surround or self-hit)")
    tallest = max([u["knockouts_per_game"] for s in ("a", "b") for u in m["units"][s]]
                  + [u["deactivations_per_game"] for s in ("a", "b") for u in m["units"][s]] + [0.01])
    for side, colour in (("a", TEAM[Player.A].fill), ("b", "#c9a227")):
        y = _section(page, y, f"{m['squads'][side]} ({side.upper()})")
        page.add(Text(MARGIN + 70, y, "knockouts per game", 6.5, "bold", MUTED),
                 Text(MARGIN + 125, y, "deactivations per game", 6.5, "bold", MUTED))
        y += 3
        for unit in m["units"][side]:
            entry = database.units.get(unit["unit"])
            name = fit_line(f"{entry.value.name if entry else unit['unit']} ({unit['unit']})", 66, "regular", 7.5, 5)
            page.add(Text(MARGIN, y + 3.6, name.lines[0], name.size, "regular", INK))
            for x, value, fill in ((MARGIN + 70, unit["knockouts_per_game"], colour),
                                   (MARGIN + 125, unit["deactivations_per_game"], DRAW_GREY)):
                page.add(Rect(x, y, 40 * value / tallest, 4.5, filled(fill)),
                         Text(x + 40 * value / tallest + 1.5, y + 3.5, f"{value:.2f}", 6.5, "regular", INK))
            y += 6.5
        y += 4
        used = m["modules"][side]
        page.add(Text(MARGIN, y, "modules spent (share of games):", 7, "bold", INK))
        y += 4.5
        games = max(m["games"], 1)
        text = ", ".join(f"{mid} {_pct(count / games)}" for mid, count in used.items()) or "none in the squad"
        fitted = fit_line(text, INNER, "regular", 7, 4.5)
        page.add(Text(MARGIN, y, fitted.lines[0], fitted.size, "regular", INK))
        y += 12
    return page


def _matrix_page(database: Database, matches: list[dict[str, Any]], squads: list[str],
                 matrix: list[list[float | None]]) -> Page:
    page = Page(WIDTH, HEIGHT, label="Round robin")
    players = matches[0]["players"] if matches else {"a": "?", "b": "?"}
    y = _heading(page, f"{database.theme.terms.game}: round robin",
                 f"{len(squads)} squads, {matches[0]['games'] if matches else 0} games per match; row squad played "
                 f"by {players['a']}, column squad by {players['b']}")
    y = _section(page, y, "Row squad's win rate against the column squad",
                 "Draws make up the rest. The diagonal is the mirror match: its rate shows side A's edge.")
    n = max(len(squads), 1)
    label_w = 46.0
    cell = min(24.0, (INNER - label_w) / n)
    for j, squad in enumerate(squads):
        name = fit_line(squad, cell - 1, "bold", 6.5, 4)
        page.add(Text(MARGIN + label_w + (j + 0.5) * cell, y + 3, name.lines[0], name.size, "bold", INK, "middle"))
    y += 5
    for i, squad in enumerate(squads):
        name = fit_line(squad, label_w - 2, "bold", 7, 4.5)
        page.add(Text(MARGIN, y + cell / 2 + 1.2, name.lines[0], name.size, "bold", INK))
        for j in range(len(squads)):
            value = matrix[i][j]
            shade = _shade(value)
            page.add(Rect(MARGIN + label_w + j * cell, y, cell, cell, Style(fill=shade, stroke="#ffffff", width=0.4)))
            page.add(Text(MARGIN + label_w + (j + 0.5) * cell, y + cell / 2 + 1.2,
                          "-" if value is None else _pct(value), 8, "bold", INK, "middle"))
        y += cell
    return page


def _shade(value: float | None) -> str:
    """White at parity, deepening blue as the row squad wins more, amber as it wins less."""
    if value is None:
        return "#eeeeee"
    t = min(1.0, abs(value - 0.5) * 2)
    target = (27, 58, 122) if value >= 0.5 else (244, 197, 66)
    rgb = tuple(round(255 + (c - 255) * t * 0.6) for c in target)
    return "#{:02x}{:02x}{:02x}".format(*rgb)


def board_pages(database: Database, board: BoardBalance) -> list[Page]:
    """The balance report's board-level pages: the round robin, then each unit's impact on its squad."""
    pages = [_matrix_page(database, board.matches, board.squads, board.matrix)]
    page = pages[0]
    y = MARGIN + 40 + len(board.squads) * min(24.0, (INNER - 46) / max(len(board.squads), 1)) + 10
    y = _section(page, y, "First player's edge in each match", "Share of the decisive games won by the side "
                 "that moved first, with its 95% interval.")
    for match in board.matches:
        label = f"{match['squads']['a']} vs {match['squads']['b']}"
        decisive = match["wins"]["a"] + match["wins"]["b"]
        top = y
        page.add(*_bar(MARGIN, y, INNER, match["first_player_rate"], match["first_player_interval"], BAR_GREY,
                       label, f"{_pct(match['first_player_rate'])} of {decisive}"))
        y += 8
        if y > HEIGHT - MARGIN - 20:
            break
    page.add(*_axis(MARGIN + 52, top - 1, INNER - 74, y - top))
    pages.append(_impact_page(database, board))
    return pages


def _impact_page(database: Database, board: BoardBalance) -> Page:
    page = Page(WIDTH, HEIGHT, label="Unit impact on the board")
    stand_ins = ", ".join(f"{unit} for {squad}" for squad, unit in board.replacements.items())
    y = _heading(page, f"{database.theme.terms.game}: each unit's impact on the board",
                 f"Its squad's win rate with the unit minus with an average unit in its place ({stand_ins}); "
                 f"{board.games} games per run, {board.players[0]} vs {board.players[1]}")
    y = _section(page, y, "Impact on the squad's win rate", "Bars: the difference; whiskers: its 95% interval "
                 "(Newcombe). Flagged (!): the interval excludes 0, so the unit matters beyond luck.")
    centre = MARGIN + 52 + (INNER - 74) / 2
    half = (INNER - 74) / 2
    top = y
    for impact in board.impacts:
        if y > HEIGHT - MARGIN - 12:
            page.add(Text(MARGIN, y + 4, "... board.csv lists every unit", 7, "regular", MUTED))
            break
        label = fit_line(f"{impact.squad}: {impact.unit}", 50, "regular", 7.5, 5)
        page.add(Text(MARGIN, y + 4, label.lines[0], label.size, "regular", INK))
        width = half * max(-1.0, min(1.0, impact.difference))
        page.add(Rect(min(centre, centre + width), y, abs(width), 5.5,
                      filled(TEAM[Player.A].fill if impact.difference >= 0 else "#c9a227")))
        low, high = (centre + half * max(-1.0, min(1.0, v)) for v in impact.interval)
        whisker = Style(stroke=INK, width=0.4)
        page.add(Line(low, y + 2.75, high, y + 2.75, whisker), Line(low, y + 1, low, y + 4.5, whisker),
                 Line(high, y + 1, high, y + 4.5, whisker))
        mark = " !" if impact.flagged else ""
        page.add(Text(MARGIN + INNER - 20, y + 4, f"{impact.difference * 100:+.0f} pts{mark}", 7.5,
                      "bold" if impact.flagged else "regular", PARITY if impact.flagged else INK))
        y += 7.5
    page.add(Line(centre, top - 1, centre, y, Style(stroke=MUTED, width=0.3, dash=(1.0, 1.0))))
    for value, text in ((-1.0, "-100"), (-0.5, "-50"), (0.0, "0"), (0.5, "+50"), (1.0, "+100")):
        page.add(Text(centre + half * value, y + 4, text, 6, "regular", MUTED, "middle"))
    return page


def board_csv(board: BoardBalance) -> str:
    """One row per unit: its squad's win rate with it and with the replacement, the difference and its interval."""
    rows: list[list[object]] = [["squad", "unit", "replacement", "win_rate_with", "win_rate_without", "impact",
                                 "impact_low", "impact_high", "flagged"]]
    rows += [[i.squad, i.unit, board.replacements[i.squad], f"{i.with_unit:.4f}", f"{i.without_unit:.4f}",
              f"{i.difference:.4f}", f"{i.interval[0]:.4f}", f"{i.interval[1]:.4f}", int(i.flagged)]
             for i in board.impacts]
    return csv_text(rows)
