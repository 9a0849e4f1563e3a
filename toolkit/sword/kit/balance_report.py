"""The sword-duel balance report: balance.pdf and its CSVs, laid out from `toolkit.sword.balance` numbers.

Page 1: technique ratings (bars with Wilson 95% whiskers) and the outliers with why. Page 2: the
technique-against-technique table (row technique's score against the column, draws half). Page 3: builds
ranked, the honor rule with and without, the Challenger's edge in the mirror matches.
"""

from __future__ import annotations

from toolkit.csvsafe import csv_text
from toolkit.kit.palette import ACCENT, INK, MUTED, RULE
from toolkit.render.impose import PAPER_SIZES
from toolkit.render.pdf import render_pdf
from toolkit.render.scene import Document, Group, Line, Page, Rect, Shape, Style, Text, filled
from toolkit.render.textfit import fit_line, fit_text, text_lines
from toolkit.sword.balance import OFF_PARITY, Score, SwordBalance

MARGIN = 14.0
STRONG, WEAK, EVEN = "#2b8cbe", "#e66101", "#9e9e9e"
# the table's cells: white at 50%, blue toward a win, orange toward a loss (a greyscale print keeps the
# lightness, and each cell also prints its percentage)


def _pct(value: float) -> str:
    return f"{value * 100:.0f}%"


def _fill(rate: float) -> str:
    t = min(1.0, abs(rate - 0.5) * 2)
    target = (43, 140, 190) if rate >= 0.5 else (230, 97, 1)
    r, g, b = (round(255 + (c - 255) * t * 0.85) for c in target)
    return f"#{r:02x}{g:02x}{b:02x}"


def _heading(page: Page, width: float, title: str, subtitle: str) -> float:
    inner = width - 2 * MARGIN
    page.add(Rect(MARGIN, MARGIN, inner, 1.2, filled(ACCENT)))
    fitted = fit_line(title, inner, "bold", 16, 9)
    page.add(Text(MARGIN, MARGIN + 9, fitted.lines[0], fitted.size, "bold", INK))
    small = fit_text(subtitle, inner, 12, "regular", 7.5, 5)
    page.add(*text_lines(small, MARGIN, MARGIN + 11.5, "regular", MUTED))
    return MARGIN + 26


def _section(page: Page, width: float, y: float, title: str, note: str = "") -> float:
    page.add(Text(MARGIN, y, title, 10, "bold", ACCENT))
    if note:
        fitted = fit_text(note, width - 2 * MARGIN, 8, "regular", 7, 5)
        page.add(*text_lines(fitted, MARGIN, y + 1.5, "regular", MUTED))
        return y + 3 + len(fitted.lines) * fitted.line_height()
    return y + 4


def _bar(x: float, y: float, width: float, label: str, score: Score) -> list[Shape]:
    """A technique's or build's score as a bar, its interval as a whisker, the parity line dashed."""
    label_w = 42.0
    bar_x, bar_w = x + label_w, width - label_w - 34
    low, high = score.interval
    colour = STRONG if low > OFF_PARITY else WEAK if high < OFF_PARITY else EVEN
    name = fit_line(label, label_w - 2, "regular", 8, 5)
    whisker = Style(stroke=INK, width=0.4)
    mid = bar_x + bar_w / 2
    return [Text(x, y + 4, name.lines[0], name.size, "regular", INK),
            Rect(bar_x, y, bar_w, 5.5, Style(fill="#f3f3f3", stroke=RULE, width=0.2)),
            Rect(bar_x, y, bar_w * score.rate, 5.5, filled(colour)),
            Line(bar_x + bar_w * low, y + 2.75, bar_x + bar_w * high, y + 2.75, whisker),
            Line(bar_x + bar_w * low, y + 1, bar_x + bar_w * low, y + 4.5, whisker),
            Line(bar_x + bar_w * high, y + 1, bar_x + bar_w * high, y + 4.5, whisker),
            Line(mid, y - 0.8, mid, y + 6.3, Style(stroke=INK, width=0.25, dash=(0.8, 0.8))),
            Text(bar_x + bar_w + 2, y + 4, f"{_pct(score.rate)} ({_pct(low)}-{_pct(high)})", 7, "regular", INK)]


