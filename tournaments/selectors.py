"""Reads of the arenas: lists, standings, a player's arenas. Public facts only."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.conf import settings
from django.contrib.auth.models import AnonymousUser, User
from django.db.models import Count, Q, QuerySet
from django.urls import reverse
from django.utils import timezone

from games.models import Game
from tournaments import arena as scoring
from tournaments.messages import ArenaGameResult, ArenaGameRow, StandingRow, StandingsMessage
from tournaments.models import Arena, ArenaGame, ArenaPlayer

SHOWN = (ArenaPlayer.State.ACTIVE, ArenaPlayer.State.PAUSED)
GAMES_SHOWN = 10  # the arena page's list of its latest ended games


def arenas_listed(*, now: datetime | None = None) -> dict[str, list[Arena]]:
    """The arena list: running, starting (scheduled) and recently finished."""
    now = now or timezone.now()
    counted = Arena.objects.annotate(entrants=Count("players", filter=Q(players__state__in=SHOWN)))
    return {
        "running": list(counted.filter(status=Arena.Status.RUNNING).order_by("starts_at")),
        "upcoming": list(counted.filter(status=Arena.Status.SCHEDULED).order_by("starts_at")[:20]),
        "finished": list(
            counted.filter(status__in=[Arena.Status.FINISHED, Arena.Status.CANCELLED]).order_by(
                "-starts_at"
            )[:20]
        ),
    }


def _shown_entries(arena: Arena) -> QuerySet[ArenaPlayer]:
    # A withdrawn player stays only if a game of theirs counted.
    return ArenaPlayer.objects.filter(arena=arena).filter(
        Q(state__in=SHOWN)
        | Q(state=ArenaPlayer.State.WITHDRAWN, wins__gt=0)
        | Q(state=ArenaPlayer.State.WITHDRAWN, losses__gt=0)
    )


def standings(arena: Arena) -> list[StandingRow]:
    """Every shown player, ranked (tournaments.arena.ranked), with their game in progress."""
    entries = list(_shown_entries(arena).select_related("user").order_by("joined_at", "pk"))
    order = {entry.user_id: i for i, entry in enumerate(entries)}
    ranked = scoring.ranked(
        scoring.Standing(e.user_id, e.score, e.performance, order[e.user_id]) for e in entries
    )
    by_user = {entry.user_id: entry for entry in entries}
    playing = _games_in_progress(arena)
    rows: list[StandingRow] = []
    for rank, standing in enumerate(ranked, start=1):
        entry = by_user[standing.user_id]
        rows.append(
            {
                "rank": rank,
                "user": entry.user.get_username(),
                "score": entry.score,
                "streak": entry.streak,
                "fire": entry.streak >= scoring.STREAK_AFTER,
                "wins": entry.wins,
                "losses": entry.losses,
                "short": entry.short,
                "performance": entry.performance,
                "state": entry.state,
                "game": playing.get(entry.user_id),
            }
        )
    return rows


def _games_in_progress(arena: Arena) -> dict[int, int]:
    """Each player's arena game in progress, by user id."""
    rows = ArenaGame.objects.filter(
        arena=arena, ended_at__isnull=True, game__status__in=Game.ACTIVE_STATUSES
    ).values_list("game_id", "player0_id", "player1_id")
    return {player: game for game, *players in rows for player in players}


def games_ended(arena: Arena, *, limit: int = GAMES_SHOWN) -> list[ArenaGameRow]:
    """The arena's latest ended games, newest first: a game too short to count says so."""
    rows = (
        ArenaGame.objects.filter(arena=arena, ended_at__isnull=False)
        .select_related("player0", "player1", "game")
        .order_by("-ended_at", "-pk")[:limit]
    )
    return [
        {
            "game": row.game_id,
            "players": [row.player0.get_username(), row.player1.get_username()],
            "winner": row.game.winner_seat if row.game.status == Game.Status.FINISHED else None,
            "short": row.outcome0 == ArenaGame.Outcome.SHORT,
            "points": [row.points0, row.points1],
        }
        for row in rows
    ]


