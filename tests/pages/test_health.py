"""`/health/`: each part's state for anyone, the details for staff, and which part is away."""

from __future__ import annotations

import os
from typing import Any

import pytest
from django.db import connection
from django.db.utils import OperationalError
from django.test import Client

from games.clock.faults import heartbeat_beat

pytestmark = pytest.mark.django_db


def _health(client: Client) -> tuple[int, dict[str, Any]]:
    response = client.get("/health/")
    return response.status_code, response.json()


def test_anonymous_callers_get_the_states_only() -> None:
    heartbeat_beat(keeper="worker-host:4242")
    status, body = _health(Client())
    assert status == 200
    assert body == {
        "ok": True,
        "away": [],
        "database": True,
        "channel_layer": True,
        "clock_keeper": {"up": True},
    }
    assert "worker-host" not in str(body) and "4242" not in str(body)


def test_a_player_who_is_not_staff_gets_the_states_only(client_logged_in: Any, user: Any) -> None:
    heartbeat_beat(keeper="worker-host:4242")
    status, body = _health(client_logged_in(user))
    assert status == 200 and body["clock_keeper"] == {"up": True} and "web" not in body


def test_staff_get_the_details(client_logged_in: Any, user_factory: Any) -> None:
    heartbeat_beat(keeper="worker-host:4242")
    staff = user_factory("operator", is_staff=True)
    status, body = _health(client_logged_in(staff))
    assert status == 200
    assert body["clock_keeper"]["last_keeper"] == "worker-host:4242"
    assert body["clock_keeper"]["seconds_since_beat"] is not None
    assert body["web"]["pid"] == os.getpid()


def test_it_says_the_clock_keeper_is_away() -> None:
    status, body = _health(Client())
    assert status == 503
    assert body["away"] == ["clock_keeper"] and body["clock_keeper"] == {"up": False}


def test_it_says_the_channel_layer_is_away(monkeypatch: pytest.MonkeyPatch) -> None:
    heartbeat_beat()
    monkeypatch.setattr("pages.health.get_channel_layer", lambda: None)
    status, body = _health(Client())
    assert status == 503 and body["away"] == ["channel_layer"]


def test_while_the_database_is_away_staff_get_the_anonymous_answer(
    client_logged_in: Any, user_factory: Any
) -> None:
    heartbeat_beat(keeper="worker-host:4242")
    client = client_logged_in(user_factory("operator", is_staff=True))

    def refuse(*args: Any) -> Any:
        raise OperationalError("connection refused (a test's outage)")

    with connection.execute_wrapper(refuse):
        status, body = _health(client)
    assert status == 503
    assert body["away"] == ["database", "clock_keeper"]
    assert body["database"] is False and body["clock_keeper"] == {"up": False}
    assert "web" not in body


def test_a_user_who_cannot_be_read_gets_the_anonymous_answer(
    client_logged_in: Any, user_factory: Any
) -> None:
    heartbeat_beat(keeper="worker-host:4242")
    client = client_logged_in(user_factory("operator", is_staff=True))

    def refuse_sessions(execute: Any, sql: str, *args: Any) -> Any:
        if "django_session" in sql:
            raise OperationalError("connection refused (a test's outage)")
        return execute(sql, *args)

    with connection.execute_wrapper(refuse_sessions):
        status, body = _health(client)
    assert status == 200 and body["clock_keeper"] == {"up": True} and "web" not in body
