"""Writes of fair play: players' reports and the moderators' actions.

Every moderator action is one ``ModerationLog`` row written in the same transaction as the
action, so the log cannot miss one. A report's limits hold under any interleaving: the
daily count is read under a lock on the reporter's row, and the database's unique
constraints refuse a repeated report.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.utils import timezone

from fairplay.errors import FairplayError
from fairplay.models import (
    REPORT_TEXT_MAX,
    Flag,
    ModerationLog,
    PlayerWarning,
    Reason,
    Report,
    Status,
)
from fairplay.signals import account_restricted
from games.models import Game
from ratings.models import RatingEntry
from ratings.selectors import player_is_marked
from ratings.services import rating_player_mark, rating_player_unmark, rating_refund_opponents

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
    Raises FairplayError; a refused report changes nothing.
    """
    text = text.strip()
    if reason not in Reason.values or len(text) > REPORT_TEXT_MAX or "\x00" in text:
        raise FairplayError("bad_request")
    player = get_user_model().objects.filter(username=username, is_active=True).first()
    if player is None:
        raise FairplayError("report_unknown_player")
    if player.pk == reporter.pk:
        raise FairplayError("report_self")
    game = None
    if game_id is not None:
        game = Game.objects.filter(pk=game_id).first()
        if game is None:
            raise FairplayError("not_found")
        if game.same_device or game.against_computer:
            raise FairplayError("report_not_reportable")
        if player.pk not in (game.player0_id, game.player1_id):
            raise FairplayError("report_not_in_game")
    now = now or timezone.now()
    limit = settings.FAIRPLAY_REPORTS_PER_DAY
    with transaction.atomic():
        # Reports of one reporter queue here, so the count below cannot be passed by a race.
        get_user_model().objects.select_for_update(no_key=True).filter(pk=reporter.pk).exists()
        sent = Report.objects.filter(reporter=reporter, created_at__gt=now - timedelta(days=1))
        if limit and sent.count() >= limit:
            raise FairplayError("report_limit")
        try:
            with transaction.atomic():
                return Report.objects.create(
                    reporter=reporter, player=player, game=game, reason=reason, text=text
                )
        except IntegrityError:
            raise FairplayError("report_duplicate") from None


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
        raise FairplayError("refund_unmarked")
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
