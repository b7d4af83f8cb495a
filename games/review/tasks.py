"""The review queue's tasks: each one a thin call into games.review.services.

Routed to the `review` queue by name (CELERY_TASK_ROUTES), so the workers that keep clocks
and play the computer's moves never wait behind a review.
"""

from __future__ import annotations

import fcntl
import logging
import os
import tempfile
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from celery import shared_task
from django.conf import settings

from games.errors import ServiceError
from games.models import GameReviewPart

from . import services

logger = logging.getLogger(__name__)

# One part valued at a time in a process: make run's one worker also plays the computer's
# moves on its other threads, and a flood of parts must never take them all.
_SLOT = threading.BoundedSemaphore(1)
BUSY_RETRY_SECONDS = 0.5


def _serves_other_tasks(app: Any) -> bool:
    """Whether this worker also consumes the default queue (clocks' and computer's tasks)."""
    return settings.CELERY_TASK_DEFAULT_QUEUE in app.amqp.queues.consume_from


@contextmanager
def _slot(*, whole_worker: bool) -> Iterator[bool]:
    """Whether a part may be valued now: one at a time in a process and, when
    `whole_worker`, in all the processes of the worker (its process group), so that a
    prefork worker serving both queues keeps processes free for the other tasks."""
    if not _SLOT.acquire(blocking=False):
        yield False
        return
    try:
        if not whole_worker:
            yield True
            return
        path = Path(tempfile.gettempdir()) / f"spectacular-review-slot-{os.getpgrp()}"
        with path.open("a") as lock:
            try:
                # Released when the file is closed, or by the kernel if the process dies.
                fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                yield False
                return
            yield True
    finally:
        _SLOT.release()


@shared_task(name=services.TASK_START, ignore_result=True)
def review_start(*, game_id: int) -> None:
    try:
        services.review_start(game_id=game_id)
    except ServiceError as error:
        logger.info("game %s not reviewed: %s", game_id, error.code)


@shared_task(name=services.TASK_PLAN, ignore_result=True)
def review_plan(*, review_id: int) -> None:
    services.review_plan(review_id=review_id)


@shared_task(name=services.TASK_PART, bind=True, ignore_result=True, max_retries=None)
def review_part(self: Any, *, part_id: int) -> None:
    with _slot(whole_worker=_serves_other_tasks(self.app)) as free:
        if free:
            _value_part(part_id)
            return
    # Another thread or process of this worker values a part: back on the queue, for this
    # worker later or another one now.
    raise self.retry(countdown=BUSY_RETRY_SECONDS)


def _value_part(part_id: int) -> None:
    try:
        services.review_part(part_id=part_id)
    except Exception:
        logger.exception("review part %s failed", part_id)
        review_id = (
            GameReviewPart.objects.filter(pk=part_id).values_list("review_id", flat=True).first()
        )
        if review_id is not None:
            services.review_fail(review_id=review_id)
