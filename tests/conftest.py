"""Fixtures shared by every test package; app-specific ones live beside their tests."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.test import Client

from games import services

# Strong enough for AUTH_PASSWORD_VALIDATORS and unlike any test username.
PASSWORD = "felt-green-spinner-42"


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


@pytest.fixture(autouse=True)
def clock_checks(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> list:
    """Record the Celery clock checks instead of queueing them, except in live tests.

    The broker is real (filesystem or Redis) and shared with the live tests' worker; queued
    checks from unit tests would only be noise there.
    """
    scheduled: list[tuple[int, int, float]] = []
    if request.node.get_closest_marker("live") is None:
        monkeypatch.setattr(
            services,
            "schedule_clock_check",
            lambda game_id, version, deadline: scheduled.append((game_id, version, deadline)),
        )
    return scheduled
