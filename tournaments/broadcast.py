"""Pushes of the arenas, sent after the commit: the standings to the arena's page sockets
(at most once a second per arena), and "your arena started" to its players' sockets."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from realtime.events import send_all_on_commit, send_now
from realtime.groups import user_group
from tournaments.groups import arena_group
from tournaments.messages import ArenaStandingsEvent, UserArenaStartedEvent
from tournaments.models import Arena, ArenaPlayer
from tournaments.selectors import standings_message

PUSH_EVERY = timedelta(seconds=1)


def standings_changed_on_commit(arena_id: int) -> None:
    """Mark the standings changed; once committed, push them now unless pushed within the
    last second (the arenas' tick then pushes them, tournaments.services.arenas_tick)."""
    Arena.objects.filter(pk=arena_id).update(standings_dirty=True)
    transaction.on_commit(lambda: _push_if_due(arena_id, timezone.now()))


def standings_push_due(*, now: datetime | None = None) -> int:
    """Push every arena's changed standings not pushed within the last second."""
    now = now or timezone.now()
    due = Arena.objects.filter(standings_dirty=True).values_list("pk", flat=True)
    return sum(_push_if_due(arena_id, now) for arena_id in due)


def _push_if_due(arena_id: int, now: datetime) -> bool:
    # Claimed by one conditional update: two processes never push the same change twice.
    claimed = (
        Arena.objects.filter(pk=arena_id, standings_dirty=True)
        .exclude(standings_pushed_at__gt=now - PUSH_EVERY)
        .update(standings_dirty=False, standings_pushed_at=now)
    )
    if not claimed:
        return False
    arena = Arena.objects.get(pk=arena_id)
    event: ArenaStandingsEvent = {"type": "arena.standings", "message": standings_message(arena)}
    send_now([(arena_group(arena_id), event)], "standings of arena %s", arena_id)
    return True


def arena_started_on_commit(arena: Arena) -> None:
    """Every player who joined before the start is told on whatever page they are."""
    event: UserArenaStartedEvent = {
        "type": "user.tournaments.started",
        "arena": arena.pk,
        "name": arena.name,
        "url": reverse("arena", kwargs={"arena_id": arena.pk}),
    }
    users = list(
        ArenaPlayer.objects.filter(arena=arena, state=ArenaPlayer.State.ACTIVE).values_list(
            "user_id", flat=True
        )
    )
    send_all_on_commit(
        lambda: [(user_group(user_id), event) for user_id in users],
        "start notice of arena %s",
        arena.pk,
    )
