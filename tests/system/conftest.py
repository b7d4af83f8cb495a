"""The players of tests/games, for the live tests here."""

from tests.games.conftest import alice, bob, carol

__all__ = ["alice", "bob", "carol"]