def _subtitle(found: SwordBalance, what: str) -> str:
    return (f"{what} Players: {found.players[0]} against {found.players[1]}; seed {found.seed}. Scores count a "
            "draw as half a win; whiskers and brackets are Wilson 95% intervals; the dashed line is 50%. These "
            "figures depend on the players and the number of duels.")


def _ratings_page(found: SwordBalance, name: str, width: float, height: float) -> Page:
    page = Page(width, height, label="Balance: techniques")
    y = _heading(page, width, f"{name}: balance",
                 _subtitle(found, f"Each technique against every other, {found.matchup_duels} duels per pair "
                                  "(each player holds one technique twice, builds chosen by the players)."))
    y = _section(page, width, y, "Technique ratings", "Score over all duels against the other techniques. "
                 "Blue: the interval lies above 50%; orange: below; grey: not told apart from 50%.")
    for technique, score in sorted(found.ratings.items(), key=lambda kv: -kv[1].rate):
        page.add(*_bar(MARGIN, y, width - 2 * MARGIN, technique, score))
        y += 7.5
    y += 6
    y = _section(page, width, y, "Outliers and why")
    if not found.outliers:
        page.add(Text(MARGIN, y + 3, "none: every interval includes 50%", 7.5, "regular", INK))
    for label, why in found.outliers:
        if y > height - MARGIN - 12:
            page.add(Text(MARGIN, y + 3, "(more in techniques.csv and builds.csv)", 7, "regular", MUTED))
            break
        fitted = fit_text(f"{label}: {why}", width - 2 * MARGIN, 12, "regular", 7.5, 5.5)
        page.add(*text_lines(fitted, MARGIN, y, "regular", INK))
        y += len(fitted.lines) * fitted.line_height() + 1.5
    return page


def _table_page(found: SwordBalance, width: float, height: float) -> Page:
    page = Page(width, height, label="Balance: matchups")
    y = _heading(page, width, "Technique against technique",
                 _subtitle(found, f"Row technique's score against the column technique, {found.matchup_duels} "
                                  "duels per cell; the diagonal is the mirror match."))
    names = found.techniques
    label_w = 34.0
    cell = min(15.0, (width - 2 * MARGIN - label_w) / max(1, len(names)))
    top = y + 30
    for j, column in enumerate(names):
        x = MARGIN + label_w + (j + 0.5) * cell
        fitted = fit_line(column, 28, "regular", 6.5, 4.5)
        # column names run upward, so long names fit above narrow cells
        page.add(Group((Text(0, 0, fitted.lines[0], fitted.size, "regular", INK),), x + 1, top - 2, -90.0))
    for i, row in enumerate(names):
        ry = top + i * cell
        fitted = fit_line(row, label_w - 2, "regular", 7, 4.5)
        page.add(Text(MARGIN, ry + cell / 2 + 1.2, fitted.lines[0], fitted.size, "regular", INK))
        for j, column in enumerate(names):
            score = found.matchups[(row, column)]
            x = MARGIN + label_w + j * cell
            page.add(Rect(x, ry, cell, cell, Style(fill=_fill(score.rate), stroke=RULE, width=0.2)))
            page.add(Text(x + cell / 2, ry + cell / 2 + 1.1, _pct(score.rate), 6.5, "regular", INK, "middle"))
    y = top + len(names) * cell + 8
    low, high = found.challenger.interval
    note = (f"The mirror matches (the diagonal) put the same technique on both sides: the Challenger scored "
            f"{_pct(found.challenger.rate)} ({_pct(low)}-{_pct(high)}) of {found.challenger.games} mirror duels.")
    fitted = fit_text(note, width - 2 * MARGIN, 10, "regular", 7.5, 5.5)
    page.add(*text_lines(fitted, MARGIN, y, "regular", INK))
    return page


