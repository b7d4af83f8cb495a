"""Fixtures for the lobby tests: the ratings tests' played games (the queue matches by rating)."""

from tests.ratings.conftest import play_game, players  # noqa: F401  (fixtures, found by name)
