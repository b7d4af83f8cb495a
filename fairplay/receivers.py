"""Fair play listens to games: each game over says how its players ended it."""

from __future__ import annotations

from typing import Any

from django.dispatch import receiver

from fairplay.services import conduct_record
from games.models import Game
from games.signals import game_status_changed


@receiver(game_status_changed, dispatch_uid="fairplay.conduct_record")
def game_over(sender: Any, *, game: Game, **kwargs: Any) -> None:
    if game.status in (Game.Status.FINISHED, Game.Status.ABORTED):
        conduct_record(game=game)
