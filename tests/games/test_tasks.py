"""Celery tasks, run in-process: each is a thin call into a service and tolerates a gone game."""

from __future__ import annotations

import pytest
from django.utils import timezone

from games import tasks
from games.challenges import challenge_create
from games.models import Challenge

pytestmark = pytest.mark.django_db


def test_challenges_expire_task(alice):
    challenge = challenge_create(challenger=alice)
    Challenge.objects.filter(pk=challenge.pk).update(expires_at=timezone.now())
    assert tasks.challenges_expire() == 1


def test_beat_schedule_has_the_periodic_tasks_but_no_clock(settings):
    tasks_by_name = {entry["task"] for entry in settings.CELERY_BEAT_SCHEDULE.values()}
    assert tasks_by_name == {"games.tasks.challenges_expire", "ratings.tasks.queue_pair"}
