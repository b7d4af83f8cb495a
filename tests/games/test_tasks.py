"""Celery tasks, run in-process: each is a thin call into a service and tolerates a gone game."""

from __future__ import annotations

import pytest
from django.utils import timezone

from games import tasks, timebase
from games.challenges import challenge_create
from games.models import Challenge, Game
from tests.games.factories import make_game

pytestmark = pytest.mark.django_db


def test_clock_check_settles_the_due_version_only(alice, bob, monkeypatch):
    t0 = 1_800_000_000.0
    monkeypatch.setattr(timebase, "server_now", lambda: t0)
    game = make_game(alice, bob)
    monkeypatch.setattr(timebase, "server_now", lambda: t0 + 61)
    assert tasks.clock_check(game.pk, game.version + 1) is False  # moved on: a no-op
    assert tasks.clock_check(game.pk, game.version) is True
    game.refresh_from_db()
    assert game.status == Game.Status.ABORTED
    assert tasks.clock_check(game.pk, game.version) is False  # idempotent


def test_clock_check_that_arrives_a_little_early_waits_for_the_deadline(alice, bob, monkeypatch):
    t0 = 1_800_000_000.0
    clock = {"t": t0}
    monkeypatch.setattr(timebase, "server_now", lambda: clock["t"])
    game = make_game(alice, bob)
    clock["t"] = t0 + 59.5
    monkeypatch.setattr(tasks.time, "sleep", lambda s: clock.update(t=clock["t"] + s))
    assert tasks.clock_check(game.pk, 0) is True


def test_tasks_tolerate_a_missing_game():
    assert tasks.clock_check(424242, 3) is False


def test_clock_sweep_task(alice, bob, monkeypatch):
    t0 = 1_800_000_000.0
    monkeypatch.setattr(timebase, "server_now", lambda: t0)
    make_game(alice, bob)
    monkeypatch.setattr(timebase, "server_now", lambda: t0 + 61)
    assert tasks.clock_sweep() == 1
    assert tasks.clock_sweep() == 0


def test_challenges_expire_task(alice):
    challenge = challenge_create(challenger=alice)
    Challenge.objects.filter(pk=challenge.pk).update(expires_at=timezone.now())
    assert tasks.challenges_expire() == 1


def test_beat_schedule_has_the_sweeps(settings):
    tasks_by_name = {entry["task"] for entry in settings.CELERY_BEAT_SCHEDULE.values()}
    assert {"games.tasks.clock_sweep", "games.tasks.challenges_expire"} <= tasks_by_name
    assert {"games.tasks.heartbeat"} <= tasks_by_name
