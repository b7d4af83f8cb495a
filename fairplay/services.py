"""Writes and the gate of fair play: what each ended game says of its players, and the
wait a leaver serves before the next one (docs/fair-play.md, "Leaving costs the leaver").

Every door into a new game against another player (the "Play now" queue, making and
accepting a challenge, joining or creating an arena) asks `play_refusal` first.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime

from django.conf import settings
from django.db.models import Exists, OuterRef
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from fairplay.errors import FairPlayError
from fairplay.models import GameConduct
from fairplay.waits import Left, Played, current_wait
from games.live.presence import presence_connected
from games.models import Game, ServiceFault

# The latest games read for a wait: enough to hold a reset or more leaves than there are
# waits (fewer leaves leave a run of clean games far longer than any reset among them).
HISTORY_READ = 200

REASONS = {
    Left.NO_START: _("you did not press Start in a game your opponent had started"),
    Left.RAN_OUT: _("you let your clock run out in a game while away from it"),
    Left.ARENA_SITTING: _("you sat out an arena game without pressing Start"),
}


@dataclass(frozen=True)
class Refusal:
    """A player who may not start a game against another player yet, until when and why."""

    until: datetime
    reason: Left
    leaves: int  # games left since the last reset, the latest included
    now: datetime
    code: str = "leaver_wait"

    @property
    def seconds_left(self) -> float:
        return max(0.0, (self.until - self.now).total_seconds())

    @property
    def minutes_left(self) -> int:
        return max(1, math.ceil(self.seconds_left / 60))

    @property
    def why(self) -> str:
        return str(REASONS[self.reason])

    @property
    def message(self) -> str:
        """In the active language: how long, and why."""
        minutes = self.minutes_left
        text = ngettext(
            "You can start a new game in %(minutes)s minute, because %(why)s.",
            "You can start a new game in %(minutes)s minutes, because %(why)s.",
            minutes,
        )
        return text % {"minutes": minutes, "why": self.why}


class LeaverWait(FairPlayError):
    """Raised by a door a waiting leaver knocks at; its message says how long and why."""

    def __init__(self, refusal: Refusal) -> None:
        super().__init__(refusal.code)
        self.refusal = refusal

    @property
    def message(self) -> str:  # type: ignore[override]
        return self.refusal.message


def _history(user_id: int) -> Iterator[Played]:
    """The player's counted games, newest first: none voided, none inside a service fault."""
    faulted = ServiceFault.objects.filter(
        start__lte=OuterRef("at"), end__gte=OuterRef("game__created_at")
    )
    rows = (
        GameConduct.objects.filter(user_id=user_id)
        .exclude(game__status=Game.Status.CANCELLED)
        .exclude(Exists(faulted))
        .order_by("-at", "-pk")
        .values_list("at", "left")
    )
    for at, left in rows[:HISTORY_READ]:
        yield Played(at, Left(left) if left else None)


def play_refusal(*, user_id: int, now: datetime | None = None) -> Refusal | None:
    """Why this player may not start a game against another player now, or None."""
    now = now or timezone.now()
    wait = current_wait(
        _history(user_id),
        waits=settings.LEAVER_WAIT_MINUTES,
        clean_reset=settings.LEAVER_CLEAN_GAMES_RESET,
    )
    if wait is None or wait.until <= now:
        return None
    return Refusal(until=wait.until, reason=wait.reason, leaves=wait.leaves, now=now)


def play_allowed(*, user_id: int, now: datetime | None = None) -> None:
    """The gate every door calls: LeaverWait when the player is serving a wait."""
    refusal = play_refusal(user_id=user_id, now=now)
    if refusal is not None:
        raise LeaverWait(refusal)


def _in_fault(game: Game, at: datetime) -> bool:
    return ServiceFault.objects.filter(start__lte=at, end__gte=game.created_at).exists()


def conduct_record(*, game: Game, now: datetime | None = None) -> list[GameConduct]:
    """Record how each player ended a game that is over; once per player and game.

    Only games between two people count (not the computer's, not a shared screen), and
    only a finished or aborted one: a void, or a game inside a service fault, counts
    nothing. An abort counts against the player who never pressed Start while the other
    had (nobody when neither had); a game lost on time counts against the loser when no
    socket of theirs was open as the flag fell (nobody when presence is unknown); every
    other finished game is clean for both.
    """
    if game.same_device or game.against_computer or game.player0_id == game.player1_id:
        return []
    at = game.finished_at or now or timezone.now()
    if _in_fault(game, at):
        return []
    players = (game.player0_id, game.player1_id)
    rows: list[GameConduct] = []
    if game.status == Game.Status.ABORTED:
        started = list(game.state.get("started") or [False, False])
        if started.count(True) == 1:
            seat = started.index(False)
            rows.append(GameConduct(user_id=players[seat], game=game, at=at, left=Left.NO_START))
    elif game.status == Game.Status.FINISHED and game.winner_seat in (0, 1):
        loser = 1 - game.winner_seat
        away = False
        if game.reason == "time":
            connected = presence_connected(game.pk)
            away = connected is not None and not connected[loser]
        for seat, user_id in enumerate(players):
            left = Left.RAN_OUT if away and seat == loser else ""
            rows.append(GameConduct(user_id=user_id, game=game, at=at, left=left))
    GameConduct.objects.bulk_create(rows, ignore_conflicts=True)
    return rows


def conduct_arena_sitting(*, user_id: int, game: Game, now: datetime | None = None) -> None:
    """The arenas paused this player for sitting out `game`: that is how they left it."""
    at = game.finished_at or now or timezone.now()
    if _in_fault(game, at):
        return
    GameConduct.objects.update_or_create(
        user_id=user_id, game=game, defaults={"at": at, "left": Left.ARENA_SITTING}
    )
