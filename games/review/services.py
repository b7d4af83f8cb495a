"""Game reviews stored and run: started when a game ends or on request, valued in parts by
workers of the `review` queue, put together by the part that finishes last.

Nothing here runs before a game is over: every entry checks the game's status, so no
review, progress or evaluation exists while a hidden tile could still matter.
"""

from __future__ import annotations

import logging
from typing import Any

from celery import current_app
from django.conf import settings
from django.db import transaction
from django.db.models import F
from django.utils import timezone

from games.errors import ServiceError
from games.live.audiences import game_audiences
from games.live.broadcast import message_text
from games.live.groups import game_group
from games.live.messages import ReviewMessage
from games.models import Game, GameReview, GameReviewPart, ReviewRequests
from games.replay.log import game_changes, game_initial_state
from realtime.events import send_now

from .grades import Thresholds
from .plan import Change, decision_steps, evaluate_steps, parts, summarize
from .table import shipped
from .version import review_version

logger = logging.getLogger(__name__)

TASK_START = "games.review.start"
TASK_PLAN = "games.review.plan"
TASK_PART = "games.review.part"
# A part's progress is pushed every this many decisions valued.
PROGRESS_EVERY = 10


def _send(name: str, **kwargs: Any) -> None:
    """Queue a review task on the review queue (tests run them in place instead)."""
    current_app.send_task(name, kwargs=kwargs, queue=settings.REVIEW_QUEUE)


def thresholds() -> Thresholds:
    return Thresholds(
        inaccuracy=settings.REVIEW_INACCURACY,
        mistake=settings.REVIEW_MISTAKE,
        blunder=settings.REVIEW_BLUNDER,
    )


def human_seats(game: Game) -> list[int]:
    return [seat for seat in (0, 1) if seat != game.bot_seat]


def _log(game: Game) -> tuple[Any, list[Change]]:
    changes = [Change(row.seat, row.action, row.t) for row in game_changes(game)]
    return game_initial_state(game), changes


def review_url(game_id: int) -> str:
    from django.urls import reverse

    return reverse("game-review", args=[game_id])


def review_message(review: GameReview) -> ReviewMessage:
    """What a game's sockets are told of its review (docs/protocol.md, `review`)."""
    return {
        "type": "review",
        "status": review.status,
        "done": review.done,
        "total": review.total,
        "url": review_url(review.game_id),
    }


def review_push(review: GameReview) -> None:
    """Tell every audience of the game how its review stands; a lost push costs a reload."""
    game = review.game
    event = {"type": "game.message", "text": message_text(review_message(review))}
    send_now(
        [(game_group(game.pk, audience), event) for audience in game_audiences(game)],
        "review progress of game %s",
        game.pk,
    )


def review_current(*, game_id: int) -> GameReview | None:
    """The game's review made with this version, if there is one."""
    return (
        GameReview.objects.select_related("game")
        .filter(game_id=game_id, version=review_version())
        .first()
    )


def review_start(*, game_id: int, requested_by_id: int | None = None) -> GameReview:
    """The game's current review, created (and its planning queued) if there is none.

    Raises ServiceError not_found, not_finished.
    """
    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        raise ServiceError("not_found")
    if game.status != Game.Status.FINISHED:
        raise ServiceError("not_finished")
    with transaction.atomic():
        review, created = GameReview.objects.get_or_create(
            game=game,
            version=review_version(),
            defaults={"requested_by_id": requested_by_id, "seats": human_seats(game)},
        )
        if not created and review.status == GameReview.Status.FAILED:
            review.parts.all().delete()
            GameReview.objects.filter(pk=review.pk).update(
                status=GameReview.Status.RUNNING, done=0, total=0, parts_done=0, parts_total=0
            )
            review.refresh_from_db()
            created = True
        if created:
            transaction.on_commit(lambda: _send(TASK_PLAN, review_id=review.pk))
    return review


def review_request(*, game_id: int, user_id: int) -> GameReview:
    """A player asks for a finished game's review: the existing one, or a new one counted
    against REVIEW_REQUESTS_PER_DAY (one conditional UPDATE, so no race passes the limit).

    Raises ServiceError not_found, not_finished, review_limit.
    """
    existing = review_current(game_id=game_id)
    if existing is not None and existing.status != GameReview.Status.FAILED:
        return existing
    game = Game.objects.filter(pk=game_id).only("status").first()
    if game is None:
        raise ServiceError("not_found")
    if game.status != Game.Status.FINISHED:
        raise ServiceError("not_finished")
    today = timezone.now().date()
    with transaction.atomic():
        ReviewRequests.objects.get_or_create(user_id=user_id, day=today)
        allowed = (
            ReviewRequests.objects.filter(
                user_id=user_id, day=today, count__lt=settings.REVIEW_REQUESTS_PER_DAY
            ).update(count=F("count") + 1)
            == 1
        )
        if not allowed:
            raise ServiceError("review_limit")
        return review_start(game_id=game_id, requested_by_id=user_id)


