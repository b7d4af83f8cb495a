"""Fixtures for the games tests."""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from typing import Any

import pytest
from asgiref.sync import SyncToAsync
from channels.layers import channel_layers
from django.contrib.auth.models import AbstractBaseUser
from django.db import connections
from django.db.backends.base.base import BaseDatabaseWrapper


@pytest.fixture(autouse=True)
def fresh_channel_layer() -> None:
    """A new channel layer object per test.

    channels keeps one layer per process, and channels_redis binds its locks to the event
    loop that first used them; every async test runs in its own loop.
    """
    channel_layers.backends.clear()


@pytest.fixture(autouse=True)
def close_thread_connections() -> Iterator[None]:
    """Close the database connections consumers opened in worker threads.

    A consumer whose socket closed at the end of a test may still hold a connection in a
    thread of asgiref's executor; PostgreSQL would then refuse to drop the test database.
    """
    yield
    SyncToAsync.single_thread_executor.submit(connections.close_all).result(timeout=10)
    # Connections left in thread-pool threads (consumers run services there): the test is
    # over and those threads are idle, so closing them from here is safe.
    main = threading.main_thread().ident
    for obj in gc.get_objects():
        try:
            stray = (
                isinstance(obj, BaseDatabaseWrapper)
                and obj.connection is not None
                and obj._thread_ident != main
            )
        except ReferenceError:  # a dead weak proxy among the collected objects
            continue
        if stray:
            obj.connection.close()
            obj.connection = None


@pytest.fixture
def alice(user_factory: Any) -> AbstractBaseUser:
    return user_factory("alice")


@pytest.fixture
def bob(user_factory: Any) -> AbstractBaseUser:
    return user_factory("bob")


@pytest.fixture
def carol(user_factory: Any) -> AbstractBaseUser:
    return user_factory("carol")
