"""Live: a real Celery worker and real Daphne processes (tests/live.py) on the test database.

1. A flag with nobody connected ends the game in the database at the deadline, through the
   worker's clock keeper (no beat needed); a connected client is told of that very change —
   by the worker's broadcast over Redis, or, with the in-memory layer, by its tick. What is
   asserted is the engine's time in the log, never the wall clock.
2. Scale-out: two Daphne processes share the Redis channel layer; one player on each plays a
   whole game.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterator
from typing import Any

import pytest
from django.conf import settings

from games import engine
from games.models import Game
from tests.games.factories import choose, make_game, seeded_deals, started_in_the_past
from tests.games.wsclient import session_cookie
from tests.live import LiveClient, LivePlatform, live_platform, wait_for

pytestmark = [pytest.mark.live, pytest.mark.django_db(transaction=True)]


@pytest.fixture(scope="module")
def platform(django_db_setup: None, django_db_blocker: Any) -> Iterator[LivePlatform]:
    """A worker (without beat) and Daphne for both tests: a second Daphne for the scale-out."""
    with live_platform(web=2 if settings.REDIS_URL else 1, worker=True, beat=False) as platform:
        yield platform


def test_flag_with_nobody_connected_is_settled_by_the_worker(platform, alice, bob, carol):
    # Seat 1 is to act after the automatic lead; its 10 s delay + 1 s bank end in ~2 s.
    lonely = started_in_the_past(alice, bob, 9.0, banks=(1, 1))
    watched = started_in_the_past(carol, bob, 9.0, banks=(1, 1))
    deadline = engine.deadline(engine.from_json(lonely.state))
    watched_deadline = engine.deadline(engine.from_json(watched.state))
    assert deadline is not None and watched_deadline is not None
    assert lonely.status == watched.status == Game.Status.PLAYING  # nobody settled them yet
    cookie = session_cookie(carol)

    async def watch() -> dict[str, Any]:
        client = await LiveClient.open(platform.ws_url(), watched.pk, cookie)
        assert client.state["game"]["status"] == "playing"
        if not settings.REDIS_URL:
            # In-memory layer: the worker cannot push; the client's clock reached zero.
            await asyncio.sleep(max(0.0, watched_deadline - time.time()) + 0.05)
            await client.socket.send(json.dumps({"type": "tick"}))
        final = await client.until(
            lambda m: m["type"] == "state" and m["game"]["status"] == "finished",
            timeout=max(0.0, watched_deadline - time.time()) + 5,
        )
        await client.socket.close()
        return final

    final = asyncio.run(watch())
    assert final["game"]["reason"] == "time" and final["game"]["winner"] == 0
    # The client was told of the flag itself: the version it made, settled at the deadline.
    settling = watched.actions.order_by("-seq").first()
    assert settling.seat is None and settling.version == final["version"], platform.logs()
    assert [(e["type"], e.get("t")) for e in settling.events] == [
        ("flag", watched_deadline),
        ("game_over", watched_deadline),
    ]
    assert settling.t >= watched_deadline  # settled at the deadline or after, never before
    if settings.REDIS_URL:  # pushed by the worker: the message carries the flag's own events
        assert [e["type"] for e in final["events"]] == ["flag", "game_over"], final

    def settled() -> bool:
        lonely.refresh_from_db()
        return lonely.status == Game.Status.FINISHED

    assert wait_for(settled, max(0.0, deadline - time.time()) + 5), platform.logs()
    assert (lonely.reason, lonely.winner_seat) == ("time", 0)
    flag = lonely.actions.order_by("-seq").first()
    assert flag.seat is None and [e["type"] for e in flag.events] == ["flag", "game_over"]
    # The worker's clock keeper settled it: the flag fell at the deadline in engine time, and
    # the keeper's write came at it or after, never before.
    assert flag.events[0]["t"] == deadline, platform.logs()
    assert flag.t >= deadline, platform.logs()


@pytest.mark.skipif(not settings.REDIS_URL, reason="scale-out needs the Redis channel layer")
def test_scale_out_two_daphne_processes_one_game(platform, alice, bob):
    game = make_game(alice, bob, deals=seeded_deals(1), balances=(30, 30))
    cookies = (session_cookie(alice), session_cookie(bob))

    async def play() -> dict[str, Any]:
        c0 = await LiveClient.open(platform.ws_url(0), game.pk, cookies[0])
        c1 = await LiveClient.open(platform.ws_url(1), game.pk, cookies[1])
        for _ in range(1000):
            view = c0.state["game"]
            if view["status"] not in ("waiting", "playing"):
                break
            for client in (c0, c1):
                action = choose(client.state["game"]["legal"])
                if action is not None:
                    break
            reply = await client.act(action)
            assert reply["type"] == "ack", (action, reply)
            # The other player's process learns of it through Redis only.
            await c0.until_version(reply["version"])
            await c1.until_version(reply["version"])
        assert c1.state["version"] == c0.state["version"]
        for client in (c0, c1):
            await client.socket.close()
        return c1.state["game"]

    final = asyncio.run(play())
    game.refresh_from_db()
    assert (game.status, game.reason) == ("finished", "points")
    assert final["status"] == "finished" and final["winner"] == game.winner_seat
    assert game.actions.filter(error="").count() > 20
