"""The one player id both games share."""

from __future__ import annotations

from toolkit.figure.database import load_board
from toolkit.players import PLAYERS, Player


def test_each_player_has_one_opponent_and_a_seat() -> None:
    assert [p.other() for p in PLAYERS] == [Player.B, Player.A]
    assert [p.seat for p in PLAYERS] == [0, 1]
    assert all(PLAYERS[p.seat] is p for p in PLAYERS)


def test_a_player_prints_as_its_letter() -> None:
    assert f"Player {Player.B}" == "Player B"
    assert Player("A") is Player.A  # the board file's `side: A` and the printed letter are the same text


def test_the_bundled_board_gives_each_player_a_goal_facing_the_other() -> None:
    board, problems = load_board()
    assert board is not None, problems
    goals = {player: board.nodes[board.goal(player)] for player in PLAYERS}
    assert goals[Player.A].side is Player.A
    assert goals[Player.A].y > goals[Player.B].y  # A sits at the bottom of the drawn board
