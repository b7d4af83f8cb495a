"""Audiences: who a connection is (a seat, a spectator, a shared screen) and its channel group."""

from __future__ import annotations

from django.contrib.auth.models import User

from games.models import Game

# Who a connection is, as far as the game is concerned. Each audience is one channel-layer
# group, and each group only ever receives the view computed for that audience.
SEAT_0 = "seat_0"
SEAT_1 = "seat_1"
WATCH = "watch"
DEVICE = "device"  # the one user who owns both seats of a same-device game

AUDIENCE_SEAT: dict[str, int | None] = {SEAT_0: 0, SEAT_1: 1, WATCH: None, DEVICE: None}


def game_get(game_id: int) -> Game | None:
    return Game.objects.select_related("player0", "player1").filter(pk=game_id).first()


def game_audience(game: Game, user: User | None) -> str:
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


def audience_seats(audience: str) -> tuple[int, ...]:
    """The seats whose presence a connection of this audience counts for."""
    return {SEAT_0: (0,), SEAT_1: (1,), DEVICE: (0, 1)}.get(audience, ())
