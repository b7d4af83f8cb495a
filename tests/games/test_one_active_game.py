"""A player is in at most one active game, whatever path makes it (games.models.ActiveSeat)."""

from __future__ import annotations

from typing import Any

import pytest

from games import services
from games.computer.moves import computer_game_create
from games.errors import ServiceError
from games.models import ActiveSeat, Game

pytestmark = pytest.mark.django_db


def resign(game: Game, user: Any) -> None:
    result = services.game_submit_action(
        game_id=game.pk, user=user, action={"do": "resign"}, request_id="resign"
    )
    assert result.ok, result.code


def test_a_player_in_an_active_game_gets_no_second_one(alice, bob, carol):
    services.game_create(player0=alice, player1=bob)
    with pytest.raises(ServiceError) as refused:
        services.game_create(player0=carol, player1=alice)
    assert refused.value.code == "already_playing"
    assert Game.objects.count() == 1  # nothing half-made is left behind
    assert set(ActiveSeat.objects.values_list("user__username", flat=True)) == {"alice", "bob"}


def test_a_seat_is_free_again_once_its_game_is_over(alice, bob, carol):
    first = services.game_create(player0=alice, player1=bob)
    resign(first, alice)
    second = services.game_create(player0=alice, player1=carol)
    assert ActiveSeat.objects.get(user=alice).game_id == second.pk
    # Bob's seat in the game that ended is cleared by his next game, not by the move.
    assert ActiveSeat.objects.get(user=bob).game_id == first.pk


def test_a_same_device_game_keeps_nobody_from_another_game(alice, bob):
    services.same_device_game_create(user=alice, names=("Ana", "Pablo"))
    services.game_create(player0=alice, player1=bob)
    services.same_device_game_create(user=bob, names=("Marta", "Luis"))
    assert Game.objects.filter(status__in=Game.ACTIVE_STATUSES).count() == 3


def test_the_computer_plays_many_games_at_once(alice, bob):
    computer_game_create(user=alice, strength="easy")
    computer_game_create(user=bob, strength="easy")
    with pytest.raises(ServiceError):
        computer_game_create(user=alice, strength="hard")
    assert Game.objects.filter(status__in=Game.ACTIVE_STATUSES).count() == 2


def test_a_rematch_accepted_while_the_offerer_plays_the_computer_is_refused(alice, bob):
    game = services.game_create(player0=alice, player1=bob)
    resign(game, bob)
    assert services.game_rematch(game_id=game.pk, user=alice, answer="offer").ok
    computer_game_create(user=alice, strength="easy")
    answer = services.game_rematch(game_id=game.pk, user=bob, answer="offer")
    assert (answer.ok, answer.code) == (False, "already_playing")
    game.refresh_from_db()
    assert game.rematch_game_id is None
    assert Game.objects.filter(status__in=Game.ACTIVE_STATUSES).count() == 1
