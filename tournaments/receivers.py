"""The arenas listen to games (a game over counts in its arena), to the lobby (joining the
"Play now" queue pauses the player's arenas) and to the ratings (an arena game too short to
count in the arena is not rated either)."""

from __future__ import annotations

from typing import Any

from django.dispatch import receiver

from fairplay.signals import account_restricted
from games.models import Game
from games.signals import game_status_changed
from lobby.signals import queue_joined
from ratings.signals import game_rating_asked
from tournaments.services import (
    arena_game_counts,
    arena_game_over,
    players_paused_for_queue,
    players_withdraw_everywhere,
)


@receiver(game_status_changed, dispatch_uid="tournaments.arena_game_over")
def game_over(sender: Any, *, game: Game, **kwargs: Any) -> None:
    arena_game_over(game=game)


@receiver(queue_joined, dispatch_uid="tournaments.pause_for_queue")
def paused_for_queue(sender: Any, *, user_id: int, **kwargs: Any) -> None:
    players_paused_for_queue(user_id=user_id)


@receiver(game_rating_asked, dispatch_uid="tournaments.arena_game_rated")
def arena_game_rated(sender: Any, *, game: Game, **kwargs: Any) -> bool | None:
    return arena_game_counts(game=game)


@receiver(account_restricted, dispatch_uid="tournaments.withdraw_when_restricted")
def withdraw_when_restricted(sender: Any, *, user_id: int, **kwargs: Any) -> None:
    players_withdraw_everywhere(user_id=user_id)
