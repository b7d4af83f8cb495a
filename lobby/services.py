"""Writes of the lobby's "Play now" queue: join, leave, status, and the pairing pass.

A pairing creates its game through games.services.game_create; the rating a player is
matched by is read from the ratings ledger when they join.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone

from fairplay.selectors import account_marked
from fairplay.services import play_allowed
from games.errors import ServiceError
from games.live.yours import players_redirect_on_commit
from games.models import Game
from games.selectors import active_game_id, players_in_games
from games.services import game_create
from lobby import matchmaking
from lobby.errors import LobbyError
from lobby.messages import QueueChange, QueueStatusFields, UserLobbyQueueEvent
from lobby.models import QueueEntry
from lobby.signals import queue_joined
from ratings.selectors import players_snapshot, rating_state
from realtime.events import send_all_on_commit
from realtime.groups import user_group

# An entry whose waiting page has not asked for its status for this long is dropped: the
# page asks every few seconds, so only a page that vanished without closing its socket
# (a killed server process, a sleeping laptop) stays silent this long.
QUEUE_STALE_AFTER = timedelta(seconds=30)
# A held entry (its player plays the computer meanwhile) is kept through that game, and for
# this long after it, for the player to come back to "Play now".
QUEUE_HELD_AFTER_GAME = timedelta(minutes=10)


@dataclass(frozen=True)
class QueueStatus:
    in_queue: bool
    waiting: int  # players in the queue, this one included
    wait_seconds: float
    rating: int | None
    accepted_range: int | None
    game_id: int | None = None  # set when the player already has a game to go to
    held: bool = False  # their place is kept while they play the computer (queue_hold)

    def as_message(self) -> QueueStatusFields:
        return {
            "type": "queue",
            "in_queue": self.in_queue,
            "waiting": self.waiting,
            "wait_seconds": round(self.wait_seconds, 1),
            "rating": self.rating,
            "range": self.accepted_range,
            "game": self.game_id,
            "url": reverse("game", kwargs={"game_id": self.game_id}) if self.game_id else None,
            "held": self.held,
        }


def queue_status_of(*, user: User, now: datetime | None = None) -> QueueStatus:
    """What the waiting page shows: queue size, own wait, own accepted range, or the game."""
    now = now or timezone.now()
    waiting = QueueEntry.objects.filter(held=False).count()
    entry = QueueEntry.objects.filter(user_id=user.pk).first()
    if entry is None or entry.held:
        return QueueStatus(
            in_queue=False,
            waiting=waiting,
            wait_seconds=0.0,
            rating=None,
            accepted_range=None,
            game_id=active_game_id(user.pk),
            held=entry is not None,
        )
    waited = max(0.0, (now - entry.joined_at).total_seconds())
    return QueueStatus(
        in_queue=True,
        waiting=waiting,
        wait_seconds=waited,
        rating=entry.rating,
        accepted_range=matchmaking.accepted_range(waited),
    )


def queue_changed_on_commit(user: User, change: QueueChange) -> None:
    """Every "Play now" page of the player shows the same queue: one joined ("joined"), or
    left it ("left"), or the page that had joined was closed ("closed"). The status is read
    once, here, for all of their pages."""

    def build() -> list[tuple[str, UserLobbyQueueEvent]]:
        status = queue_status_of(user=user).as_message()
        return [
            (user_group(user.pk), {"type": "user.lobby.queue", "change": change, "status": status})
        ]

    send_all_on_commit(build, "queue change of user %s", user.pk)


def queue_join(*, user: User, now: datetime | None = None) -> QueueStatus:
    """Put the player in the queue (joining again keeps their place) and try to pair now.

    A player with a game in progress is not queued: the status points them to that game.
    A held place (queue_hold) is taken up again, with the wait it had. A marked account is
    refused (LobbyError "account_marked"), and so is a leaver serving a wait
    (fairplay.services.LeaverWait).
    """
    if account_marked(user_id=user.pk):
        raise LobbyError("account_marked")
    now = now or timezone.now()
    game_id = active_game_id(user.pk)
    if game_id is not None:
        return QueueStatus(
            in_queue=False,
            waiting=QueueEntry.objects.filter(held=False).count(),
            wait_seconds=0.0,
            rating=None,
            accepted_range=None,
            game_id=game_id,
        )
    play_allowed(user_id=user.pk, now=now)
    rating = rating_state(user_id=user.pk).rating
    try:
        with transaction.atomic():
            QueueEntry.objects.create(user_id=user.pk, rating=rating, joined_at=now, seen_at=now)
            queue_joined.send(sender=QueueEntry, user_id=user.pk)
        queue_changed_on_commit(user, "joined")
    except IntegrityError:  # already waiting (another tab, or held): keep the original place
        with transaction.atomic():
            resumed = QueueEntry.objects.filter(user_id=user.pk, held=True).update(
                seen_at=now, held=False
            )
            if resumed:  # waiting again, as if joining
                queue_joined.send(sender=QueueEntry, user_id=user.pk)
        if resumed:
            queue_changed_on_commit(user, "joined")
        else:
            QueueEntry.objects.filter(user_id=user.pk).update(seen_at=now)
    queue_pair(now=now)
    return queue_status_of(user=user, now=now)


def queue_touch(*, user: User, now: datetime | None = None) -> QueueStatus:
    """A status request from the waiting page: proves the page is still open."""
    now = now or timezone.now()
    QueueEntry.objects.filter(user_id=user.pk, held=False).update(seen_at=now)
    return queue_status_of(user=user, now=now)


def queue_leave(*, user: User, closed: bool = False) -> bool:
    """Take the player out of the queue; False when they were not in it.

    `closed`: not the player's choice, but their waiting page closing. Their other "Play
    now" pages are told which: after a choice they stop waiting too; after a closed page,
    one still open puts the player back in the queue. A page closing leaves a held place
    alone: the player went to play the computer meanwhile (queue_hold).
    """
    entries = QueueEntry.objects.filter(user_id=user.pk)
    deleted, _ = (entries.filter(held=False) if closed else entries).delete()
    if deleted:
        queue_changed_on_commit(user, "closed" if closed else "left")
    return deleted > 0


def queue_hold(*, user: User, now: datetime | None = None) -> bool:
    """Keep the player's place while they play the computer meanwhile; False when they
    were not waiting.

    One game at a time (games.models.ActiveSeat), so a held place is never paired: it
    keeps its wait, through the game and QUEUE_HELD_AFTER_GAME after it, and the player's
    next "Find an opponent" takes it up again (queue_join).
    """
    held = QueueEntry.objects.filter(user_id=user.pk).update(
        held=True, seen_at=now or timezone.now()
    )
    if held:
        queue_changed_on_commit(user, "left")  # their other "Play now" pages stop waiting
    return held > 0


def queue_resume_after(*, game: Game, now: datetime | None = None) -> bool:
    """A game against the computer is over: its player's held place waits again, with the
    wait it had, and is paired by the next pass; False when no place was kept.

    Called in the transaction that ends the game; the pass runs once it commits.
    """
    if game.bot_seat is None or game.status in Game.ACTIVE_STATUSES:
        return False
    player_id = game.player1_id if game.bot_seat == 0 else game.player0_id
    resumed = QueueEntry.objects.filter(user_id=player_id, held=True).update(
        held=False, seen_at=now or timezone.now()
    )
    if not resumed:
        return False
    queue_joined.send(sender=QueueEntry, user_id=player_id)
    queue_changed_on_commit(game.player1 if game.bot_seat == 0 else game.player0, "joined")
    transaction.on_commit(lambda: queue_pair())
    return True


def queue_drop_stale(*, now: datetime | None = None) -> int:
    """Remove entries whose page stopped asking for its status (see QUEUE_STALE_AFTER), and
    held places QUEUE_HELD_AFTER_GAME after their player's game (kept alive until then)."""
    now = now or timezone.now()
    held = QueueEntry.objects.filter(held=True)
    playing = players_in_games(list(held.values_list("user_id", flat=True)))
    if playing:
        held.filter(user_id__in=playing).update(seen_at=now)
    deleted, _ = QueueEntry.objects.filter(
        Q(held=False, seen_at__lt=now - QUEUE_STALE_AFTER)
        | Q(held=True, seen_at__lt=now - QUEUE_HELD_AFTER_GAME)
    ).delete()
    return deleted


