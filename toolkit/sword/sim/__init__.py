"""Sword-duel self-play: whole duels in seat-swapped pairs (`duels.py`) and what they add up to (`stats.py`)."""
