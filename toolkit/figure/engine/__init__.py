"""The board-game engine of duel-protocol and chimera: an OpenSpiel-shaped state, records and replay.

    state = new_game("hydro-conductor", "malfunction-cascade", database, rules=RULES_DEFAULT, first=Player.A)
    state.current_player        # the seat A (0) or B (1), CHANCE or TERMINAL; PLAYERS[seat] is its Player
    state.legal_actions()       # sorted Actions (at a chance node: the outcome ints)
    state.chance_outcomes()     # [(segment index, Fraction)] summing to 1: every Data Disk spin
    state.apply(action)         # IllegalAction before anything changes
    state.is_terminal(), state.outcome() (winner: a Player, None for a draw), state.clone(), state.state_hash()

Rulings (fields of the frozen `Rules`; `rules.RULINGS` holds each one's source and alternative):

| switch | default | alternative |
|---|---|---|
| surround_order | enemies_first (shared DESIGN 2) | simultaneous |
| goal_capture_by | owner_action: any action of its owner (specs 000 2.1, 001 1.1) | own_move, any_placement |
| lockout | no_move_at_turn_start (specs 000 2.1, 001 1.1) | off |
| wait_counts | owner_turns (spec 000 2.6) | all_turns |
| turn_limit | 300 turns in all (specs silent) | any number |
| turn_limit_result | draw (specs silent) | fewer_units_lost |
| repetition_limit | 3: same position, same player to move (specs silent) | any number |
| upgrade_offer | after_battle_knockout (spec 000 3.6) | never |
| reset_form_on_deactivation | true (specs silent) | false |
| min_mp | 0 (specs 000 2.3-2.4, 001 1.3, 2.1: a first-turn 1 MP unit cannot deploy) | any number (1: it may) |
| both_confused | independent self-hit spins (as `duelkit odds`) | attacker_first, defender_first |
| paralysis_tie | first_in_wheel_order (repo DESIGN) | (none yet) |
| sleeper_passable | theme_table (each Table 2.2) | never, always |
| attacked_sleeper_spins | false (shared DESIGN 6: counts as a Miss) | true |
| surround_after | any_position_change (specs: "becomes surrounded") | move_only |
"""

from toolkit.figure.engine.actions import Action, IllegalAction
from toolkit.figure.engine.rules import RULES_DEFAULT, RULINGS, Rules
from toolkit.figure.engine.setup import SetupError, build_game, new_game
from toolkit.figure.engine.state import CHANCE, TERMINAL, A, B, GameOutcome, GameState

__all__ = [
    "CHANCE", "RULES_DEFAULT", "RULINGS", "TERMINAL", "A", "Action", "B", "GameOutcome", "GameState",
    "IllegalAction", "Rules", "SetupError", "build_game", "new_game",
]
