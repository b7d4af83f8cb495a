"""Celery tasks of the arenas (run by beat, config/settings.py): thin calls into services."""

from __future__ import annotations

from celery import shared_task

from tournaments.services import arenas_schedule, arenas_tick


@shared_task(name="tournaments.tasks.arenas_tick", ignore_result=True)
def arenas_tick_task() -> dict[str, int]:
    """Every second: arenas start and end on time, waves pair, changed standings go out."""
    return arenas_tick()


@shared_task(name="tournaments.tasks.arenas_schedule", ignore_result=True)
def arenas_schedule_task() -> int:
    """Every minute: the recurring arenas of the next day exist."""
    return arenas_schedule()
