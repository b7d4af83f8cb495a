"""Reads of the rating ledger, the profile's game list and the leaderboard.

A rating is never stored: it is derived from the ledger (see ``ratings.models``).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import cast

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.db.models import Count, F, IntegerField, Max, Q, QuerySet, Sum, Value
from django.db.models.functions import Coalesce
from django.utils import timezone

from games.computer.accounts import AGAINST_COMPUTER
from games.models import Game
from games.selectors import decisions_by_seat
from ratings.elo import INITIAL_RATING, PlayerRating, display_rating
from ratings.models import MarkedPlayer, RatingEntry
from ratings.signals import game_rating_asked

LEADERBOARD_ACTIVE_DAYS = 30
LEADERBOARD_SIZE = 100

_GAME = RatingEntry.Reason.GAME
_REVERSAL = RatingEntry.Reason.FAULT_REVERSAL
_REFUND = RatingEntry.Reason.REFUND


def _rating_from(total: int | None, games: int, reversals: int, peak: int | None) -> PlayerRating:
    rating = INITIAL_RATING + (total or 0)
    return PlayerRating(
        rating=rating,
        games_played=games - reversals,
        peak_rating=max(INITIAL_RATING, peak or INITIAL_RATING, rating),
    )


def rating_state(*, user_id: int) -> PlayerRating:
    """The player's rating, rated-games count and peak, summed from the ledger."""
    agg = RatingEntry.objects.filter(player_id=user_id).aggregate(
        total=Sum("delta"),
        games=Count("id", filter=Q(reason=_GAME)),
        reversals=Count("id", filter=Q(reason=_REVERSAL)),
        peak=Max("rating_after"),
    )
    return _rating_from(agg["total"], agg["games"], agg["reversals"], agg["peak"])


def rating_states(*, user_ids: Iterable[int]) -> dict[int, PlayerRating]:
    """``rating_state`` for many players in one query (players without entries included)."""
    ids = set(user_ids)
    rows = (
        RatingEntry.objects.filter(player_id__in=ids)
        .values("player_id")
        .annotate(
            total=Sum("delta"),
            games=Count("id", filter=Q(reason=_GAME)),
            reversals=Count("id", filter=Q(reason=_REVERSAL)),
            peak=Max("rating_after"),
        )
    )
    states = {uid: _rating_from(0, 0, 0, None) for uid in ids}
    for row in rows:
        states[row["player_id"]] = _rating_from(
            row["total"], row["games"], row["reversals"], row["peak"]
        )
    return states


def players_snapshot(users: list[User]) -> list[dict[str, object]]:
    """Each player's {"rating", "rating_label"} now, in one query: what a new rated game
    stores (games.services.game_create) and shows beside the names until it ends."""
    states = rating_states(user_ids=[user.pk for user in users])
    return [snapshot_of(states[user.pk]) for user in users]


def snapshot_of(state: PlayerRating) -> dict[str, object]:
    """One seat of `players_snapshot`, from a rating already read."""
    return {"rating": state.rating, "rating_label": rating_label(state)}


def rating_of(user: User) -> int:
    return rating_state(user_id=user.pk).rating


def rating_label(state: PlayerRating) -> str:
    """ "1534?" while provisional, else "1534" (ratings.elo.display_rating)."""
    return display_rating(state.rating, state.games_played)


def player_is_marked(*, user_id: int) -> bool:
    """Whether a moderator marked the player (ratings.models.MarkedPlayer)."""
    return MarkedPlayer.objects.filter(player_id=user_id).exists()


def rating_history(*, user: User) -> list[RatingEntry]:
    """Every ledger entry of the player, oldest first."""
    return list(
        RatingEntry.objects.filter(player=user).select_related("game").order_by("created_at", "id")
    )


def game_is_ratable(game: Game) -> bool:
    """Whether a game's result counts for the ratings (it may not be saved yet).

    Only finished games between two different people (not against the computer), not
    same-device, with a winner, in which both seats made at least one decision of their own
    (not Start, Continue or Resign, and not an automatic action, which the log records
    without a seat), and that no app above refuses (ratings.signals.game_rating_asked: an
    arena game too short to count).
    """
    if game.status != Game.Status.FINISHED or not game.rated or game.same_device:
        return False
    if game.against_computer:
        return False
    if game.player0_id == game.player1_id or game.winner_seat not in (0, 1):
        return False
    if min(decisions_by_seat(game.pk)) < 1:
        return False
    answers: list[object] = [a for _r, a in game_rating_asked.send(sender=Game, game=game)]
    return all(answer is not False for answer in answers)


@dataclass(frozen=True)
class LeaderRow:
    rank: int
    username: str
    rating: int
    games_played: int
    peak_rating: int
    last_game_at: datetime

    @property
    def label(self) -> str:
        return display_rating(self.rating, self.games_played)


