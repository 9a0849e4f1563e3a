"""The sword-duel rules engine (spec 002): pure functions, no I/O."""
