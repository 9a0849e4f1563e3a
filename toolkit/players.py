"""The two players of every duel, one id shared by every game: `Player.A` and `Player.B`.

The value is the letter the kits print and the data files use (a board node's `side: A`). Engines that keep
per-player arrays index them with `player.seat` (A is 0, B is 1) and turn a seat back with `PLAYERS[i]`.
Game roles (sword-duel's Challenger and Defender) are not player ids: each game maps its roles onto players.
"""

from __future__ import annotations

from enum import Enum


class Player(str, Enum):
    A = "A"
    B = "B"

    def __str__(self) -> str:
        """The letter, so f-strings print "Player A" on every Python version."""
        return self.value

    @property
    def seat(self) -> int:
        """The player's position in per-player arrays: A is 0, B is 1 (`index` is str's own method)."""
        return 0 if self is Player.A else 1

    def other(self) -> Player:
        """The opponent."""
        return Player.B if self is Player.A else Player.A


PLAYERS: tuple[Player, Player] = (Player.A, Player.B)