def leaderboard(*, now: datetime | None = None, limit: int = LEADERBOARD_SIZE) -> list[LeaderRow]:
    """Rated players with a rated game in the last 30 days, best first; closed and marked
    accounts are not listed."""
    cutoff = (now or timezone.now()) - timedelta(days=LEADERBOARD_ACTIVE_DAYS)
    users = (
        get_user_model()
        .objects.filter(is_active=True, rating_mark__isnull=True)
        .annotate(
            total=Coalesce(Sum("rating_entries__delta"), 0),
            games=Count("rating_entries", filter=Q(rating_entries__reason=_GAME)),
            reversals=Count("rating_entries", filter=Q(rating_entries__reason=_REVERSAL)),
            peak=Max("rating_entries__rating_after"),
            last_game_at=Max("rating_entries__created_at", filter=Q(rating_entries__reason=_GAME)),
        )
        .annotate(
            rating=Value(INITIAL_RATING, output_field=IntegerField()) + F("total"),
            played=F("games") - F("reversals"),
        )
        .filter(last_game_at__gte=cutoff, played__gt=0)
        .order_by("-rating", "-played", "username")[:limit]
    )
    rows = []
    for rank, user in enumerate(users, start=1):
        state = _rating_from(user.total, user.games, user.reversals, user.peak)
        rows.append(
            LeaderRow(
                rank=rank,
                username=user.get_username(),
                rating=state.rating,
                games_played=state.games_played,
                peak_rating=state.peak_rating,
                last_game_at=user.last_game_at,
            )
        )
    return rows


def games_of(*, user: User, against_computer: bool = False) -> QuerySet[Game]:
    """The player's games against people (or, asked so, against the computer), newest
    first, with what the profile shows of each."""
    games = Game.objects.filter(Q(player0=user) | Q(player1=user))
    games = games.filter(AGAINST_COMPUTER) if against_computer else games.exclude(AGAINST_COMPUTER)
    return (
        games.select_related("player0", "player1")
        .prefetch_related("service_faults")
        .order_by("-created_at")
    )


@dataclass(frozen=True)
class ProfileGame:
    game: Game
    opponent: str  # a username (its profile's address), or a computer's name
    seat: int | None
    outcome: str  # "win", "loss", "cancelled", "aborted", "playing", "waiting", "finished"
    delta: int | None
    reversed: bool
    refunded: bool = False  # a loss to an account a moderator marked, given back


def profile_games(
    *, user: User, limit: int = 50, against_computer: bool = False
) -> list[ProfileGame]:
    """The profile's game list; games against the computer are listed apart (unrated)."""
    games = list(games_of(user=user, against_computer=against_computer)[:limit])
    entries = RatingEntry.objects.filter(player=user, game__in=[g.pk for g in games])
    deltas: dict[int, int] = {}
    reversed_ids: set[int] = set()
    refunded_ids: set[int] = set()
    for entry in entries:
        if entry.reason == _GAME:
            deltas[entry.game_id] = entry.delta
        elif entry.reason == _REFUND:
            refunded_ids.add(entry.game_id)
        else:
            reversed_ids.add(entry.game_id)
    rows = []
    for game in games:
        seats = game.seats_of(user.pk)
        seat = seats[0] if len(seats) == 1 else None
        if game.same_device:
            opponent = ""
        else:
            other = game.player1 if seat == 0 else game.player0
            # A game of the user's that is not on one device gives them exactly one seat.
            opponent = (
                game.display_names()[1 - cast(int, seat)]
                if game.against_computer
                else other.get_username()
            )
        if game.status == Game.Status.FINISHED and seat is not None and game.winner_seat in (0, 1):
            outcome = "win" if game.winner_seat == seat else "loss"
        else:
            outcome = game.status
        rows.append(
            ProfileGame(
                game=game,
                opponent=opponent,
                seat=seat,
                outcome=outcome,
                delta=deltas.get(game.pk),
                reversed=game.pk in reversed_ids,
                refunded=game.pk in refunded_ids,
            )
        )
    return rows


@dataclass(frozen=True)
class ResultsSummary:
    wins: int
    losses: int
    cancelled: int


def results_summary(*, user: User) -> ResultsSummary:
    """Wins and losses over finished games against people (rated or not), and cancelled
    games; games against the computer are counted apart (`computer_summary`)."""
    games = (
        Game.objects.filter(same_device=False)
        .filter(Q(player0=user) | Q(player1=user))
        .exclude(AGAINST_COMPUTER)
    )
    finished = games.filter(status=Game.Status.FINISHED)
    wins = finished.filter(Q(player0=user, winner_seat=0) | Q(player1=user, winner_seat=1)).count()
    losses = finished.filter(
        Q(player0=user, winner_seat=1) | Q(player1=user, winner_seat=0)
    ).count()
    cancelled = games.filter(status=Game.Status.CANCELLED).count()
    return ResultsSummary(wins=wins, losses=losses, cancelled=cancelled)


def game_rating_changes(*, game_id: int) -> list[dict[str, int]] | None:
    """What a game did to each seat's rating, seat 0 first, or None when it rated nobody.

    Each seat: {"before", "after", "delta"} from the game's "game" entries (a voided game's
    reversal undoes them; then it shows none).
    """
    game = Game.objects.filter(pk=game_id).only("player0_id", "player1_id").first()
    if game is None:
        return None
    entries = list(RatingEntry.objects.filter(game_id=game_id))
    if any(e.reason == RatingEntry.Reason.FAULT_REVERSAL for e in entries):
        return None
    by_player = {e.player_id: e for e in entries if e.reason == RatingEntry.Reason.GAME}
    seats = [by_player.get(game.player0_id), by_player.get(game.player1_id)]
    if not all(seats):
        return None
    return [
        {"before": e.rating_before, "after": e.rating_after, "delta": e.delta}
        for e in cast(list[RatingEntry], seats)  # all() above ruled out None
    ]
