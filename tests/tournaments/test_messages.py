"""The arena socket speaks tournaments.messages: every message of an arena session, checked.

Two players watch an arena's page while it starts, pairs them and counts a game; one pings
until the rate limit answers, and both live through a database outage.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from django.conf import settings
from django.utils import timezone

from games import errors as game_errors
from games import services as game_services
from realtime import database_watch
from realtime import errors as realtime_errors
from tests.games.test_consumers import database_down
from tests.games.wsclient import WsClient
from tests.realtime.vocabulary import Wire, assert_vocabulary
from tournaments import errors as arena_errors
from tournaments import messages
from tournaments.broadcast import standings_push_due
from tournaments.consumers import ArenaConsumer
from tournaments.models import Arena
from tournaments.services import arena_join, arena_start, arena_wave

pytestmark = pytest.mark.django_db(transaction=True)


async def pushed(seconds_later: float) -> None:
    """What the arenas' tick does each second: push standings held back by the 1 s limit."""
    later = timezone.now() + timedelta(seconds=seconds_later)
    await database_sync_to_async(standings_push_due)(now=later)


def is_service(database: bool):
    return lambda m: m["type"] == "service" and m["database"] is database


def standings_with(check):
    return lambda m: m["type"] == "standings" and check(m)


async def test_every_message_of_an_arena_session_is_of_a_declared_kind(
    alice, bob, wire: Wire, monkeypatch
):
    monkeypatch.setattr(settings, "ARENA_MIN_DECISIONS", 0)  # a resignation at once counts
    monkeypatch.setattr(database_watch, "PROBE_SECONDS", 0.05)
    arena = await database_sync_to_async(Arena.objects.create)(
        name="Evening", starts_at=timezone.now()
    )
    pages = []
    for user in (alice, bob):
        page = WsClient(f"/ws/arenas/{arena.pk}/", user=user)
        assert (await page.connect())[0]
        first = await page.until(lambda m: m["type"] == "standings")
        assert first["status"] == "scheduled" and first["rows"] == []
        pages.append(page)
    for user in (alice, bob):
        await database_sync_to_async(arena_join)(user=user, arena_id=arena.pk)
    await database_sync_to_async(arena_start)(arena_id=arena.pk)
    [game] = await database_sync_to_async(arena_wave)(arena_id=arena.pk)
    await pushed(2)
    playing = await pages[0].until(
        standings_with(lambda m: any(row["game"] == game.pk for row in m["rows"])), timeout=5
    )
    assert playing["status"] == "running" and playing["playing"] == 1
    await database_sync_to_async(game_services.game_submit_action)(
        game_id=game.pk, user=bob, action={"do": "resign"}, request_id="r"
    )
    await pushed(4)
    scored = await pages[1].until(
        standings_with(lambda m: m["rows"] and m["rows"][0]["score"] == 2), timeout=5
    )
    assert scored["rows"][0]["user"] == "alice"

    await pages[0].send({"type": "ping"})
    await pages[0].until(lambda m: m["type"] == "pong")
    monkeypatch.setattr(settings, "WS_RATE_LIMIT_CONNECTION", 2)
    hasty = WsClient(f"/ws/arenas/{arena.pk}/", user=alice)
    assert (await hasty.connect())[0]
    for _ in range(3):
        await hasty.send({"type": "ping"})
    assert (await hasty.until(lambda m: m["type"] == "error"))["code"] == "rate_limited"
    await hasty.close()

    with database_down():
        for page in pages:
            await page.until(is_service(False), timeout=10)
    for page in pages:
        await page.until(is_service(True), timeout=10)
        await page.close()

    codes = {*arena_errors.MESSAGES, *game_errors.MESSAGES, *realtime_errors.MESSAGES}
    assert_vocabulary(wire, ArenaConsumer, messages, error_code=codes.__contains__)


async def test_an_unknown_arena_closes_with_4404(alice):
    assert await WsClient("/ws/arenas/999999/", user=alice).close_code() == 4404
