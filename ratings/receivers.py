"""The ratings app listens to games: it rates what finished and reverses what was voided.

games sends each signal once, inside the transaction that records the change, so the
ledger entries commit (or roll back) with the result; the services are idempotent besides,
backed by the ledger's unique constraint, so a repeated signal still rates once.
"""

from __future__ import annotations

from typing import Any

from django.dispatch import receiver

from games.models import Game
from games.signals import game_finished, game_rematched, game_voided
from ratings.selectors import players_snapshot
from ratings.services import rating_record_game_result, rating_reverse_game


@receiver(game_finished, dispatch_uid="ratings.rate_finished_game")
def rate_finished_game(sender: Any, *, game: Game, **kwargs: Any) -> None:
    # Games against the computer are practice: they move nobody's rating.
    if game.against_computer:
        return
    rating_record_game_result(game=game)


@receiver(game_voided, dispatch_uid="ratings.reverse_voided_game")
def reverse_voided_game(sender: Any, *, game: Game, note: str = "", **kwargs: Any) -> None:
    # A game voided before it finished has no "game" entries: nothing to reverse.
    rating_reverse_game(game=game, note=note)


@receiver(game_rematched, dispatch_uid="ratings.snapshot_rematch")
def snapshot_rematch(sender: Any, *, game: Game, **kwargs: Any) -> None:
    # The rematch shows the ratings as they are now, the last game's result included.
    game.players_snapshot = players_snapshot([game.player0, game.player1])
    game.save(update_fields=["players_snapshot"])
