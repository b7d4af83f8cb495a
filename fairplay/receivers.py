"""Fair play listens to games: each game over says how its players ended it, and a
rematch is asked of the leavers' gate."""

from __future__ import annotations

from typing import Any

from django.dispatch import receiver

from fairplay.services import conduct_record, rematch_allowed
from games.models import Game
from games.signals import game_rematch_asked, game_status_changed


@receiver(game_status_changed, dispatch_uid="fairplay.conduct_record")
def game_over(sender: Any, *, game: Game, **kwargs: Any) -> None:
    if game.status in (Game.Status.FINISHED, Game.Status.ABORTED):
        conduct_record(game=game)


@receiver(game_rematch_asked, dispatch_uid="fairplay.rematch_allowed")
def rematch_asked(
    sender: Any, *, game: Game, user_id: int, offerer_id: int | None, **kwargs: Any
) -> None:
    rematch_allowed(game=game, user_id=user_id, offerer_id=offerer_id)