def review_automatic(game: Game) -> bool:
    """Whether a game is reviewed by itself when it ends: rated games and games against
    the computer (the others on request)."""
    return game.rated or game.against_computer


def review_plan(*, review_id: int) -> None:
    """Find the decisions to value, cut them into parts and queue one task per part."""
    review = GameReview.objects.select_related("game").get(pk=review_id)
    if review.parts_total or review.status != GameReview.Status.RUNNING:
        return
    initial, changes = _log(review.game)
    steps = decision_steps(initial, changes, review.seats)
    cut = parts(steps, max(1, settings.REVIEW_PART_SIZE))
    with transaction.atomic():
        review = GameReview.objects.select_for_update().select_related("game").get(pk=review_id)
        if review.parts_total:
            return
        created = GameReviewPart.objects.bulk_create(
            GameReviewPart(review=review, index=i, steps=part) for i, part in enumerate(cut)
        )
        review.total = len(steps)
        review.parts_total = len(cut)
        review.save(update_fields=["total", "parts_total"])
        if not cut:
            _finish(review)
        ids = [part.pk for part in created]
        transaction.on_commit(lambda: _queued(review, ids))


def _queued(review: GameReview, part_ids: list[int]) -> None:
    review_push(review)
    for part_id in part_ids:
        _send(TASK_PART, part_id=part_id)


def review_part(*, part_id: int) -> None:
    """Value one part's decisions; the part that completes the review puts it together."""
    part = GameReviewPart.objects.select_related("review__game").get(pk=part_id)
    review = part.review
    if part.done_at is not None or review.status != GameReview.Status.RUNNING:
        return
    initial, changes = _log(review.game)
    decisions: list[dict[str, Any]] = []
    counted = 0
    for decision in evaluate_steps(
        initial,
        changes,
        part.steps,
        shipped(),
        thresholds(),
        samples=settings.REVIEW_SAMPLES,
        seed=f"{review.game_id}/{review.version}",
    ):
        decisions.append(decision)
        if len(decisions) - counted >= PROGRESS_EVERY and len(decisions) < len(part.steps):
            GameReview.objects.filter(pk=review.pk).update(done=F("done") + PROGRESS_EVERY)
            counted += PROGRESS_EVERY
            review.refresh_from_db(fields=["done", "total", "status"])
            review_push(review)
    with transaction.atomic():
        if not GameReviewPart.objects.filter(pk=part.pk, done_at__isnull=True).update(
            decisions=decisions, done_at=timezone.now()
        ):
            return  # another worker did this part (a task delivered twice)
        GameReview.objects.filter(pk=review.pk).update(
            done=F("done") + len(decisions) - counted, parts_done=F("parts_done") + 1
        )
        review = GameReview.objects.select_for_update().select_related("game").get(pk=review.pk)
        if review.parts_done == review.parts_total:
            _finish(review)
        transaction.on_commit(lambda: review_push(review))


def _finish(review: GameReview) -> None:
    """Put the parts together into the review's result (under the review's row lock)."""
    decisions = [
        d
        for part in GameReviewPart.objects.filter(review=review).order_by("index")
        for d in part.decisions or []
    ]
    result = summarize(decisions, review.seats)
    result["thresholds"] = {
        "inaccuracy": settings.REVIEW_INACCURACY,
        "mistake": settings.REVIEW_MISTAKE,
        "blunder": settings.REVIEW_BLUNDER,
    }
    review.result = result
    by_seat = {p["seat"]: p["accuracy"] for p in result["players"]}
    review.accuracy0 = by_seat.get(0)
    review.accuracy1 = by_seat.get(1)
    review.status = GameReview.Status.DONE
    review.done = review.total
    review.finished_at = timezone.now()
    review.save()


def review_fail(*, review_id: int) -> None:
    """A part that could not be valued stops the review (asked for again, it starts anew)."""
    review = GameReview.objects.select_related("game").get(pk=review_id)
    GameReview.objects.filter(pk=review_id).update(status=GameReview.Status.FAILED)
    review.status = GameReview.Status.FAILED
    review_push(review)
