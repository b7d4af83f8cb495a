"""Celery tasks of the arenas (run by beat, config/settings.py): thin calls into services."""

from __future__ import annotations

from celery import shared_task

from tournaments.services import (
    arena_start_on_time,
    arenas_schedule,
    arenas_starting_soon,
    arenas_tick,
)


@shared_task(name="tournaments.tasks.arenas_tick", ignore_result=True)
def arenas_tick_task() -> dict[str, int]:
    """Every second: arenas start and end on time, waves pair, changed standings go out;
    an arena starting before the next tick is started on the dot by a timed task."""
    result = arenas_tick()
    for arena_id, starts_at in arenas_starting_soon():
        arena_start_task.apply_async(args=[arena_id], eta=starts_at)
    return result


@shared_task(name="tournaments.tasks.arena_start", ignore_result=True)
def arena_start_task(arena_id: int) -> bool:
    """An arena's start, at its start time, with its first wave."""
    return arena_start_on_time(arena_id=arena_id)


@shared_task(name="tournaments.tasks.arenas_schedule", ignore_result=True)
def arenas_schedule_task() -> int:
    """Every minute: the recurring arenas of the next day exist."""
    return arenas_schedule()
