"""Fixtures shared by every test package; app-specific ones live beside their tests."""

from __future__ import annotations

import gc
import os
import threading
import weakref
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import redis
from asgiref.sync import SyncToAsync
from channels.layers import channel_layers
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.core.cache import cache
from django.core.management.base import CommandError
from django.db import connections
from django.db.backends.base.base import BaseDatabaseWrapper
from django.test import Client, TransactionTestCase, override_settings
from django.utils import translation

from realtime.counters import windows_forget
from tests.realtime.vocabulary import wire  # noqa: F401  (a fixture, found by name)

TESTS = Path(__file__).resolve().parent
# What starts processes or drives a browser: each module's tests one after another on one
# worker (they share its platform or browser), several such modules at once.
ONE_AT_A_TIME = (TESTS / "system", TESTS / "e2e")


def one_at_a_time(item: pytest.Item) -> str | None:
    """The group of `item` if it starts processes or drives a browser: its module."""
    if any(item.path.is_relative_to(folder) for folder in ONE_AT_A_TIME):
        return str(item.path.relative_to(TESTS))
    return None


_workers = {"grouped": False, "yielding": False}


def _property_test_without_database(item: pytest.Item) -> bool:
    uses_db = item.get_closest_marker("django_db") is not None or any(
        name in getattr(item, "fixturenames", ()) for name in ("db", "transactional_db")
    )
    function = getattr(item, "function", None)
    return not uses_db and getattr(function, "is_hypothesis_test", False)


def _handed_out(item: pytest.Item) -> int:
    """The order in which pytest-xdist hands tests out (make test: --no-loadscope-reorder):
    the longest first, so that no worker is left alone with a long one at the end."""
    if item.get_closest_marker("slow"):
        return 0
    if one_at_a_time(item):
        return 1
    # The engine's property tests, the longest of the rest, where pytest-django puts them
    # (last) would keep one worker busy long after the others had run out of tests.
    return 2 if _property_test_without_database(item) else 3


@pytest.hookimpl(wrapper=True)  # before pytest-xdist reads the groups, after pytest-django sorts
def pytest_collection_modifyitems(items: list[pytest.Item]) -> Iterator[None]:
    """With pytest-xdist's --dist loadgroup (make test), the tests of a module of
    tests/system or tests/e2e run on one worker, one after another; the rest are shared out
    one by one."""
    for item in items:
        if group := one_at_a_time(item):
            item.add_marker(pytest.mark.xdist_group(group))
            _workers["grouped"] = True
    yield
    items.sort(key=_handed_out)


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    """A worker that has gone on to the shared-out tests yields the processor to those
    still running groups: their platforms and browsers keep the pace their tests were
    written for (a deadline kept within a second, a page's answer within seconds)."""
    if not _workers["grouped"] or _workers["yielding"] or one_at_a_time(item):
        return
    if os.environ.get("PYTEST_XDIST_WORKER"):
        os.nice(10)
        _workers["yielding"] = True


# Strong enough for AUTH_PASSWORD_VALIDATORS and unlike any test username.
PASSWORD = "felt-green-spinner-42"


# Every database connection object this process makes, so that the stray ones can be found
# after each test without walking the whole heap (gc.get_objects()) each time.
_wrappers: weakref.WeakSet[BaseDatabaseWrapper] = weakref.WeakSet()
_wrapper_init = BaseDatabaseWrapper.__init__


def _registered_init(self: BaseDatabaseWrapper, *args: object, **kwargs: object) -> None:
    _wrapper_init(self, *args, **kwargs)
    _wrappers.add(self)


BaseDatabaseWrapper.__init__ = _registered_init  # type: ignore[method-assign]

_flush = TransactionTestCase._fixture_teardown
FLUSH_ATTEMPTS = 3


def _flush_again_after_a_deadlock(self: TransactionTestCase) -> None:
    """A module's live platform keeps its worker between tests, and PostgreSQL may cancel
    the flush's TRUNCATE as the deadlock's victim against the clock keeper's row locks."""
    for attempt in range(1, FLUSH_ATTEMPTS + 1):
        try:
            return _flush(self)
        except CommandError as error:
            if attempt == FLUSH_ATTEMPTS or "deadlock detected" not in str(error.__cause__):
                raise


TransactionTestCase._fixture_teardown = _flush_again_after_a_deadlock  # type: ignore[method-assign]


