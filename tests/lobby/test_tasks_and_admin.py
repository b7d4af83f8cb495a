"""The lobby's Celery tasks (run in-process) and its admin."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import timezone

from lobby import tasks
from lobby.challenges import challenge_create
from lobby.models import Challenge, QueueEntry

pytestmark = pytest.mark.django_db


def test_challenges_expire_task(alice):
    challenge = challenge_create(challenger=alice)
    Challenge.objects.filter(pk=challenge.pk).update(expires_at=timezone.now())
    assert tasks.challenges_expire() == 1


def test_beat_schedule_has_the_periodic_tasks_but_no_clock(settings):
    tasks_by_name = {entry["task"] for entry in settings.CELERY_BEAT_SCHEDULE.values()}
    assert tasks_by_name == {
        "lobby.tasks.challenges_expire",
        "lobby.tasks.queue_pair",
        "tournaments.tasks.arenas_tick",
        "tournaments.tasks.arenas_schedule",
        "fairplay.tasks.flags_scan",
    }


def test_challenge_admin(admin_client, alice):
    challenge_create(challenger=alice)
    assert admin_client.get(reverse("admin:lobby_challenge_changelist")).status_code == 200


def test_queue_admin_lists_the_queue(admin_client, alice):
    now = timezone.now()
    QueueEntry.objects.create(user=alice, rating=1500, joined_at=now, seen_at=now)
    page = admin_client.get(reverse("admin:lobby_queueentry_changelist"))
    assert page.status_code == 200 and "alice" in page.content.decode()
