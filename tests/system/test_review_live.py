"""Live: a game against the computer ends and its review runs on the review queue, through
a real Celery worker and a real Daphne (tests/live.py); the player's socket hears the
progress, then the review's end, and the review page shows it.

On PostgreSQL + Redis (DATABASE_URL, REDIS_URL) the worker pushes the progress to the
socket; with the in-memory layer it cannot, so the test then reads the review's row.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from games.computer.moves import computer_game_create
from games.models import Game, GameReview
from tests.games.factories import seeded_deals
from tests.games.wsclient import session_cookie
from tests.live import LiveClient, live_platform, wait_for
from tests.system.test_live_computer import QUICK, play_to_the_end

pytestmark = [pytest.mark.live, pytest.mark.django_db(transaction=True)]

REVIEW = {**QUICK, "REVIEW_SAMPLES": "4", "REVIEW_PART_SIZE": "3"}


async def hear_the_review(client: LiveClient, timeout: float = 120) -> list[dict[str, Any]]:
    """The `review` messages an open socket hears until the review has ended (or nothing
    came for `timeout` seconds: what was heard is asserted, with the processes' logs)."""
    heard: list[dict[str, Any]] = []
    try:
        # Parts end on the worker's threads at once: pushes may cross.
        while not any(m["status"] != "running" for m in heard):
            heard.append(await client.until(lambda m: m["type"] == "review", timeout))
    except TimeoutError:
        pass
    return heard


def assert_heard_the_review(heard: list[dict[str, Any]], review: GameReview, logs: str) -> None:
    """The socket heard the review's progress, then its end, with the link to its page."""
    ends = [m for m in heard if m["status"] != "running"]
    assert [m["status"] for m in ends] == ["done"], (heard, logs)
    assert ends[0]["done"] == ends[0]["total"] == review.total
    assert ends[0]["url"] == reverse("game-review", args=[review.game_id])
    progress = [m["done"] for m in heard if m["status"] == "running"]
    assert progress and all(0 <= done < review.total for done in progress), heard


async def play_then_hear_the_review(
    base: str, game_id: int, cookie: str
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The person plays the tests' policy to the end on one socket, which then hears the
    `review` messages until the review is done."""
    client = await LiveClient.open(base, game_id, cookie)
    try:
        final = await play_to_the_end(client)
        # The in-memory layer cannot carry a worker's push.
        heard = await hear_the_review(client) if settings.REDIS_URL else []
    finally:
        await client.socket.close()
    return final, heard


def test_a_finished_computer_game_is_reviewed_on_the_review_queue(db: None) -> None:
    person = get_user_model().objects.create(username="reviewed")
    game = computer_game_create(
        user=person, strength="medium", seat=0, deals=seeded_deals(44), balances=(40, 40)
    )
    cookie = session_cookie(person)
    with live_platform(web=1, worker=True, env=REVIEW) as platform:
        try:
            final, heard = asyncio.run(
                play_then_hear_the_review(platform.ws_url(), game.pk, cookie)
            )
        except TimeoutError as error:
            raise AssertionError(platform.logs()[-6000:]) from error
        assert final["status"] == "finished"
        done = wait_for(
            lambda: GameReview.objects.filter(game=game, status=GameReview.Status.DONE).exists(),
            timeout=120,
        )
        logs = platform.logs()
    assert done, logs
    assert "games.review.part" in logs
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    review = GameReview.objects.get(game=game)
    assert review.seats == [0]  # only the person's decisions, not the computer's
    assert review.parts_total >= 2 and review.parts_done == review.parts_total
    assert review.done == review.total > 0
    if settings.REDIS_URL:
        assert_heard_the_review(heard, review, logs)
    page = Client().get(reverse("game-review", args=[game.pk]))
    assert page.status_code == 200 and b"review-data" in page.content
