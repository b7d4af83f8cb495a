"""Fixtures for the fair-play tests: rated games through the real game service."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.test import Client

from games.models import Game
from tests.fairplay.factories import resigned_game
from tests.games import factories


@pytest.fixture
def quick_loss() -> Callable[..., Game]:
    """quick_loss(winner, loser, decisions=1) -> a rated game the loser resigned early."""
    return resigned_game


@pytest.fixture
def played_game() -> Callable[..., Game]:
    """played_game(p0, p1, winner=0) -> a game played to its end through games.services."""
    return factories.played_game


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
