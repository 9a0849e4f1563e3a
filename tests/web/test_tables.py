"""The games' web tables without a browser: exact odds from the engine agree with `duelkit odds`, undo and redo
replay the same spins, a studio game's record replays under `duelkit replay`'s checks, and the sword duel
shows each player only what the rules allow."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from toolkit.figure.analysis.odds import Fighter, battle_odds
from toolkit.figure.engine import CHANCE, Action, GameState, build_game
from toolkit.figure.engine.actions import ATTACK
from toolkit.figure.engine.core import NO_TURN_FX
from toolkit.figure.engine.play import random_bot, sample_outcome
from toolkit.figure.engine.render_text import tag
from toolkit.figure.web.narrate import battle_odds as engine_odds
from toolkit.players import Player
from toolkit.problems import DuelkitError
from toolkit.registry import discover, find_game
from toolkit.sword.web.view import visible
from toolkit.web.table import TableRequest


@pytest.fixture(scope="module")
def loaded() -> dict[str, object]:
    found, _ = discover(None)
    return {game.id: game.load(where) for game, where in found}


def _plain_attack(database: object) -> tuple[GameState, Action]:
    """A battle the static odds describe exactly: no status, no module or subroutine bonus (a re-spin offer is
    counted as declined by both)."""
    game = build_game("hydro-conductor", "malfunction-cascade", database)  # type: ignore[arg-type]
    for seed in range(50):
        rng = random.Random(seed)
        state = GameState.initial(game, Player.A)
        while not state.is_terminal():
            if state.current_player == CHANCE:
                state.apply(sample_outcome(state, rng))
                continue
            for action in state.decisions():
                if action.kind == ATTACK and state.tfx == NO_TURN_FX and not state.status[action.unit] \
                        and not state.status[action.target] and not state._subroutine_damage(action.unit) \
                        and not state._subroutine_damage(action.target):
                    return state, action
            state.apply(random_bot(state, rng))
    raise AssertionError("no plain battle in 50 random games")


def test_odds_before_a_battle_agree_with_duelkit_odds(loaded: dict[str, object]) -> None:
    database = loaded["duel-protocol"].database  # type: ignore[attr-defined]
    state, attack = _plain_attack(database)
    walked = dict(engine_odds(state, attack).outcomes)
    assert sum(walked.values()) == 1
    static = battle_odds(Fighter(state.form_of(attack.unit).disk), Fighter(state.form_of(attack.target).disk))
    out = state.game.theme.terms.deactivated.lower()
    defender_out = sum((p for label, p in walked.items() if label.endswith(f": {tag(attack.target)} {out}")),
                       Fraction(0))
    attacker_out = sum((p for label, p in walked.items() if label.endswith(f": {tag(attack.unit)} {out}")),
                       Fraction(0))
    assert defender_out > 0
    assert defender_out == static.defender_deactivated
    assert attacker_out == static.attacker_deactivated


def test_undo_then_redo_gives_the_same_game(loaded: dict[str, object]) -> None:
    game = find_game("chimera")
    table = game.web_table(loaded["chimera"], TableRequest(("attrition-lock", "grid-surge"), ("human", "greedy"), 5))
    me = frozenset({0})
    table.computer_turn()
    for _ in range(3):
        table.act(me, {"action": "0"})
        table.computer_turn()
    before = table.record()
    assert table.undo(me)
    assert table.redo(me)
    assert table.record() == before
    assert table.undo(me)
    assert table.undo(me)
    assert table.record() != before
    with pytest.raises(DuelkitError, match="not your turn"):
        table.act(frozenset({1}), {"action": "0"})
    with pytest.raises(DuelkitError, match="no such action"):
        table.act(me, {"action": "9999"})


def test_a_studio_record_replays_under_duelkit_replays_checks(loaded: dict[str, object]) -> None:
    game = find_game("chimera")
    data = loaded["chimera"]
    table = game.web_table(data, TableRequest(("attrition-lock", "grid-surge"), ("greedy", "greedy"), 2))
    table.computer_turn()
    record = table.record()
    assert record is not None
    result = game.replay(data, record, None)  # the command line's replay
    assert result.divergence is None
    frames = game.web_replay(data, record)
    assert frames.problem is None
    assert frames.steps == len(record.splitlines()) - 2
    assert "wins by" in frames.frame(frames.steps) or "draw" in frames.frame(frames.steps)


def test_the_sword_duel_hides_what_the_rules_hide() -> None:
    seen = "Challenger gains Insight: the opponent's strength is 3."
    assert visible(seen, 0) == seen
    assert visible(seen, 1) == "Challenger gains Insight into the opponent's strength."
    assert "3" not in visible(seen, None)
    total = "Defender Attack Total 6 (Strength 2, Advance +1, Close Combat +1, Kuzushi +2), ignores Defense."
    assert visible(total, 1) == total
    assert visible(total, 0) == "Defender Attack Total 6, ignores Defense."
    assert visible("Range: apart -> sword.", 0) == "Range: apart -> sword."


def test_a_sword_table_plays_a_turn_and_refuses_what_is_not_allowed(loaded: dict[str, object]) -> None:
    game = find_game("sword-duel")
    table = game.web_table(loaded["sword-duel"], TableRequest(None, ("human", "random"), 7))
    me = frozenset({0})
    view = table.view(me, hotseat=False)
    assert 'data-action="pick"' in view.html
    with pytest.raises(DuelkitError):
        table.act(me, {"action": "pick", "card": "not-a-card"})
    for _ in range(3):  # take, take, discard (the computer Defender takes its cards in between)
        pool = table.pool  # type: ignore[attr-defined]
        table.act(me, {"action": "pick", "card": pool[0]})
        table.computer_turn()
    assert len(table.picks[0]) == 2  # type: ignore[attr-defined]
    table.act(me, {"action": "build", "speed": "2", "strength": "2", "defense": "2"})
    assert table.view(me, hotseat=False).computer_next  # the computer's secret build is due
    table.computer_turn()
    with pytest.raises(DuelkitError, match="can never be in range"):
        table.act(me, {"move": "retreat", "card": "attack", "technique": "0", "evade": "none"})
    table.act(me, {"move": "advance", "card": "none", "technique": "0", "evade": "none"})
    assert table.turns  # type: ignore[attr-defined]  # the computer chose too: the turn was revealed
    opponent = table.view(frozenset({1}), hotseat=False).html
    assert "Your hand (Defender)" in opponent
    assert 'data-private="A"' not in opponent
    for card in table.picks[0]:  # type: ignore[attr-defined]  # the Challenger's hand is not shown to the Defender
        assert f'data-technique="{card}"' not in opponent


@pytest.mark.parametrize("players", [("greedy", "equilibrium"), ("random", "greedy")])
def test_a_studio_sword_duel_is_the_duel_duelkit_play_plays(loaded: dict[str, object],
                                                            players: tuple[str, str]) -> None:
    """The studio's computer seats are `play`'s players on `play`'s seeds: the same duel, the same record,
    and the record replays under `duelkit replay`'s checks."""
    from toolkit.game import PlayRequest

    game = find_game("sword-duel")
    data = loaded["sword-duel"]
    table = game.web_table(data, TableRequest(None, players, 11))
    assert table.computer_turn()
    assert table.view(frozenset(), hotseat=False).over
    record = table.record()
    assert record is not None
    played = game.play(data, PlayRequest("", "", players, 11, None, None), lambda _line: None,
                       lambda _lines, _options: 0)
    assert record == played
    assert game.replay(data, record, None).divergence is None


