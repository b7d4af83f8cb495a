"""Fixtures for the fair-play tests: rated games through the real game service."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.test import Client

from games import engine, services
from games.models import Game, GameAction
from tests.games.factories import drive, make_game, seeded_deals

# As in tests.ratings: with these balances and seeded_deals(7) the game ends within a few
# dozen actions, seat 0 winning with 10 each, seat 1 with 20.
BALANCES_FOR_WINNER = {0: (10, 10), 1: (20, 20)}


def own_decisions(game_id: int, seat: int) -> int:
    return GameAction.objects.filter(
        game_id=game_id, seat=seat, error="", action__do__in=list(engine.DECISIONS)
    ).count()


def resigned_game(winner: AbstractBaseUser, loser: AbstractBaseUser, decisions: int = 1) -> Game:
    """A rated game `loser` resigns once each seat has made at least `decisions` decisions of
    its own (1: a quick game; a real start is more): the winner holds seat 0."""
    game = make_game(winner, loser, deals=seeded_deals(11))

    def enough(view: Any) -> bool:
        return view["status"] == "finished" or (
            own_decisions(game.pk, 0) >= 1 and own_decisions(game.pk, 1) >= decisions
        )

    drive(game.pk, (winner, loser), enough)
    result = services.game_submit_action(
        game_id=game.pk, user=loser, action={"do": "resign"}, request_id=None
    )
    assert result.ok, result
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.winner_seat == 0
    assert own_decisions(game.pk, 1) >= decisions
    return game


@pytest.fixture
def quick_loss() -> Callable[..., Game]:
    """quick_loss(winner, loser, decisions=1) -> a rated game the loser resigned early."""
    return resigned_game


@pytest.fixture
def played_game() -> Callable[..., Game]:
    """played_game(p0, p1, winner=0) -> a game played to its end (as tests.ratings' play_game)."""

    def play(p0: AbstractBaseUser, p1: AbstractBaseUser, winner: int = 0) -> Game:
        game = make_game(p0, p1, balances=BALANCES_FOR_WINNER[winner], deals=seeded_deals(7))
        game = drive(game.pk, (p0, p1), lambda view: view["status"] == "finished")
        assert game.winner_seat == winner
        return game

    return play


@pytest.fixture
def admin_user(db: None) -> AbstractBaseUser:
    return get_user_model().objects.create_superuser(
        username="moderator", password="felt-green-42x", email=""
    )


@pytest.fixture
def admin_client(admin_user: AbstractBaseUser) -> Client:
    client = Client()
    client.force_login(admin_user)
    return client
