"""The review listens to games: a game that finishes is reviewed by itself, once committed."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.dispatch import receiver

from games.models import Game
from games.signals import game_finished

from . import services


@receiver(game_finished, dispatch_uid="games.review.review_finished_game")
def review_finished_game(sender: Any, *, game: Game, **kwargs: Any) -> None:
    # Queued after the commit, so the game's own transaction carries no review's work.
    if services.review_automatic(game):
        game_id = game.pk
        transaction.on_commit(lambda: services._send(services.TASK_START, game_id=game_id))
