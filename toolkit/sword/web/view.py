"""What one browser sees of a sword duel: only what the rules let that player see.

Public: the range, both players' Health, Momentum and Balance (their tracks are on the table), the cards
revealed each turn and what they did. Private to a player: their own techniques, build and choice, and what
their Insight learned. The opponent's Attack and Defense Totals are shown without the parts that would give
away Strength or Defense; an opponent's Insight says what was looked at, not what was seen. On a hot-seat
device, secrets appear only behind a "pass the device" screen.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from toolkit.sword.engine.duel import Action, DuelState, InsightTarget, legal_builds
from toolkit.sword.model import Technique
from toolkit.sword.rules.positions import ORDER, Move
from toolkit.web.html import attrs, h
from toolkit.web.table import TableView

if TYPE_CHECKING:
    from toolkit.sword.web.table import SwordTable

ROLES = ("Challenger", "Defender")
_INSIGHT = re.compile(r"^(Challenger|Defender) gains Insight: the opponent's (\w+) is (.+)\.$")
_TOTAL = re.compile(r"^(Challenger|Defender) (Attack|Defense) Total (\d+) \(.*\)(.*)$")


def visible(event: str, me: int | None) -> str:
    """An event line as player `me` may read it (None: what both may read on a shared screen)."""
    insight = _INSIGHT.match(event)
    if insight and (me is None or ROLES[me] != insight.group(1)):
        return f"{insight.group(1)} gains Insight into the opponent's {insight.group(2)}."
    total = _TOTAL.match(event)
    if total and (me is None or ROLES[me] != total.group(1)):
        return f"{total.group(1)} {total.group(2)} Total {total.group(3)}{total.group(4)}"
    return event


def render(table: SwordTable, seats: frozenset[int], hotseat: bool) -> TableView:
    waiting = table.waiting_for()
    mine = [s for s in waiting if s in seats and table.players[s] == "human"]
    me = _viewer(table, seats, hotseat)
    parts = [f'<div class="status"{attrs(data_status=True, data_mine=bool(mine), data_over=table.phase == "over")}>'
             f"{h(_status(table, seats, mine))}</div>"]
    if table.duel is not None:  # once the duel is over, the builds and hands are shown (nothing is left to hide)
        parts.append(public_html(table.duel, me, everything=table.phase == "over"))
    if hotseat and mine and table.facing not in mine:
        seat = mine[0]
        parts.append(f'<div class="pass-device" data-pass-device><p>Pass the device to the <b>{ROLES[seat]}</b> '
                     f"({'AB'[seat]}). The other player looks away.</p>"
                     f'<button type="button"{attrs(data_action="show", data_field_seat=seat)}>'
                     f"I am the {ROLES[seat]}: show my cards</button></div>")
    elif me is not None:
        parts.append(_private(table, me, me in mine))
    parts.append(_log(table, None if hotseat else me))
    title = f"{table.database.name}: the sword duel"
    return TableView("".join(parts), computer_next=table.computer_next(), over=table.phase == "over", title=title)


def _viewer(table: SwordTable, seats: frozenset[int], hotseat: bool) -> int | None:
    """The seat whose secrets this screen shows (None: nobody's)."""
    if hotseat:
        return table.facing
    return next(iter(seats)) if len(seats) == 1 else None


def _status(table: SwordTable, seats: frozenset[int], mine: list[int]) -> str:
    phase = table.phase
    if phase == "over":
        assert table.duel is not None
        return result_words(table.duel)
    step = {"draft": "the draft", "build": "secret builds",
            "turn": f"turn {table.duel.turn if table.duel else 1}"}[phase]
    if mine:
        who = " and ".join(ROLES[s] for s in mine) if len(seats) == 2 else "you"
        return f"{step}: {who} to choose"
    return f"{step}: waiting for the other player's secret choice"


def result_words(duel: DuelState) -> str:
    """How a finished duel ended, in words."""
    result = duel.result
    assert result is not None
    reason = result.reason.value.replace("_", " ")
    return f"draw ({reason}) after turn {duel.turn}" if result.winner is None else \
        f"{ROLES[result.winner.seat]} ({result.winner.value}) wins by {reason} after turn {duel.turn}"


def public_html(duel: DuelState, me: int | None, everything: bool = False) -> str:
    """The mats everyone sees: the range track, each duelist's Health, Momentum and Balance (`everything`:
    a replay, which knows every secret, adds each duelist's build and techniques)."""
    track = "".join(f'<span{attrs(class_="here" if r is duel.range else None, data_range=r.value)}>{r.value}</span>'
                    for r in ORDER)
    sides = []
    for seat, player in enumerate(duel.players):
        sides.append(f'<div{attrs(class_="duelist me" if seat == me else "duelist", data_duelist="AB"[seat])}>'
                     f"<h3>{ROLES[seat]} ({'AB'[seat]}){' — you' if seat == me else ''}</h3>"
                     f'<p class="meter">Health <b data-health>{player.health}</b> · Momentum <b>{player.momentum}</b>'
                     f" · Balance <b>{player.balance}</b></p>{_secrets(duel, seat) if everything else ''}</div>")
    return f'<div class="range-track" data-range-track>{track}</div><div class="duel">{"".join(sides)}</div>'


def _secrets(duel: DuelState, seat: int) -> str:
    player = duel.players[seat]
    build = player.attributes
    return (f'<p class="secret" data-build>Speed {build.speed} · Strength {build.strength} · Defense {build.defense}'
            f"<br>{h(player.techniques[0].name)} and {h(player.techniques[1].name)}</p>")


def _technique_html(technique: Technique, extra: str = "") -> str:
    rules = "".join(f"<p>{h(line)}</p>" for line in technique.rules_text)
    return (f'<div class="technique"{attrs(data_technique=technique.id)}><h4>{h(technique.name)} '
            f"<small>{h(technique.type)}</small></h4>{rules}{extra}</div>")


def _private(table: SwordTable, me: int, deciding: bool) -> str:
    parts = [f'<section class="private" data-private="{"AB"[me]}"><h2>Your hand ({ROLES[me]})</h2>']
    picks = table.picks[me]
    if picks:
        parts.append("<h3>Your techniques</h3>" + "".join(_technique_html(table.technique(t)) for t in picks))
    build = table.builds[me]
    if build is not None:
        parts.append(f"<p>Your build: Speed {build.speed}, Strength {build.strength}, Defense {build.defense}</p>")
    if table.duel is not None:
        knows = table.duel.players[me].knows
        known = [f"{name} {value}" for name, value in (("Speed", knows.speed), ("Strength", knows.strength),
                                                        ("Defense", knows.defense)) if value is not None]
        parts.append(f'<p data-knows>What you know of the opponent: {h(", ".join(known) or "nothing yet")}</p>')
    if deciding:
        parts.append({"draft": _draft_form, "build": _build_form, "turn": _turn_form}[table.phase](table, me))
    elif table.phase != "over":
        parts.append("<p>Your choice is locked in, face down.</p>")
    parts.append("</section>")
    return "".join(parts)


def _draft_form(table: SwordTable, me: int) -> str:
    del me
    verb = "Take" if table.drafting() == "pick" else "Discard"
    cards = []
    for card in table.pool:
        technique = table.technique(card)
        take = f'<button type="button"{attrs(data_action="pick", data_field_card=card)}>{verb} {h(technique.name)}'
        take += "</button>"
        cards.append(_technique_html(technique, take))
    ask = "take one" if verb == "Take" else "discard one (face down)"
    return f"<h3>The deck you were passed: {ask}</h3><div class=\"draft-pool\">{''.join(cards)}</div>"


def _build_form(table: SwordTable, me: int) -> str:
    del me
    named = {(b.speed, b.strength, b.defense): b.name for b in table.database.builds.values()}
    buttons = []
    for build in legal_builds():
        key = (build.speed, build.strength, build.defense)
        label = f"Speed {build.speed} · Strength {build.strength} · Defense {build.defense}"
        name = f" ({named[key]})" if key in named else ""
        fields = attrs(data_action="build", data_field_speed=build.speed, data_field_strength=build.strength,
                       data_field_defense=build.defense)
        buttons.append(f'<li><button type="button"{fields}>{h(label + name)}</button></li>')
    return f"<h3>Choose your secret build</h3><ul class=\"builds\">{''.join(buttons)}</ul>"


def _turn_form(table: SwordTable, me: int) -> str:
    techniques = [table.technique(t) for t in table.picks[me]]
    radios = "".join(f'<label><input type="radio" name="technique" value="{i}"{" checked" if i == 0 else ""}> '
                     f"{h(t.name)}</label>" for i, t in enumerate(techniques))
    moves = "".join(f'<label><input type="radio" name="move" value="{m.value}"{" checked" if m is Move.STAY else ""}>'
                    f" {'no movement card (stay)' if m is Move.STAY else m.value.capitalize()}</label>" for m in Move)
    cards = [("none", "no combat card")] + [(a.value, a.value.capitalize()) for a in Action]
    card_html = "".join(f'<label><input type="radio" name="card" value="{v}"{" checked" if v == "none" else ""}>'
                        f" {t}</label>" for v, t in cards)
    insight = "".join(f'<option value="{t.value}">{t.value}</option>' for t in InsightTarget)
    evades = [("none", "no evade"), ("evade", "evade if attacked"), ("momentum", "evade, paying Momentum"),
              ("balance", "evade, paying Balance"), ("special", "the technique's special evade")]
    evade_html = "".join(f'<option value="{v}">{t}</option>' for v, t in evades)
    reset = ""
    if any(e.kind == "optional_reset" for t in techniques for e in t.effects):
        reset = ('<label><input type="checkbox" name="reset"> reset Momentum and Balance to 0 '
                 "(if the technique allows)</label>")
    key = f"turn-{table.duel.turn if table.duel else 0}-{'AB'[me]}"  # the page keeps what is ticked across views
    return (f'<form class="choice" data-form data-choice-form data-form-key="{key}">'
            f"<fieldset><legend>Technique (face down)</legend>{radios}"
            f"</fieldset><fieldset><legend>Movement</legend>{moves}</fieldset>"
            f"<fieldset><legend>Combat card</legend>{card_html}<label>Insight into <select name=\"insight\">{insight}"
            f"</select></label></fieldset><fieldset><legend>Evade</legend><select name=\"evade\">{evade_html}</select>"
            f"{reset}</fieldset><div><button type=\"submit\" data-lock-in>Lock in (secret)</button></div></form>")


def _log(table: SwordTable, me: int | None) -> str:
    items = []
    for turn in table.turns:
        items += [f'<li{attrs(data_turn=turn.number if i == 0 else None, class_="turn-head" if i == 0 else None)}>'
                  f"{h(visible(event, me))}</li>" for i, event in enumerate(turn.events)]
    draft = sum(len(p) for p in table.picks)
    head = f"<p>Draft: {draft} of 4 cards taken; {table.discarded()} removed or discarded face down.</p>" \
        if table.phase == "draft" else ""
    return (f'<section class="log"><h3>Duel log</h3>{head}'
            f'<ol class="history" data-history>{"".join(items)}</ol></section>')
