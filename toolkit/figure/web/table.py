"""One board game in the browser: humans click, computer players (the registry `play` and `simulate` use)
reply, spins are drawn from the game's seed; undo and redo walk the list of steps.

Every step's dice come from the seed and the step's number (`random.Random(f"{seed}:spin:{k}")`), so undo
then redo gives the same spins, and a game replays the same from its record. Pure: no I/O.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from toolkit.figure.bots import Bot, make_bot
from toolkit.figure.database import Database
from toolkit.figure.engine import CHANCE, Action, GameState, IllegalAction, build_game
from toolkit.figure.engine.actions import ATTACK
from toolkit.figure.engine.narrate import Narrator
from toolkit.figure.engine.play import sample_outcome
from toolkit.figure.engine.record import Recorder, make_header
from toolkit.figure.engine.setup import SetupError
from toolkit.figure.web.narrate import log_entry
from toolkit.figure.web.view import LogEntry, actions_html, board_svg, log_html, status_line, zones_html
from toolkit.players import PLAYERS
from toolkit.problems import DuelkitError
from toolkit.web.html import attrs, h
from toolkit.web.table import HUMAN, Table, TableRequest, TableView

RECENT = 12  # steps shown in "since your last move"
MAX_STEPS = 20_000  # a 300-turn game is about 2,000 steps; the bound keeps one table's memory small


@dataclass(frozen=True)
class Step:
    seat: int  # 0/1 for a player's action, CHANCE for a spin
    step: Action | int
    human: bool
    entry: LogEntry


class FigureTable(Table):
    writes_record = True

    def __init__(self, database: Database, request: TableRequest) -> None:
        if request.squads is None:
            raise DuelkitError("the board game needs two squads (a= and b=)")
        if database.has_errors:
            raise DuelkitError(f"the {database.theme.id} data has problems: fix them first")
        self.players = request.players
        self.bots: dict[int, Bot] = {seat: make_bot(name) for seat, name in enumerate(request.players)
                                     if name != HUMAN}
        self.seed = request.seed
        first = PLAYERS[random.Random(request.seed).randrange(2)]  # as `duelkit play` draws it
        try:
            self.game = build_game(request.squads[0], request.squads[1], database)
        except SetupError as exc:
            raise DuelkitError(str(exc)) from None
        self.first = first
        self.header = make_header(self.game, data=request.data, seed=request.seed, players=list(request.players),
                                  first=first)
        self.states: list[GameState] = [GameState.initial(self.game, first)]
        self.steps: list[Step] = []
        self.undone: list[Step] = []
        self.narrator = Narrator()  # remembers the battle's spins to tell its result
        self.version = 0
        self._run_chance()

    @property
    def state(self) -> GameState:
        return self.states[-1]

    # ---- playing --------------------------------------------------------------------------------------

    def _push(self, step: Action | int, human: bool) -> None:
        before = self.state
        if len(self.steps) >= MAX_STEPS:
            raise DuelkitError(f"the game is over {MAX_STEPS} steps long")
        after = before.clone()
        after.apply(step)
        seat = before.current_player
        entry = LogEntry(*log_entry(self.narrator, before, step, after))
        self.states.append(after)
        self.steps.append(Step(seat, step, human, entry))
        self.version += 1

    def _run_chance(self) -> None:
        while self.state.current_player == CHANCE:
            rng = random.Random(f"{self.seed}:spin:{len(self.steps)}")
            self._push(sample_outcome(self.state, rng), human=False)

    def _bot_to_act(self) -> bool:
        state = self.state
        return not state.is_terminal() and (state.current_player == CHANCE or state.current_player in self.bots)

    def act(self, seats: frozenset[int], form: dict[str, str]) -> None:
        state = self.state
        seat = state.current_player
        if state.is_terminal():
            raise DuelkitError("the game is over")
        if seat not in seats or seat in self.bots:
            raise DuelkitError("it is not your turn")
        if form.get("version") not in (None, "", str(self.version)):
            raise DuelkitError("the board changed since you looked: try again")
        legal = state.decisions()
        text = form.get("action", "")
        if not text.isdigit() or int(text) >= len(legal):
            raise DuelkitError("no such action")
        try:
            self._push(legal[int(text)], human=True)
        except IllegalAction as exc:
            raise DuelkitError(str(exc)) from None
        self.undone.clear()
        self._run_chance()

    def computer_turn(self) -> bool:
        changed = False
        while self._bot_to_act():
            state = self.state
            if state.current_player == CHANCE:
                self._run_chance()
            else:
                seat = state.current_player
                rng = random.Random(f"{self.seed}:player:{seat}:{len(self.steps)}")
                self._push(self.bots[seat].choose(state, rng), human=False)
            changed = True
        if changed:
            self.undone.clear()
        return changed

    # ---- undo and redo ----------------------------------------------------------------------------------

    def undo(self, seats: frozenset[int]) -> bool:
        """Take back the last action of a seat this browser holds, and everything after it (the spins and the
        computer's reply)."""
        for index in range(len(self.steps) - 1, -1, -1):
            step = self.steps[index]
            if step.human and step.seat in seats:
                self.undone = self.steps[index:] + self.undone
                del self.steps[index:]
                del self.states[index + 1:]
                self._renarrate()
                self.version += 1
                return True
        return False

    def _renarrate(self) -> None:
        """A narrator that has seen exactly the steps kept (from the last attack on), after an undo."""
        self.narrator = Narrator()
        start = max((i for i, s in enumerate(self.steps) if isinstance(s.step, Action) and s.step.kind == ATTACK),
                    default=len(self.steps))
        for index in range(start, len(self.steps)):
            self.narrator.step(self.states[index], self.steps[index].step, self.states[index + 1])

    def redo(self, seats: frozenset[int]) -> bool:
        """Play again the action undone last, with its spins and the replies that followed it."""
        if not self.undone or self.undone[0].seat not in seats:
            return False
        first, *rest = self.undone
        batch = [first]
        for step in rest:
            if step.human:
                break
            batch.append(step)
        self.undone = self.undone[len(batch):]
        for step in batch:
            self._push(step.step, step.human)
        return True

    # ---- what the browser sees ------------------------------------------------------------------------------

    def record(self) -> str:
        recorder = Recorder(dict(self.header))
        for before, step in zip(self.states, self.steps, strict=False):
            recorder.on_step(before, step.step)
        if self.state.is_terminal():
            recorder.finish(self.state)
        return recorder.text()

    def view(self, seats: frozenset[int], hotseat: bool) -> TableView:
        del hotseat  # the board game hides nothing: both players see the same board
        state = self.state
        seat = state.current_player
        mine = seat in seats and seat not in self.bots and not state.is_terminal()
        legal = state.decisions() if not state.is_terminal() and seat != CHANCE else []
        terms = self.game.theme.terms
        title = f"{terms.game}: {self.game.squad_ids[0]} (A) against {self.game.squad_ids[1]} (B)"
        turn_of = ""
        if mine:
            turn_of = f"your turn ({PLAYERS[seat].value})" if len(seats) < 2 else f"{PLAYERS[seat].value} to act"
        html = "".join([
            f'<div class="status"{attrs(data_status=True, data_over=state.is_terminal(), data_mine=mine)}>'
            f"{h(status_line(state, self.players))}{' · ' + h(turn_of) if turn_of else ''}</div>",
            '<div class="play-grid"><div class="board-wrap">',
            board_svg(state, legal if mine else []),
            '</div><div class="panel">',
            '<div class="controls">'
            f'<button type="button" data-undo{attrs(disabled=not self._can_undo(seats))}>Undo</button>'
            f'<button type="button" data-redo{attrs(disabled=not (self.undone and self.undone[0].seat in seats))}>'
            "Redo</button></div>",
            "<h3>Your actions</h3>" if mine else "",
            actions_html(state, legal, mine) if mine else "",
            self._recent(seats),
            f'<div class="zones">{zones_html(state)}</div>',
            "</div></div>",
            '<section class="log"><h3>Move log</h3>',
            log_html([step.entry for step in self.steps]),
            "</section>",
        ])
        return TableView(html, computer_next=self._bot_to_act(), over=state.is_terminal(), title=title)

    def _recent(self, seats: frozenset[int]) -> str:
        """What happened since this browser's last action (the reply, its spins, their results), in words."""
        start = next((i + 1 for i in range(len(self.steps) - 1, -1, -1)
                      if self.steps[i].human and self.steps[i].seat in seats), 0)
        recent = self.steps[start:][-RECENT:]
        if not recent or len(seats) == 2:
            return ""
        items = "".join(f"<li><b>{h(s.entry.who)}</b> {h(s.entry.text)}"
                        + "".join(f'<span class="result">{h(r)}</span>' for r in s.entry.results) + "</li>"
                        for s in recent)
        return f'<div class="recent" data-recent><h3>Since your last move</h3><ol>{items}</ol></div>'

    def _can_undo(self, seats: frozenset[int]) -> bool:
        return any(step.human and step.seat in seats for step in self.steps)


def player_names() -> list[str]:
    """The computer players a seat may take (the names `play` and `simulate` accept, without budgets)."""
    from toolkit.figure.bots import BOT_NAMES

    return list(BOT_NAMES)
