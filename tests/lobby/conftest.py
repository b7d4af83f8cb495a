"""Fixtures for the lobby tests: the games tests' players and channel-layer hygiene, and
the ratings tests' played games (the queue matches by rating)."""

from tests.games.conftest import (  # noqa: F401  (fixtures, found by name)
    alice,
    bob,
    carol,
    close_thread_connections,
    fresh_channel_layer,
    wire,
)
from tests.ratings.conftest import fast_passwords, play_game, players  # noqa: F401
