"""Reads: who sits where, what each connection may see, what the lobby lists."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db.models import Q
from django.utils import timezone

from games.models import Challenge, Game
from games.timebase import to_ms

# Who a connection is, as far as the game is concerned. Each audience is one channel-layer
# group, and each group only ever receives the view computed for that audience.
SEAT_0 = "seat_0"
SEAT_1 = "seat_1"
WATCH = "watch"
DEVICE = "device"  # the one user who owns both seats of a same-device game

AUDIENCE_SEAT: dict[str, int | None] = {SEAT_0: 0, SEAT_1: 1, WATCH: None, DEVICE: None}


def game_get(game_id: int) -> Game | None:
    return Game.objects.select_related("player0", "player1").filter(pk=game_id).first()


def game_audience(game: Game, user: AbstractBaseUser | None) -> str:
    user_id = getattr(user, "pk", None)
    seats = game.seats_of(user_id) if user_id is not None else []
    if len(seats) == 2:
        return DEVICE
    if seats == [0]:
        return SEAT_0
    if seats == [1]:
        return SEAT_1
    return WATCH


def game_audiences(game: Game) -> tuple[str, ...]:
    return (DEVICE, WATCH) if game.same_device else (SEAT_0, SEAT_1, WATCH)


def game_group(game_id: int, audience: str) -> str:
    return f"game_{game_id}_{audience}"


def audience_seats(audience: str) -> tuple[int, ...]:
    """The seats whose presence a connection of this audience counts for."""
    return {SEAT_0: (0,), SEAT_1: (1,), DEVICE: (0, 1)}.get(audience, ())


def user_group(user_id: int) -> str:
    return f"user_{user_id}"


LOBBY_GROUP = "lobby"


def challenges_visible_to(user: AbstractBaseUser) -> list[Challenge]:
    """Open, unexpired challenges the user may see: theirs, addressed to them, and open ones."""
    return list(
        Challenge.objects.select_related("challenger", "opponent")
        .filter(status=Challenge.Status.OPEN, expires_at__gt=timezone.now())
        .filter(Q(challenger=user) | Q(opponent=user) | Q(opponent__isnull=True))
        .order_by("created_at")
    )


def challenge_public(challenge: Challenge, user: AbstractBaseUser) -> dict[str, Any]:
    """What the lobby shows of a challenge: usernames and times, nothing else."""
    return {
        "id": challenge.pk,
        "challenger": challenge.challenger.get_username(),
        "opponent": challenge.opponent.get_username() if challenge.opponent else None,
        "created_at": to_ms(challenge.created_at.timestamp()),
        "expires_at": to_ms(challenge.expires_at.timestamp()),
        "mine": challenge.challenger_id == user.pk,
        "to_me": challenge.opponent_id == user.pk,
    }


def lobby_snapshot(user: AbstractBaseUser) -> list[dict[str, Any]]:
    return [challenge_public(c, user) for c in challenges_visible_to(user)]
