"""32 attempts at once through every per-player and per-address limit: none gets past it.

Real threads, each on its own PostgreSQL connection, released together (as in
test_one_active_game_race.py): a limit counted and then filled in two steps would let
several through, as 16 parallel posts once made 6 arenas against a limit of 2.
"""

from __future__ import annotations

import asyncio
import itertools
import secrets
import threading
from collections.abc import Callable
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import close_old_connections, connection
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games.computer.moves import computer_game_create
from games.errors import ServiceError
from games.models import Game
from lobby import challenges
from lobby.errors import LobbyError
from lobby.models import Challenge
from realtime.groups import user_group
from tournaments.errors import ArenaError
from tournaments.models import Arena
from tournaments.services import arena_create

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="concurrent writers"),
]

ATTEMPTS = 32
# Without the lock one round let 3 arenas through in about one run of two: several rounds.
ROUNDS = 4
User = get_user_model()
_names = itertools.count()


def new_player() -> Any:
    return User.objects.create_user(username=f"limited{next(_names)}")


def race(call: Callable[[int], object]) -> list[object]:
    """`call(k)` from ATTEMPTS threads at once: each one's result, or the error it raised."""
    start = threading.Barrier(ATTEMPTS)
    results: list[object] = [None] * ATTEMPTS

    def run(k: int) -> None:
        start.wait()
        try:
            results[k] = call(k)
        except (ServiceError, LobbyError, ArenaError) as refused:
            results[k] = refused
        except BaseException as error:  # any other is the test's failure
            results[k] = error
        finally:
            close_old_connections()
            connection.close()

    threads = [threading.Thread(target=run, args=(k,)) for k in range(ATTEMPTS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    unexpected = [r for r in results if isinstance(r, BaseException) and not _refusal(r)]
    assert unexpected == []
    return results


def _refusal(error: BaseException) -> bool:
    return isinstance(error, ServiceError | LobbyError | ArenaError)


def codes(results: list[object]) -> set[str]:
    return {getattr(r, "code", "") for r in results if isinstance(r, BaseException)}


@pytest.mark.parametrize("round_", range(ROUNDS))
def test_arenas_a_day(settings: Any, round_: int) -> None:
    settings.ARENAS_PER_PLAYER_PER_DAY = 2
    player = new_player()
    options = {"minutes": 30, "bank_seconds": 120, "rated": False}
    results = race(
        lambda k: arena_create(user=player, name=f"A{k}", starts_at=timezone.now(), **options)
    )
    assert Arena.objects.filter(created_by=player).count() == 2
    assert codes(results) == {"too_many_arenas"}


@pytest.mark.parametrize("round_", range(ROUNDS))
def test_open_challenges_from_one_player(round_: int) -> None:
    player = new_player()
    results = race(lambda k: challenges.challenge_create(challenger=player))
    assert Challenge.objects.filter(challenger=player).count() == challenges.MAX_OPEN_CHALLENGES
    assert codes(results) == {"too_many_challenges"}


@pytest.mark.skipif(not settings.REDIS_URL, reason="counts the pushes across threads in Redis")
def test_challenges_to_one_player_and_their_notices() -> None:
    player, target = new_player(), new_player()
    layer = get_channel_layer()
    channel = async_to_sync(layer.new_channel)()
    async_to_sync(layer.group_add)(user_group(target.pk), channel)
    results = race(
        lambda k: challenges.challenge_create(challenger=player, opponent_username=target.username)
    )
    made = Challenge.objects.filter(challenger=player, opponent=target)
    assert made.count() == 1
    assert {r.pk for r in results if isinstance(r, Challenge)} == {made.get().pk}

    async def heard() -> int:
        count = 0
        while True:
            try:
                await asyncio.wait_for(layer.receive(channel), 1.0)
            except TimeoutError:
                return count
            count += 1

    assert async_to_sync(heard)() == 1  # one challenge, one notice


def test_computer_games_an_hour(settings: Any) -> None:
    settings.COMPUTER_GAMES_PER_HOUR = 3
    player = new_player()
    for _ in range(2):  # two this hour, over: room for one more
        game = computer_game_create(user=player, strength="easy")
        Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    results = race(lambda k: computer_game_create(user=player, strength="easy"))
    assert sum(isinstance(r, Game) for r in results) == 1
    assert codes(results) <= {"computer_games_limit", "already_playing"}
    # Finished at once, the next one still finds the hour full.
    Game.objects.filter(player0=player).update(status=Game.Status.FINISHED)
    Game.objects.filter(player1=player).update(status=Game.Status.FINISHED)
    with pytest.raises(ServiceError, match="computer_games_limit"):
        computer_game_create(user=player, strength="easy")


def test_sign_ups_from_one_address(settings: Any, password: str) -> None:
    settings.SIGNUP_RATE_LIMIT_PER_HOUR = 5
    address = f"2001:db8:{secrets.token_hex(2)}::1"

    def sign_up(k: int) -> int:
        form = {"username": f"rush{k}", "password1": password, "password2": password}
        response = Client().post(reverse("signup"), form, REMOTE_ADDR=address)
        return int(response.status_code)

    results = race(sign_up)
    assert User.objects.filter(username__startswith="rush").count() == 5
    assert sorted(results) == [302] * 5 + [429] * (ATTEMPTS - 5)