def _builds_page(found: SwordBalance, width: float, height: float) -> Page:
    page = Page(width, height, label="Balance: builds and honor")
    y = _heading(page, width, "Builds and the honor rule",
                 _subtitle(found, "Builds: every duel of the technique table (builds chosen uniformly, so each "
                                  "meets the same field). Honor: whole drafted duels with and without the rule."))
    y = _section(page, width, y, "Builds ranked (Speed/Strength/Defense)")
    for build, score in sorted(found.builds.items(), key=lambda kv: -kv[1].rate):
        page.add(*_bar(MARGIN, y, width - 2 * MARGIN, build, score))
        y += 7.5
    y += 6
    y = _section(page, width, y, "The honor rule (Retreat on turn 4 or later loses)",
                 f"{found.honor_duels} drafted duels each way, the same draws of chance.")
    rows: list[tuple[str, ...]] = [("", "with the rule", "without")]
    figures = [found.honor.get("with", {}), found.honor.get("without", {})]
    rows.append(("duels", *(str(f.get("duels", 0)) for f in figures)))
    rows.append(("draws", *(_count(f.get("draws", 0), f.get("duels", 0), f.get("draw_interval")) for f in figures)))
    rows.append(("reached turn 4", *(_count(f.get("long", 0), f.get("duels", 0), f.get("long_interval"))
                                     for f in figures)))
    rows.append(("mean turns", *(f"{f.get('mean_turns', 0.0):.2f}" for f in figures)))
    rows.append(("Challenger's share of decisive duels",
                 *(_count(f.get("challenger_wins", 0), f.get("decisive", 0), f.get("challenger_interval"))
                   for f in figures)))
    reasons = sorted({r for f in figures for r in f.get("ended", {})})
    for reason in reasons:
        counts = (str(f.get("ended", {}).get(reason, 0)) for f in figures)
        rows.append((f"ended by {reason.replace('_', ' ')}", *counts))
    for label, *cells in rows:
        page.add(Text(MARGIN, y + 4, label, 7.5, "bold" if not label else "regular", INK))
        for k, value in enumerate(cells):
            page.add(Text(MARGIN + 80 + k * 52, y + 4, value, 7.5, "bold" if not label else "regular", INK))
        page.add(Line(MARGIN, y + 5.6, width - MARGIN, y + 5.6, Style(stroke=RULE, width=0.2)))
        y += 6.5
    return page


def _count(k: int, n: int, interval: tuple[float, float] | None) -> str:
    if not n:
        return "-"
    low, high = interval or (0.0, 1.0)
    return f"{k} ({_pct(k / n)}, {_pct(low)}-{_pct(high)})"


def balance_pdf(found: SwordBalance, name: str, paper: str) -> bytes:
    width, height = PAPER_SIZES[paper]
    pages = [_ratings_page(found, name, width, height), _table_page(found, width, height),
             _builds_page(found, width, height)]
    return render_pdf(Document(f"{name}: balance", pages))


def _score_cells(score: Score) -> list[object]:
    low, high = score.interval
    return [score.games, score.wins, score.draws, round(score.rate, 4), round(low, 4), round(high, 4)]


def balance_csvs(found: SwordBalance) -> dict[str, bytes]:
    """techniques.csv, matchups.csv and builds.csv; every text cell neutralised (toolkit.csvsafe)."""
    why = dict(found.outliers)
    head = ["games", "wins", "draws", "score", "low", "high"]
    techniques: list[list[object]] = [["technique", *head, "outlier_why"]]
    for technique, score in sorted(found.ratings.items(), key=lambda kv: -kv[1].rate):
        techniques.append([technique, *_score_cells(score), why.get(technique, "")])
    matchups: list[list[object]] = [["technique", "against", *head]]
    for (row, column), score in sorted(found.matchups.items()):
        matchups.append([row, column, *_score_cells(score)])
    builds: list[list[object]] = [["build", *head, "outlier_why"]]
    for build, score in sorted(found.builds.items(), key=lambda kv: -kv[1].rate):
        builds.append([build, *_score_cells(score), why.get(f"build {build}", "")])
    return {"techniques.csv": csv_text(techniques).encode(), "matchups.csv": csv_text(matchups).encode(),
            "builds.csv": csv_text(builds).encode()}
