"""duelkit: validate duel-game unit databases, print kits, export rule reference sheets."""

__version__ = "0.1.0"
