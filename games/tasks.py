"""Celery tasks: each one is a thin call into a service.

Game clocks are not tasks: the clock keeper (games.clock_keeper), a thread of every
worker, settles them from the deadlines stored with the games.
"""

from __future__ import annotations

from celery.signals import worker_ready, worker_shutdown

from games import clock_keeper


@worker_ready.connect
def start_clock_keeper(**_kwargs: object) -> None:
    clock_keeper.start_in_background()


@worker_shutdown.connect
def stop_clock_keeper(**_kwargs: object) -> None:
    clock_keeper.stop_background()
