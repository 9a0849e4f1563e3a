"""`duelkit serve`: a local playtest studio in the browser (start page, play, replay, live reload).

The server (`app.py`) is the only module here that does I/O; the games hand it tables (`table.py`) whose
views are HTML fragments they draw themselves, so this package names no game.
"""
