"""Automatic flags: what the rated games show that a moderator should look at.

Run by a periodic task (fairplay.tasks); each scan reads the rated games of its window
once. A game is *quick* for a seat that made fewer than FAIRPLAY_QUICK_GAME_DECISIONS
decisions of its own in it (plays, draws, bids; not Start, Continue or Resign).

* Boosting: one account won FAIRPLAY_BOOSTING_GAMES or more rated games against the same
  opponent within FAIRPLAY_BOOSTING_HOURS, each quick for the loser.
* Early resignation: in the last FAIRPLAY_EARLY_RESIGN_DAYS, a player with at least
  FAIRPLAY_EARLY_RESIGN_MIN_GAMES rated games resigned a quick game in at least
  FAIRPLAY_EARLY_RESIGN_MIN_SHARE of them, and FAIRPLAY_EARLY_RESIGN_RATIO times as often as
  the other players did.

A flag stays open until a moderator handles it; a handled one is not raised again for the
same player (and opponent) until its window has passed.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from datetime import datetime, timedelta
from typing import Any, cast

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Count, QuerySet
from django.utils import timezone

from fairplay.models import Flag, Status
from games import engine
from games.models import Game, GameAction
from ratings.models import RatingEntry


def _rated_games(since: datetime) -> QuerySet[Game]:
    """Finished games rated since `since` (voided ones are no longer finished)."""
    rated = RatingEntry.objects.filter(
        reason=RatingEntry.Reason.GAME, created_at__gte=since
    ).values("game_id")
    return Game.objects.filter(pk__in=rated, status=Game.Status.FINISHED, winner_seat__in=(0, 1))


def _own_decisions(games: QuerySet[Game]) -> dict[tuple[int, int], int]:
    """{(game id, seat): decisions of that seat's own} for the games."""
    rows = (
        GameAction.objects.filter(
            game_id__in=games.values("pk"),
            error="",
            seat__isnull=False,
            action__do__in=list(engine.DECISIONS),
        )
        .values("game_id", "seat")
        .annotate(n=Count("id"))
    )
    return {(row["game_id"], cast(int, row["seat"])): row["n"] for row in rows}


def _raise(
    *,
    player_id: int,
    opponent_id: int | None,
    kind: str,
    games: int,
    detail: dict[str, Any],
    since: datetime,
) -> Flag | None:
    """Open a flag, or bring the open one up to date; None when it was handled recently."""
    same = Flag.objects.filter(player_id=player_id, opponent_id=opponent_id, kind=kind)
    if same.filter(status=Status.OPEN).update(games=games, detail=detail):
        return None
    if same.filter(created_at__gte=since).exists():
        return None
    try:
        with transaction.atomic():
            return Flag.objects.create(
                player_id=player_id, opponent_id=opponent_id, kind=kind, games=games, detail=detail
            )
    except IntegrityError:  # another scan raised it meanwhile
        return None


def flags_scan_boosting(*, now: datetime | None = None) -> list[Flag]:
    """Flag each winner of many quick rated wins against one opponent in a short span."""
    hours = settings.FAIRPLAY_BOOSTING_HOURS
    quick = settings.FAIRPLAY_QUICK_GAME_DECISIONS
    since = (now or timezone.now()) - timedelta(hours=hours)
    games = _rated_games(since)
    decisions = _own_decisions(games)
    quick_wins: dict[tuple[int, int], list[int]] = defaultdict(list)
    for game_id, player0, player1, winner in games.values_list(
        "pk", "player0_id", "player1_id", "winner_seat"
    ).order_by("pk"):
        winner = cast(int, winner)  # the query kept only games with a winner
        if decisions.get((game_id, 1 - winner), 0) < quick:
            pair = (player0, player1) if winner == 0 else (player1, player0)
            quick_wins[pair].append(game_id)
    raised = []
    for (winner_id, loser_id), game_ids in sorted(quick_wins.items()):
        if len(game_ids) < settings.FAIRPLAY_BOOSTING_GAMES:
            continue
        flag = _raise(
            player_id=winner_id,
            opponent_id=loser_id,
            kind=Flag.Kind.BOOSTING,
            games=len(game_ids),
            detail={"hours": hours, "quick_decisions": quick, "game_ids": game_ids},
            since=since,
        )
        if flag is not None:
            raised.append(flag)
    return raised


def flags_scan_early_resignations(*, now: datetime | None = None) -> list[Flag]:
    """Flag each player who resigns quick games far more often than the others do."""
    days = settings.FAIRPLAY_EARLY_RESIGN_DAYS
    quick = settings.FAIRPLAY_QUICK_GAME_DECISIONS
    since = (now or timezone.now()) - timedelta(days=days)
    games = _rated_games(since)
    decisions = _own_decisions(games)
    played: Counter[int] = Counter()
    early: Counter[int] = Counter()
    for game_id, player0, player1, winner, reason in games.values_list(
        "pk", "player0_id", "player1_id", "winner_seat", "reason"
    ):
        played.update((player0, player1))
        loser = 1 - cast(int, winner)  # the query kept only games with a winner
        if reason == "resign" and decisions.get((game_id, loser), 0) < quick:
            early[player1 if loser else player0] += 1
    all_played, all_early = sum(played.values()), sum(early.values())
    raised = []
    for player_id in sorted(early):
        n, e = played[player_id], early[player_id]
        if n < settings.FAIRPLAY_EARLY_RESIGN_MIN_GAMES:
            continue
        share = e / n
        others = all_played - n
        others_share = (all_early - e) / others if others else 0.0
        if share < settings.FAIRPLAY_EARLY_RESIGN_MIN_SHARE:
            continue
        if share < settings.FAIRPLAY_EARLY_RESIGN_RATIO * others_share:
            continue
        flag = _raise(
            player_id=player_id,
            opponent_id=None,
            kind=Flag.Kind.EARLY_RESIGN,
            games=n,
            detail={
                "days": days,
                "quick_decisions": quick,
                "early_resignations": e,
                "share": round(share, 3),
                "others_share": round(others_share, 3),
            },
            since=since,
        )
        if flag is not None:
            raised.append(flag)
    return raised


def flags_scan(*, now: datetime | None = None) -> int:
    """Both scans; returns how many flags were newly raised."""
    return len(flags_scan_boosting(now=now)) + len(flags_scan_early_resignations(now=now))