def standings_message(arena: Arena, *, now: datetime | None = None) -> StandingsMessage:
    now = now or timezone.now()
    rows = standings(arena)
    return {
        "type": "standings",
        "arena": arena.pk,
        "status": arena.status,
        "starts_in": max(0.0, round((arena.starts_at - now).total_seconds(), 1)),
        "ends_in": max(0.0, round((arena.ends_at - now).total_seconds(), 1)),
        "rows": rows,
        "playing": len({row["game"] for row in rows if row["game"] is not None}),
        "games": games_ended(arena),
    }


@dataclass(frozen=True)
class PlayedArena:
    arena: Arena
    rank: int | None
    score: int
    players: int


def arenas_played(user: User) -> list[PlayedArena]:
    """The arenas the player played in (a counted game), newest first, with their rank."""
    entries = (
        ArenaPlayer.objects.filter(user=user)
        .filter(Q(wins__gt=0) | Q(losses__gt=0))
        .select_related("arena")
        .order_by("-arena__starts_at")[:20]
    )
    played = []
    for entry in entries:
        rows = standings(entry.arena)
        rank = next((r["rank"] for r in rows if r["user"] == user.get_username()), None)
        played.append(PlayedArena(entry.arena, rank, entry.score, len(rows)))
    return played


def entry_of(arena: Arena, user: User | AnonymousUser) -> ArenaPlayer | None:
    if not user.is_authenticated:
        return None
    return ArenaPlayer.objects.filter(arena=arena, user=user).first()


@dataclass(frozen=True)
class JoinableArena:
    arena: Arena
    entrants: int
    joined: bool  # the reader is in it (active)


def arenas_to_join(
    user: User | AnonymousUser, *, now: datetime | None = None
) -> list[JoinableArena]:
    """The running arenas and the next ones to start (at most three), for the home page."""
    now = now or timezone.now()
    arenas = list(
        Arena.objects.filter(status__in=[Arena.Status.RUNNING, Arena.Status.SCHEDULED])
        .annotate(entrants=Count("players", filter=Q(players__state__in=SHOWN)))
        .order_by("status", "starts_at")[:3]
    )
    mine: set[int] = set()
    if user.is_authenticated:
        mine = set(
            ArenaPlayer.objects.filter(
                user=user, arena__in=arenas, state=ArenaPlayer.State.ACTIVE
            ).values_list("arena_id", flat=True)
        )
    return [JoinableArena(a, a.entrants, a.pk in mine) for a in arenas]


def arena_game_result(*, game_id: int, user: User) -> ArenaGameResult | None:
    """The arena of a game the reader played in, as its game-over card shows it: what the
    game scored them, their score, streak and rank; None for any other game."""
    played = (
        ArenaGame.objects.filter(game_id=game_id)
        .filter(Q(player0=user) | Q(player1=user))
        .select_related("arena")
        .first()
    )
    if played is None:
        return None
    arena = played.arena
    entry = ArenaPlayer.objects.filter(arena=arena, user=user).first()
    rows = standings(arena)
    mine = next((row for row in rows if row["user"] == user.get_username()), None)
    return {
        "arena": arena.pk,
        "name": arena.name,
        "url": reverse("arena", kwargs={"arena_id": arena.pk}),
        "status": arena.status,
        "points": played.points0 if played.player0_id == user.pk else played.points1,
        "score": entry.score if entry else 0,
        "streak": entry.streak if entry else 0,
        "fire": bool(mine and mine["fire"]),
        "rank": mine["rank"] if mine else None,
        "players": len(rows),
        "state": entry.state if entry else ArenaPlayer.State.WITHDRAWN,
        "pause_url": reverse("arena-pause", kwargs={"arena_id": arena.pk}),
        "join_url": reverse("arena-join", kwargs={"arena_id": arena.pk}),
        "next_seconds": settings.ARENA_NEXT_GAME_SECONDS,
    }
