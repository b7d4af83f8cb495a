"""Live: a flood of reviews never delays a clock, a flag or a computer's move (docs/review.md).

The reviews of several finished games are queued at once, on the worker that also keeps
the clocks and plays the computer (make run's, with its Procfile's pool and with prefork),
then also beside a review worker of its own (compose's). While their parts are valued, a
game whose clock runs out is flagged at its deadline and a game against the computer is
played to its end without the computer's bank running. The flood is then called off, that
game's review runs, and its player's and a spectator's sockets hear the progress, then the
link to the review.

Asserted by order, not by time: the flood had valued a part before those two games began,
and still had parts to value once both had ended (read from the rows).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.db import connection
from django.test import Client
from django.urls import reverse

from games import engine
from games.computer.moves import computer_game_create
from games.models import Game, GameAction, GameReview, GameReviewPart, ServiceFault
from games.review import services
from tests.games.factories import drive, make_game, seeded_deals, started_in_the_past
from tests.games.wsclient import session_cookie
from tests.live import LiveClient, live_platform, procfile_pool, wait_for
from tests.system.test_live_computer import play_to_the_end
from tests.system.test_review_live import REVIEW, assert_heard_the_review, hear_the_review

pytestmark = [
    pytest.mark.live,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        connection.vendor != "postgresql" or not settings.REDIS_URL,
        reason="a flood of writers and the workers' pushes: PostgreSQL and Redis",
    ),
]

# Parts of few decisions, each valued on many deals: the flood would last minutes, and a
# worker whose processes all valued parts would keep the computer waiting past its delay.
FLOOD = {**REVIEW, "REVIEW_SAMPLES": "400"}
FLOOD_SEEDS = (60, 61, 62)


def finished_games(player0: AbstractBaseUser, player1: AbstractBaseUser) -> list[Game]:
    """Rated games played to their end: each one's review is queued as it finishes."""
    over = ("waiting", "playing")
    return [
        drive(
            make_game(player0, player1, deals=seeded_deals(seed), balances=(40, 40)).pk,
            (player0, player1),
            lambda view: view["status"] not in over,
        )
        for seed in FLOOD_SEEDS
    ]


def parts_left(games: list[Game]) -> tuple[int, int]:
    """How many parts of these games' reviews are valued, and how many are not yet."""
    parts = GameReviewPart.objects.filter(review__game__in=games)
    return parts.filter(done_at__isnull=False).count(), parts.filter(done_at__isnull=True).count()


async def play_while_the_flood_runs(
    base: str, game_id: int, cookies: tuple[str, str], then: Callable[[], None]
) -> tuple[dict[str, Any], list[list[dict[str, Any]]]]:
    """The person plays the game to its end while a spectator watches; `then` runs (in a
    thread: it reads the rows); both sockets then hear the review until it has ended."""
    person, spectator = [await LiveClient.open(base, game_id, cookie) for cookie in cookies]
    try:
        watching = asyncio.ensure_future(hear_the_review(spectator))
        final = await play_to_the_end(person)
        await asyncio.to_thread(then)
        return final, [await hear_the_review(person), await watching]
    finally:
        for client in (person, spectator):
            await client.socket.close()


# make run's worker (both queues, the Procfile's pool); the same with CELERY_POOL=prefork,
# whose processes share the one part at a time; make run's worker and compose's review one.
WORKERS = {
    "make-run": {"pool": procfile_pool()},
    "make-run-prefork": {"pool": ["--pool", "prefork", "--concurrency", "2"]},
    "compose": {"pool": procfile_pool(), "review_worker": True},
}


@pytest.mark.parametrize("workers", WORKERS.values(), ids=WORKERS.keys())
def test_a_flood_of_reviews_delays_no_flag_and_no_computer_move(
    workers: dict[str, Any], user_factory: Callable[..., AbstractBaseUser]
) -> None:
    alice, bob, carol, dave, person, watcher = (
        user_factory(name) for name in ("alice", "bob", "carol", "dave", "person", "watcher")
    )
    flood = finished_games(alice, bob)
    cookies = (session_cookie(person), session_cookie(watcher))
    seen: dict[str, Any] = {}
    with live_platform(web=1, beat=True, env=FLOOD, **workers) as platform:
        # The flood is under way before either game begins.
        assert wait_for(lambda: parts_left(flood)[0] > 0, 120), platform.logs()
        flagged = started_in_the_past(carol, dave, 9.0, banks=(1, 1))
        deadline = engine.deadline(engine.from_json(flagged.state))
        game = computer_game_create(
            user=person, strength="medium", seat=0, deals=seeded_deals(44), balances=(40, 40)
        )
        banks = list(game.state["banks"])

        def check_then_call_the_flood_off() -> None:
            seen["flagged"] = wait_for(
                lambda: Game.objects.get(pk=flagged.pk).status == Game.Status.FINISHED, 60
            )
            seen["flood"] = parts_left(flood)
            seen["running"] = GameReview.objects.filter(
                game__in=flood, status=GameReview.Status.RUNNING
            ).count()
            for review in GameReview.objects.filter(game__in=flood):
                services.review_fail(review_id=review.pk)

        try:
            final, heard = asyncio.run(
                play_while_the_flood_runs(
                    platform.ws_url(), game.pk, cookies, check_then_call_the_flood_off
                )
            )
        except TimeoutError as error:
            raise AssertionError(platform.logs()) from error
        done = wait_for(
            lambda: GameReview.objects.filter(game=game, status=GameReview.Status.DONE).exists(),
            60,
        )
        logs = platform.logs()
    assert done, logs
    # Both games ended while the flood still had parts to value, in every review of it.
    assert seen["flagged"], logs
    assert seen["flood"][1] > 0 and seen["running"] == len(flood), (seen, logs)

    # The flag fell at the deadline its clock promised, whenever the worker wrote it.
    flagged.refresh_from_db()
    assert (flagged.status, flagged.reason) == (Game.Status.FINISHED, "time"), logs
    flag = flagged.actions.order_by("-seq").first()
    assert flag is not None and flag.seat is None and flag.t >= deadline
    times = {event["type"]: event["t"] for event in flag.events}
    assert times["flag"] == times["game_over"] == deadline, flag.events
    # Time was kept throughout: no stall of the clock keeper voided anything.
    assert not ServiceFault.objects.exists(), logs

    # The computer answered every turn inside its delay: its bank never ran.
    game.refresh_from_db()
    bot = 1 - game.seats_of(person.pk)[0]
    assert final["status"] == "finished" and (game.status, game.reason) == (
        Game.Status.FINISHED,
        "points",
    ), logs
    moves = GameAction.objects.filter(game=game, seat=bot, request_id__startswith="computer-")
    assert moves.filter(action__do__in=list(engine.DECISIONS)).count() >= 3
    assert not moves.exclude(error="").exists(), logs
    assert game.state["banks"][bot] == banks[bot], (banks, game.state["banks"])

    review = GameReview.objects.get(game=game)
    for messages in heard:
        assert_heard_the_review(messages, review, logs)
    page = Client().get(reverse("game-review", args=[game.pk]))
    assert page.status_code == 200 and b"review-data" in page.content