def test_a_simulate_record_replays_in_the_studio(loaded: dict[str, object]) -> None:
    """`simulate --out` writes each kept game's record from `play_pair` (toolkit/figure/sim/games.py)."""
    from toolkit.figure.sim.games import PairTask, play_pair

    data = loaded["duel-protocol"]
    game = build_game("hydro-conductor", "malfunction-cascade", data.database)  # type: ignore[attr-defined]
    first, _ = play_pair(game, PairTask(("greedy", "greedy"), 1, 0, True, None))
    assert first.record is not None
    frames = find_game("duel-protocol").web_replay(data, first.record)
    assert frames.problem is None
    assert frames.steps == len(first.record.splitlines()) - 2


def test_a_sword_record_steps_in_the_studio_and_a_tampered_line_is_named(loaded: dict[str, object]) -> None:
    import json

    from toolkit.problems import UsageError

    game = find_game("sword-duel")
    data = loaded["sword-duel"]
    table = game.web_table(data, TableRequest(None, ("greedy", "random"), 4))
    table.computer_turn()
    record = table.record()
    assert record is not None
    lines = record.splitlines()
    frames = game.web_replay(data, record)
    assert frames.problem is None
    assert frames.steps == len(lines) - 2  # the header and the result line are not steps
    assert "Chance removes at random" in frames.log[0]
    assert "In the deck" in frames.frame(0)
    assert "Speed" in frames.frame(frames.steps)  # a record knows the builds: the replay shows them
    assert "wins by" in frames.frame(frames.steps) or "draw" in frames.frame(frames.steps)
    # a line that breaks the rules: the steps before it, and the line named as `duelkit replay` names it
    turn = next(i for i, line in enumerate(lines) if line.startswith('{"turn": 1,'))
    item = json.loads(lines[turn])
    item["A"] = {"move": "advance", "technique": 0, "action": "defend", "insight": "speed"}
    lines[turn] = json.dumps(item)
    tampered = game.web_replay(data, "\n".join(lines) + "\n")
    assert tampered.problem is not None
    assert tampered.problem.startswith(f"{turn + 1}: ")
    assert tampered.steps == turn - 1
    with pytest.raises(DuelkitError, match="format"):
        game.web_replay(data, '{"game": "sword-duel", "format": 9}\n')
    with pytest.raises(UsageError):  # a figure game passes a sword record on to the sword duel
        find_game("chimera").web_replay(loaded["chimera"], record)


def test_a_sword_simulate_record_replays_in_the_studio(loaded: dict[str, object]) -> None:
    """`simulate --out` in a sword project writes each duel's record from `play_duel` (fixed hands here)."""
    from toolkit.sword.record import data_hash
    from toolkit.sword.sim.duels import DuelTask, Setup, play_duel

    data = loaded["sword-duel"]
    db = data.database  # type: ignore[attr-defined]
    deck = tuple(t.id for t in db.draft_techniques())
    setup = Setup(dict(db.techniques), deck, hands=((deck[0], deck[1]), (deck[2], deck[3])),
                  data_hash=data_hash(db.techniques, deck))
    duel = play_duel(setup, DuelTask(("greedy", "random"), 3, 0, True), 9, 0)
    assert duel.record is not None
    frames = find_game("sword-duel").web_replay(data, duel.record)
    assert frames.problem is None
    assert frames.steps == len(duel.record.splitlines()) - 2
    assert "Challenger&#x27;s hand" in frames.log[0]  # HTML-escaped
    assert not frames.notes
