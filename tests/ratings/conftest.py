"""Fixtures for the ratings tests: finished games through the real game service."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import AbstractBaseUser

from games.models import Game
from tests.games.factories import drive, make_game, seeded_deals

# With these balances and seeded_deals(7), `factories.choose` ends the game within a few
# dozen actions, both seats having played tiles: seat 0 wins with 10 each, seat 1 with 20.
BALANCES_FOR_WINNER = {0: (10, 10), 1: (20, 20)}


@pytest.fixture
def play_game() -> Callable[..., Game]:
    """play_game(p0, p1, winner=0) -> a game played to its end through games.services."""

    def play(p0: AbstractBaseUser, p1: AbstractBaseUser, winner: int = 0) -> Game:
        game = make_game(p0, p1, balances=BALANCES_FOR_WINNER[winner], deals=seeded_deals(7))
        game = drive(game.pk, (p0, p1), lambda view: view["status"] == "finished")
        assert game.winner_seat == winner
        return game

    return play


@pytest.fixture
def players(user_factory: Any) -> list[AbstractBaseUser]:
    return [user_factory(name) for name in ("alice", "bob", "carol", "dave")]
