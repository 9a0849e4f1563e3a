"""What self-play simulations of every game share: seeds derived per game, Wilson intervals, game-length
summaries and the pool that plays independent tasks in one process, a local process pool or on Ray.

Nothing here knows a game: each game's simulator hands in its own context and task function.
"""
