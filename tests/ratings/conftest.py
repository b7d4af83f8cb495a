"""Fixtures for the ratings tests: finished games through the real game service."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import AbstractBaseUser

from games.models import Game
from tests.games.factories import played_game


@pytest.fixture
def play_game() -> Callable[..., Game]:
    """play_game(p0, p1, winner=0) -> a game played to its end through games.services."""
    return played_game


@pytest.fixture
def players(user_factory: Any) -> list[AbstractBaseUser]:
    return [user_factory(name) for name in ("alice", "bob", "carol", "dave")]
