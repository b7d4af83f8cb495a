"""Celery tasks of the lobby (run by beat, config/settings.py): thin calls into services."""

from __future__ import annotations

from celery import shared_task

from lobby.challenges import challenges_expire as expire_challenges
from lobby.services import queue_drop_stale, queue_pair


@shared_task(name="lobby.tasks.challenges_expire", ignore_result=True)
def challenges_expire() -> int:
    return expire_challenges()


@shared_task(name="lobby.tasks.queue_pair", ignore_result=True)
def queue_pair_task() -> int:
    """Every second (beat): drop abandoned entries, then pair whoever the widening now allows.

    Joining already attempts a pairing; this pass exists for the widening, which only
    time can bring about.
    """
    queue_drop_stale()
    return len(queue_pair())
