"""Fixtures for the games tests."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from channels.layers import channel_layers
from django.contrib.auth.models import AbstractBaseUser

from tests.conftest import close_stray_connections
from tests.realtime.vocabulary import wire  # noqa: F401  (a fixture, found by name)


@pytest.fixture(autouse=True)
def fresh_channel_layer() -> None:
    """A new channel layer object per test.

    channels keeps one layer per process, and channels_redis binds its locks to the event
    loop that first used them; every async test runs in its own loop.
    """
    channel_layers.backends.clear()


@pytest.fixture(autouse=True)
def close_thread_connections() -> Iterator[None]:
    """Close the database connections consumers opened in worker threads, after each test."""
    yield
    close_stray_connections()


@pytest.fixture
def alice(user_factory: Any) -> AbstractBaseUser:
    return user_factory("alice")


@pytest.fixture
def bob(user_factory: Any) -> AbstractBaseUser:
    return user_factory("bob")


@pytest.fixture
def carol(user_factory: Any) -> AbstractBaseUser:
    return user_factory("carol")
