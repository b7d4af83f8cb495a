"""Reads of fair play: what a player sees of moderation, and whether they may join."""

from __future__ import annotations

from django.db.models import QuerySet

from fairplay.models import PlayerWarning
from ratings.selectors import player_is_marked


def account_marked(*, user_id: int) -> bool:
    """Whether a moderator marked the account: the queue and arenas refuse it."""
    return player_is_marked(user_id=user_id)


def warnings_unread(*, user_id: int) -> QuerySet[PlayerWarning]:
    """The moderators' warnings the player has not yet said they read, newest first."""
    return PlayerWarning.objects.filter(player_id=user_id, seen_at__isnull=True)
