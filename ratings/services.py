"""Writes of the ratings app: the rating ledger.

Ledger writes lock the players' user rows (in id order, so two writers never deadlock)
before reading their current ratings, so each entry's ``rating_before`` is the previous
entry's ``rating_after`` even when a player finishes two games at the same instant.
"""

from __future__ import annotations

from datetime import datetime

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction

from games.models import Game
from ratings.elo import LOSS, WIN, PlayerRating, rate_game
from ratings.models import MarkedPlayer, RatingEntry
from ratings.selectors import game_is_ratable, rating_state

# --- Rating ledger -------------------------------------------------------------------


def _lock_players(user_ids: list[int]) -> None:
    """Serialize ledger writes per player (PostgreSQL; SQLite serializes all writes).

    FOR NO KEY UPDATE, not FOR UPDATE: it does not conflict with the key-share locks that
    inserting a row referencing the user takes (a game action, a new game), so a move in a
    player's other game never waits for, or deadlocks with, the rating of this one.
    """
    list(
        get_user_model()
        .objects.select_for_update(no_key=True)
        .filter(pk__in=sorted(set(user_ids)))
        .order_by("pk")
        .values_list("pk", flat=True)
    )


def _entry(
    *, player_id: int, game: Game, reason: str, before: PlayerRating, delta: int, note: str = ""
) -> RatingEntry:
    return RatingEntry(
        player_id=player_id,
        game=game,
        reason=reason,
        rating_before=before.rating,
        rating_after=before.rating + delta,
        delta=delta,
        note=note,
    )


def _give_back(entries: list[RatingEntry], *, reason: str, note: str) -> list[RatingEntry]:
    """An entry of the opposite delta for each of `entries`, at the end of its player's
    ledger (players locked by the caller); one a concurrent caller wrote meanwhile is
    skipped, as the unique (game, player, reason) constraint refuses it."""
    created = []
    for original in entries:
        entry = _entry(
            player_id=original.player_id,
            game=original.game,
            reason=reason,
            before=rating_state(user_id=original.player_id),
            delta=-original.delta,
            note=note[:200],
        )
        try:
            with transaction.atomic():
                entry.save()
        except IntegrityError:
            continue
        created.append(entry)
    return created


def rating_record_game_result(*, game: Game) -> list[RatingEntry]:
    """Rate a finished game, exactly once; returns the game's "game" entries (maybe none).

    Called on games' `game_finished` signal (ratings.receivers), which the game service
    sends inside the transaction that records the result, with the game carrying its final
    status and winner. Calling it again (a retried task, a flag racing a move) returns the
    entries already written: the check below catches the common case and the unique
    constraint on (game, player, reason) the race, where the savepoint rolls back only this
    attempt.
    """
    with transaction.atomic():
        if not game_is_ratable(game):
            return []
        _lock_players([game.player0_id, game.player1_id])
        existing = list(RatingEntry.objects.filter(game_id=game.pk, reason=RatingEntry.Reason.GAME))
        if existing:
            return existing
        a = rating_state(user_id=game.player0_id)
        b = rating_state(user_id=game.player1_id)
        delta_a, delta_b = rate_game(a, b, WIN if game.winner_seat == 0 else LOSS)
        entries = [
            _entry(player_id=game.player0_id, game=game, reason="game", before=a, delta=delta_a),
            _entry(player_id=game.player1_id, game=game, reason="game", before=b, delta=delta_b),
        ]
        try:
            with transaction.atomic():
                for entry in entries:
                    entry.save()
        except IntegrityError:
            return list(RatingEntry.objects.filter(game_id=game.pk, reason=RatingEntry.Reason.GAME))
        return entries


def rating_reverse_game(*, game: Game, note: str = "") -> list[RatingEntry]:
    """Compensating entries that undo exactly a game's rating changes (R7.10). Idempotent.

    Later games are not re-rated: their deltas were computed from the ratings the players
    held then, and rewriting history would make the ledger no longer append-only.
    """
    with transaction.atomic():
        originals = list(
            RatingEntry.objects.filter(
                game_id=game.pk, reason=RatingEntry.Reason.GAME
            ).select_related("game")
        )
        if not originals:
            return []
        _lock_players([entry.player_id for entry in originals])
        # A loss already refunded (rating_refund_opponents) was given back once already.
        done = set(
            RatingEntry.objects.filter(
                game_id=game.pk,
                reason__in=[RatingEntry.Reason.FAULT_REVERSAL, RatingEntry.Reason.REFUND],
            ).values_list("player_id", flat=True)
        )
        undone = [entry for entry in originals if entry.player_id not in done]
        return _give_back(undone, reason=RatingEntry.Reason.FAULT_REVERSAL, note=note)


def rating_refund_opponents(
    *, user_id: int, since: datetime | None = None, note: str = ""
) -> list[RatingEntry]:
    """Give each opponent back what they lost to `user_id` in rated games since `since`.

    One "refund" entry per lost game, appended at the end of the opponent's ledger with
    the opposite of their loss, so the chain (each ``rating_before`` the previous
    ``rating_after``) stays whole. Games already reversed after a service fault are left
    alone, and the unique (game, player, reason) constraint makes a repeat a no-op.
    """
    with transaction.atomic():
        wins = RatingEntry.objects.filter(
            player_id=user_id, reason=RatingEntry.Reason.GAME, delta__gt=0
        )
        if since is not None:
            wins = wins.filter(created_at__gte=since)
        losses = list(
            RatingEntry.objects.filter(
                game_id__in=wins.values("game_id"), reason=RatingEntry.Reason.GAME, delta__lt=0
            )
            .exclude(player_id=user_id)
            .select_related("game")
            .order_by("created_at", "id")
        )
        if not losses:
            return []
        _lock_players([entry.player_id for entry in losses])
        settled = set(
            RatingEntry.objects.filter(
                game_id__in=[entry.game_id for entry in losses],
                reason__in=[RatingEntry.Reason.FAULT_REVERSAL, RatingEntry.Reason.REFUND],
            ).values_list("game_id", "player_id")
        )
        unsettled = [loss for loss in losses if (loss.game_id, loss.player_id) not in settled]
        return _give_back(unsettled, reason=RatingEntry.Reason.REFUND, note=note)


# --- Marked accounts -----------------------------------------------------------------


def rating_player_mark(*, user_id: int) -> bool:
    """Take a player off the leaderboard (fairplay's mark); False if already marked."""
    _, created = MarkedPlayer.objects.get_or_create(player_id=user_id)
    return created


def rating_player_unmark(*, user_id: int) -> bool:
    """List a marked player again; False if they were not marked."""
    deleted, _ = MarkedPlayer.objects.filter(player_id=user_id).delete()
    return bool(deleted)
