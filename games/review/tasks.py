"""The review queue's tasks: each one a thin call into games.review.services.

Routed to the `review` queue by name (CELERY_TASK_ROUTES), so the workers that keep clocks
and play the computer's moves never wait behind a review.
"""

from __future__ import annotations

import logging
import threading
from typing import Any

from celery import shared_task

from games.errors import ServiceError
from games.models import GameReviewPart

from . import services

logger = logging.getLogger(__name__)

# One part valued at a time in a process: make run's one worker also plays the computer's
# moves on its other threads, and a flood of parts must never take them all.
_SLOT = threading.BoundedSemaphore(1)
BUSY_RETRY_SECONDS = 0.5


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
    if not _SLOT.acquire(blocking=False):
        # Another thread of this process values a part: back on the queue, for this
        # worker later or another one now.
        raise self.retry(countdown=BUSY_RETRY_SECONDS)
    try:
        services.review_part(part_id=part_id)
    except Exception:
        logger.exception("review part %s failed", part_id)
        review_id = (
            GameReviewPart.objects.filter(pk=part_id).values_list("review_id", flat=True).first()
        )
        if review_id is not None:
            services.review_fail(review_id=review_id)
    finally:
        _SLOT.release()
