"""The figure duel (duel-protocol and chimera): one rules engine, two themes."""
