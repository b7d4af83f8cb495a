"""Celery tasks: each one is a thin call into a service."""

from __future__ import annotations

import time

from celery import shared_task

from games import services, timebase
from games.challenges import challenges_expire as expire_challenges
from games.faults import fault_report_late_clock_check, heartbeat_beat

# A task may run a little before its ETA (clock skew between processes); waiting up to this
# long for the deadline is cheaper than leaving the flag to the next sweep.
EARLY_WAIT_MAX = 2.0


@shared_task(name="games.tasks.heartbeat", ignore_result=True)
def heartbeat() -> str:
    """Record a beat; a gap since the previous one is a service fault (games.faults)."""
    beat, _fault = heartbeat_beat()
    return beat.at.isoformat()


@shared_task(name="games.tasks.clock_check", ignore_result=True)
def clock_check(game_id: int, version: int) -> bool:
    """At an engine deadline: let the clock act, unless the game has moved on (or is gone).

    Delivered by the broker at its ETA, a check that runs far past the game's deadline
    shows the workers were not keeping time: a service fault (games.faults). A direct call
    (no ETA) has no schedule to be late against.
    """
    if clock_check.request.eta is not None:
        fault_report_late_clock_check(
            game_id=game_id, version=version, ran_at=timebase.to_datetime(timebase.server_now())
        )
    result = services.game_advance(game_id=game_id, expected_version=version)
    if not result.changed and result.version == version and result.deadline is not None:
        early = result.deadline - timebase.server_now()
        if 0 < early <= EARLY_WAIT_MAX:
            time.sleep(early + 0.01)
            result = services.game_advance(game_id=game_id, expected_version=version)
    return result.changed


@shared_task(name="games.tasks.clock_sweep", ignore_result=True)
def clock_sweep() -> int:
    """Every overdue game, whatever happened to its clock-check task."""
    return services.game_sweep_overdue()


@shared_task(name="games.tasks.challenges_expire", ignore_result=True)
def challenges_expire() -> int:
    return expire_challenges()