@pytest.fixture(scope="session", autouse=True)
def fast_password_hasher() -> Iterator[None]:
    """Players are created by the hundred: the real hasher, slow by design (a third of a
    second a password), would dominate the run. No test is about the hasher's strength;
    the platform's processes keep theirs (the browser tests sign in with a session)."""
    with override_settings(PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"]):
        yield


@pytest.fixture(scope="session", autouse=True)
def no_socket_limit_per_address() -> Iterator[None]:
    """Every test socket comes from one address (or none): the tests of the limit set it."""
    with override_settings(WS_CONNECTS_PER_ADDRESS_PER_MINUTE=0):
        yield


@pytest.fixture
def password() -> str:
    return PASSWORD


@pytest.fixture
def user_factory(db: None) -> Callable[..., AbstractBaseUser]:
    """make_user(username="alice", password=PASSWORD, **fields) -> a saved active user."""

    def make_user(
        username: str = "alice", password: str = PASSWORD, **fields: object
    ) -> AbstractBaseUser:
        return get_user_model().objects.create_user(username=username, password=password, **fields)

    return make_user


@pytest.fixture
def user(user_factory: Callable[..., AbstractBaseUser]) -> AbstractBaseUser:
    return user_factory("alice")


@pytest.fixture
def alice(user_factory: Callable[..., AbstractBaseUser]) -> AbstractBaseUser:
    return user_factory("alice")


@pytest.fixture
def bob(user_factory: Callable[..., AbstractBaseUser]) -> AbstractBaseUser:
    return user_factory("bob")


@pytest.fixture
def carol(user_factory: Callable[..., AbstractBaseUser]) -> AbstractBaseUser:
    return user_factory("carol")


@pytest.fixture
def client_logged_in(db: None) -> Callable[[AbstractBaseUser], Client]:
    """client_logged_in(user) -> a new test Client with that user's session.

    force_login skips authenticate(), so it neither needs the password nor counts towards
    django-axes' failure limit.
    """

    def make_client(user: AbstractBaseUser) -> Client:
        client = Client()
        client.force_login(user)
        return client

    return make_client


def clear_cache() -> None:
    """cache.clear() for this test process's keys only: with Redis, Django's clear() empties
    the whole database, and with it the other xdist workers' keys and their platforms'.
    The counters of realtime.counters go too (under this process's prefix)."""
    windows_forget()
    if not settings.REDIS_URL:
        cache.clear()  # the process's own memory
        return
    client = redis.Redis.from_url(settings.REDIS_URL)
    try:
        keys = list(client.scan_iter(match=cache.make_key("*"), count=1000))
        if keys:
            client.delete(*keys)
    finally:
        client.close()


def _known_wrappers() -> list[BaseDatabaseWrapper]:
    while True:
        try:
            return list(_wrappers)
        except RuntimeError:  # a thread made one meanwhile
            continue


def close_stray_connections(*, whole_heap: bool = False) -> None:
    """Close database connections left open in threads other than the main one.

    A consumer whose socket closed at the end of a test, or a test's racing threads, may
    leave a connection in an idle thread (asgiref's executors among them); PostgreSQL then
    refuses to drop the test database. The threads are idle, so closing from here is safe.
    `whole_heap` looks for them among all the objects in memory, not only those made since
    this module was imported.
    """
    SyncToAsync.single_thread_executor.submit(connections.close_all).result(timeout=10)
    main = threading.main_thread().ident
    for obj in gc.get_objects() if whole_heap else _known_wrappers():
        # type(), not isinstance(): isinstance asks a lazy object (a request's user, a
        # template's "your game") for its class, which would run its query.
        stray = (
            issubclass(type(obj), BaseDatabaseWrapper)
            and obj.connection is not None
            and obj._thread_ident != main
        )
        if stray:
            obj.connection.close()
            obj.connection = None
    # PostgreSQL's pool (one per process) holds idle connections of its own, opened with
    # the settings it was made with: closed, the next use builds it from today's settings.
    for conn in connections.all():
        if conn.alias in getattr(conn, "_connection_pools", {}):
            conn.close_pool()


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


@pytest.fixture(autouse=True)
def default_language_after_each_test() -> Iterator[None]:
    """A request through LocaleMiddleware leaves its language active in the test's thread:
    a Spanish request must not make the next test's English strings Spanish."""
    yield
    translation.deactivate()


@pytest.fixture(scope="session", autouse=True)
def no_stray_connections_at_the_end(django_db_setup: None) -> Iterator[None]:
    """Torn down before the test database is dropped (it depends on its setup)."""
    yield
    close_stray_connections(whole_heap=True)
