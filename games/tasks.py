"""Celery tasks: each one is a thin call into a service.

Game clocks are not tasks: the clock keeper (games.clock.keeper), a thread of every
worker, settles them from the deadlines stored with the games.
"""

from __future__ import annotations

import logging

from celery import shared_task
from celery.signals import worker_ready, worker_shutdown

from games.clock import keeper as clock_keeper
from games.computer import moves
from games.computer.wakeups import TASK_NAME
from games.review import tasks as review_tasks  # noqa: F401  (the review queue's tasks)

logger = logging.getLogger(__name__)


@worker_ready.connect
def start_clock_keeper(**_kwargs: object) -> None:
    clock_keeper.start_in_background()


@worker_shutdown.connect
def stop_clock_keeper(**_kwargs: object) -> None:
    clock_keeper.stop_background()


@shared_task(name=TASK_NAME, bind=True, ignore_result=True, max_retries=3)
def computer_move(self: object, *, game_id: int, version: int, since: float) -> None:
    """The computer's move in a game, asked for by games.computer.wakeups when it is its turn.

    A failure (the database away a moment) is retried at once, a few times; after that
    the clock keeper asks again (games.computer.wakeups.computer_nudge_overdue).
    """
    try:
        moves.computer_move(game_id=game_id, version=version, since=since)
    except Exception as error:
        logger.exception("computer move in game %s (version %s) failed", game_id, version)
        raise self.retry(exc=error, countdown=0.2) from error  # type: ignore[attr-defined]
