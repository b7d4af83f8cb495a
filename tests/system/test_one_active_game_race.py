"""Sixteen game creations for one player at once, down two paths, leave one active game.

The rule is the database's (games.models.ActiveSeat): no interleaving of the paths' own
checks can seat a player twice. Real threads on real PostgreSQL connections.
"""

from __future__ import annotations

import itertools
import threading
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import close_old_connections, connection
from django.db.models import Q

from games import services
from games.computer.moves import computer_game_create
from games.errors import ServiceError
from games.models import Game
from lobby import challenges
from lobby.services import queue_join

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.slow,
    pytest.mark.skipif(connection.vendor != "postgresql", reason="concurrent writers"),
]

ROUNDS = 20
CREATIONS = 16
PATHS = ("computer", "queue", "rematch", "challenge")
PAIRS = [*itertools.combinations(PATHS, 2), ("computer", "computer")]
_names = itertools.count()


def new_player() -> Any:
    return get_user_model().objects.create_user(username=f"racer{next(_names)}")


def attempts(path: str, player: Any, count: int) -> list[Callable[[], object]]:
    """`count` calls that would each give `player` a game down `path`, set up beforehand."""
    if path == "computer":
        return [lambda: computer_game_create(user=player, strength="easy")] * count
    if path == "queue":
        queue_join(user=player)
        others = [new_player() for _ in range(count)]
        return [lambda other=other: queue_join(user=other) for other in others]
    if path == "challenge":
        offers = [challenges.challenge_create(challenger=new_player()) for _ in range(count)]
        return [
            lambda offer=offer: challenges.challenge_accept(challenge_id=offer.pk, user=player)
            for offer in offers
        ]
    calls = []  # rematches: finished games, each with its opponent's offer standing
    for _ in range(count):
        opponent = new_player()
        game = services.game_create(player0=opponent, player1=player)
        services.game_submit_action(
            game_id=game.pk, user=opponent, action={"do": "resign"}, request_id="r"
        )
        services.game_rematch(game_id=game.pk, user=opponent, answer="offer")
        calls.append(
            lambda game=game: services.game_rematch(game_id=game.pk, user=player, answer="offer")
        )
    return calls


def race(calls: list[Callable[[], object]]) -> list[BaseException]:
    start = threading.Barrier(len(calls))
    unexpected: list[BaseException] = []

    def run(call: Callable[[], object]) -> None:
        start.wait()
        try:
            call()
        except ServiceError:
            pass  # refused: the player is in a game already
        except BaseException as error:
            unexpected.append(error)
        finally:
            close_old_connections()
            connection.close()

    threads = [threading.Thread(target=run, args=(call,)) for call in calls]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return unexpected


@pytest.mark.parametrize(("first", "second"), PAIRS, ids=[f"{a}-{b}" for a, b in PAIRS])
def test_sixteen_creations_at_once_leave_one_active_game(first: str, second: str) -> None:
    for _ in range(ROUNDS):
        player = new_player()
        half = CREATIONS // 2
        calls = attempts(first, player, half) + attempts(second, player, CREATIONS - half)
        assert race(calls) == []
        active = Game.objects.filter(status__in=Game.ACTIVE_STATUSES, same_device=False).filter(
            Q(player0=player) | Q(player1=player)
        )
        assert active.count() == 1
