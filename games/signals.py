"""What games tells the rest of the platform, so that games depends on nothing else.

Each is sent by the game writer (games.services) inside the transaction that records the
change, after the row is saved: a receiver that writes (the ratings app rates and reverses)
commits or rolls back with the result itself, and one that raises undoes the change.
Receivers get `game`, the saved row.
"""

from __future__ import annotations

from django.dispatch import Signal

# A game reached `finished`: it has a winner (winner_seat) and a reason.
game_finished = Signal()
# A game was voided (R7.10), whether it was playing or had already finished; besides
# `game`, receivers get `note`, a free text saying why for the ledger and the logs.
game_voided = Signal()
# A rematch was created from a finished game (games.services.game_rematch), in the
# transaction that creates it; besides `game` (the new game), receivers get `previous`.
# The ratings app stores the players' current ratings with it (games reads no ratings).
game_rematched = Signal()
# A player offers or accepts a rematch of `game` (games.services.game_rematch), before
# anything is written; besides `game`, receivers get `user_id` (who answers) and
# `offerer_id` (whose offer an acceptance takes, else None). A receiver refuses by raising
# a games.errors.ServiceError, whose `message` the player is shown (fair play's waits).
game_rematch_asked = Signal()
# A game was created or its status changed (it started, or it is over however it ended):
# any list of the games in progress is out of date. Receivers get `game`.
game_status_changed = Signal()
