"""The lobby listens to games: a game created, started or over changes the live games list.

games sends `game_status_changed` inside the transaction that records the change; the
pages are told once it commits (lobby.broadcast, through realtime.events), so a rolled-back
change tells nobody.
"""

from __future__ import annotations

from typing import Any

from django.dispatch import receiver

from fairplay.signals import account_restricted
from games.models import Game
from games.signals import game_status_changed
from lobby.broadcast import live_games_changed_on_commit
from lobby.models import QueueEntry
from lobby.services import queue_resume_after


@receiver(game_status_changed, dispatch_uid="lobby.live_games_changed")
def live_games_changed(sender: Any, *, game: Game, **kwargs: Any) -> None:
    live_games_changed_on_commit()
    # A place kept in the queue through a game against the computer is taken up again.
    queue_resume_after(game=game)


@receiver(account_restricted, dispatch_uid="lobby.leave_queue_when_restricted")
def leave_queue_when_restricted(sender: Any, *, user_id: int, **kwargs: Any) -> None:
    # A marked or closed account waits in the queue no longer.
    QueueEntry.objects.filter(user_id=user_id).delete()
