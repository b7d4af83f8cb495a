"""Writes and the gate of fair play (docs/fair-play.md).

The gate: what each ended game says of its players, and the wait a leaver serves before the
next one. Every door into a new game against another player (the "Play now" queue, making
and accepting a challenge, offering and accepting a rematch, joining or creating an arena)
asks `play_refusal` first; an arena's waves pass over a player who waits
(`players_waiting`).

Reports and the moderators' actions: every action is one ``ModerationLog`` row written in
the same transaction as the action, so the log cannot miss one. A report's limits hold
under any interleaving: the daily count is read under a lock on the reporter's row, and
the database's unique constraints refuse a repeated report.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.db.models import Exists, OuterRef
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from fairplay.errors import FairPlayError
from fairplay.models import (
    REPORT_TEXT_MAX,
    Flag,
    GameConduct,
    ModerationLog,
    PlayerWarning,
    Reason,
    Report,
    Status,
)
from fairplay.signals import account_restricted
from fairplay.waits import Left, Played, current_wait
from games.live.presence import presence_connected
from games.models import Game, ServiceFault
from ratings.models import RatingEntry
from ratings.selectors import player_is_marked
from ratings.services import rating_player_mark, rating_player_unmark, rating_refund_opponents

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


def rematch_allowed(*, game: Game, user_id: int, offerer_id: int | None = None) -> None:
    """The gate of a rematch offered (or accepted, taking `offerer_id`'s offer) of `game`.

    The player who answers is refused with their own wait (LeaverWait); an offer whose
    player began a wait after making it cannot be accepted meanwhile. A rematch against
    the computer is never refused.
    """
    if game.against_computer:
        return
    now = timezone.now()
    play_allowed(user_id=user_id, now=now)
    if offerer_id is not None and play_refusal(user_id=offerer_id, now=now) is not None:
        raise FairPlayError("rematch_offerer_waiting")


def players_waiting(*, user_ids: Iterable[int], now: datetime | None = None) -> set[int]:
    """Those of the players who are serving a leaver's wait now."""
    now = now or timezone.now()
    waits = settings.LEAVER_WAIT_MINUTES
    if not waits:
        return set()
    # Only a leave within the longest wait can still hold one: the others need no reading.
    recent = (
        GameConduct.objects.filter(
            user_id__in=list(user_ids), at__gt=now - timedelta(minutes=max(waits))
        )
        .exclude(left="")
        .values_list("user_id", flat=True)
        .distinct()
    )
    return {user_id for user_id in recent if play_refusal(user_id=user_id, now=now) is not None}


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


Source = Report | Flag | None

# What a flag warns a player about.
FLAG_REASONS = {Flag.Kind.BOOSTING: Reason.BOOSTING, Flag.Kind.EARLY_RESIGN: Reason.SANDBAGGING}

# --- Reports ---------------------------------------------------------------------------


def report_create(
    *,
    reporter: User,
    username: str,
    reason: str,
    text: str = "",
    game_id: int | None = None,
    now: datetime | None = None,
) -> Report:
    """Record a report of `username` by `reporter`, maybe about one game.

    Anyone signed in may report a player of a game between two people (as a seat or a
    spectator, during it or after), or a player from their profile; never themselves.
    Raises FairPlayError; a refused report changes nothing.
    """
    text = text.strip()
    if reason not in Reason.values or len(text) > REPORT_TEXT_MAX or "\x00" in text:
        raise FairPlayError("bad_request")
    player = get_user_model().objects.filter(username=username, is_active=True).first()
    if player is None:
        raise FairPlayError("report_unknown_player")
    if player.pk == reporter.pk:
        raise FairPlayError("report_self")
    game = None
    if game_id is not None:
        game = Game.objects.filter(pk=game_id).first()
        if game is None:
            raise FairPlayError("not_found")
        if game.same_device or game.against_computer:
            raise FairPlayError("report_not_reportable")
        if player.pk not in (game.player0_id, game.player1_id):
            raise FairPlayError("report_not_in_game")
    now = now or timezone.now()
    limit = settings.FAIRPLAY_REPORTS_PER_DAY
    with transaction.atomic():
        # Reports of one reporter queue here, so the count below cannot be passed by a race.
        get_user_model().objects.select_for_update(no_key=True).filter(pk=reporter.pk).exists()
        sent = Report.objects.filter(reporter=reporter, created_at__gt=now - timedelta(days=1))
        if limit and sent.count() >= limit:
            raise FairPlayError("report_limit")
        try:
            with transaction.atomic():
                return Report.objects.create(
                    reporter=reporter, player=player, game=game, reason=reason, text=text
                )
        except IntegrityError:
            raise FairPlayError("report_duplicate") from None


# --- Moderators' actions -----------------------------------------------------------------


def _done(
    *, actor: User, player_id: int, action: str, source: Source, note: str = ""
) -> ModerationLog:
    """Log the action and close the report or flag it was taken from."""
    if source is not None and source.status != Status.HANDLED:
        source.status = Status.HANDLED
        source.handled_by = actor
        source.handled_at = timezone.now()
        source.save(update_fields=["status", "handled_by", "handled_at"])
    return ModerationLog.objects.create(
        actor=actor,
        player_id=player_id,
        action=action,
        report=source if isinstance(source, Report) else None,
        flag=source if isinstance(source, Flag) else None,
        note=note[:200],
    )


def account_warn(*, actor: User, player: User, reason: str, source: Source = None) -> PlayerWarning:
    """Warn a player: they see it on their home page and profile until they have read it."""
    with transaction.atomic():
        warning = PlayerWarning.objects.create(player=player, reason=reason, created_by=actor)
        _done(
            actor=actor,
            player_id=player.pk,
            action=ModerationLog.Action.WARN,
            source=source,
            note=reason,
        )
    return warning


def account_mark(*, actor: User, player: User, source: Source = None) -> bool:
    """Mark an account: off the leaderboard, out of the queue and arenas. False if it was."""
    with transaction.atomic():
        marked = rating_player_mark(user_id=player.pk)
        if marked:
            account_restricted.send(sender=ModerationLog, user_id=player.pk)
        _done(
            actor=actor,
            player_id=player.pk,
            action=ModerationLog.Action.MARK,
            source=source,
            note="" if marked else "already marked",
        )
    return marked


def account_unmark(*, actor: User, player: User) -> bool:
    """Lift a mark (the refunds it led to stay). False if the account was not marked."""
    with transaction.atomic():
        unmarked = rating_player_unmark(user_id=player.pk)
        if unmarked:
            _done(actor=actor, player_id=player.pk, action=ModerationLog.Action.UNMARK, source=None)
    return unmarked


def account_close(*, actor: User, player: User, source: Source = None) -> bool:
    """Deactivate the account: it can no longer log in, and its sessions no longer count."""
    with transaction.atomic():
        closed = (
            get_user_model().objects.filter(pk=player.pk, is_active=True).update(is_active=False)
        )
        if closed:
            account_restricted.send(sender=ModerationLog, user_id=player.pk)
        _done(actor=actor, player_id=player.pk, action=ModerationLog.Action.CLOSE, source=source)
    player.is_active = False
    return bool(closed)


def account_refund_opponents(
    *, actor: User, player: User, source: Source = None, now: datetime | None = None
) -> list[RatingEntry]:
    """Give back to each opponent what a marked account won from them in its rated games of
    the last FAIRPLAY_REFUND_DAYS days, as "refund" entries in the ratings ledger."""
    if not player_is_marked(user_id=player.pk):
        raise FairPlayError("refund_unmarked")
    now = now or timezone.now()
    since = now - timedelta(days=settings.FAIRPLAY_REFUND_DAYS)
    with transaction.atomic():
        entries = rating_refund_opponents(
            user_id=player.pk, since=since, note=f"refund: {player.get_username()} was marked"
        )
        _done(
            actor=actor,
            player_id=player.pk,
            action=ModerationLog.Action.REFUND,
            source=source,
            note=f"{len(entries)} entries, {sum(e.delta for e in entries)} points",
        )
    return entries


def source_dismiss(*, actor: User, source: Report | Flag) -> ModerationLog:
    """Close a report or flag with no action against the player."""
    with transaction.atomic():
        return _done(
            actor=actor,
            player_id=source.player_id,
            action=ModerationLog.Action.DISMISS,
            source=source,
        )


# --- What the player does with a warning -------------------------------------------------


def warning_read(*, user: User, warning_id: int) -> bool:
    """The player says they have read a warning of theirs; False if there was none unread."""
    updated = PlayerWarning.objects.filter(
        pk=warning_id, player_id=user.pk, seen_at__isnull=True
    ).update(seen_at=timezone.now())
    return bool(updated)
