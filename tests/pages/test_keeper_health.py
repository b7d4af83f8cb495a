"""`/health/` and the admin say whether a clock keeper is beating."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from games.clock.faults import heartbeat_beat

pytestmark = pytest.mark.django_db


def test_health_is_503_while_no_clock_keeper_beats():
    response = Client().get("/health/")
    assert response.status_code == 503
    body = response.json()
    assert body["database"] is True and body["channel_layer"] is True
    assert body["clock_keeper"]["up"] is False


def test_health_is_200_with_a_recent_beat():
    heartbeat_beat(keeper="worker-host:42")
    response = Client().get("/health/")
    assert response.status_code == 200, response.json()
    assert response.json()["clock_keeper"] == {"up": True}  # which keeper: staff only
    assert response["Cache-Control"].startswith("max-age=0")


def test_the_admin_says_when_the_clock_keeper_is_down(user_factory):
    admin = user_factory("root", is_staff=True, is_superuser=True)
    client = Client()
    client.force_login(admin)
    heartbeat_beat(at=timezone.now() - timedelta(minutes=2))
    page = client.get("/admin/").content.decode()
    assert "The clock keeper is down" in page
    heartbeat_beat()
    assert "The clock keeper is down" not in client.get("/admin/").content.decode()