class _PairLost(Exception):
    """One of a pair's entries disappeared (the player left): skip that pair."""


def queue_pair(*, now: datetime | None = None) -> list[Game]:
    """One pairing pass over the queue; returns the games it created.

    Safe to run in any number of processes at once: on PostgreSQL each pass locks the
    entries it considers with SKIP LOCKED, so two passes work on disjoint sets of players
    and an entry is deleted in the very transaction that creates its player's game
    (SQLite serializes whole write transactions instead). A pass that finds nothing to do
    costs one query.
    """
    now = now or timezone.now()
    games: list[Game] = []
    with transaction.atomic():
        entries = list(
            QueueEntry.objects.select_for_update(skip_locked=True)
            .filter(held=False)
            .order_by("joined_at", "pk")
        )
        if len(entries) < 2:
            return games
        ids = [entry.user_id for entry in entries]
        # A player who got a game meanwhile (a challenge, or re-joining while their pairing
        # committed) must not get a second one.
        busy = players_in_games(ids)
        if busy:
            QueueEntry.objects.filter(user_id__in=busy).delete()
        waiting = [
            matchmaking.Waiting(e.user_id, e.rating, e.joined_at.timestamp())
            for e in entries
            if e.user_id not in busy
        ]
        pairs = matchmaking.find_pairs(waiting, now.timestamp())
        if not pairs:
            return games
        users = get_user_model().objects.in_bulk([w.user_id for pair in pairs for w in pair])
        for first, second in pairs:
            try:
                with transaction.atomic():
                    deleted, _ = QueueEntry.objects.filter(
                        user_id__in=[first.user_id, second.user_id]
                    ).delete()
                    if deleted != 2:
                        raise _PairLost
                    # Seats at random: who sits where must not depend on who queued first.
                    seated = (first, second) if secrets.randbelow(2) == 0 else (second, first)
                    pair = [users[seated[0].user_id], users[seated[1].user_id]]
                    game = game_create(
                        player0=pair[0], player1=pair[1], players_snapshot=players_snapshot(pair)
                    )
                    players_redirect_on_commit(game)
            except (_PairLost, ServiceError):  # ServiceError: one of them got a game meanwhile
                continue
            games.append(game)
    return games
