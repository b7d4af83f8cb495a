"""The lobby socket speaks lobby.messages: every message of a lobby session, checked.

Players challenge each other (declined, then accepted), watch the games in progress,
queue on "Play now" from two tabs (joined, left, a tab closed, paired), ping, and live
through a database outage; every frame each lobby socket sent and took, and every
channel-layer event it handled, must be one kind of lobby.messages (with
realtime.messages'), and every kind it declares must be seen.
"""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from django.utils import timezone

from games import errors as game_errors
from lobby import challenges, messages
from lobby import errors as lobby_errors
from lobby.consumers import LobbyConsumer
from realtime import database_watch
from realtime import errors as realtime_errors
from tests.games.test_consumers import database_down
from tests.games.wsclient import WsClient
from tests.realtime.vocabulary import Wire, assert_vocabulary
from tournaments.models import Arena
from tournaments.services import arena_join, arena_start

pytestmark = pytest.mark.django_db(transaction=True)


async def opened(path: str, user) -> WsClient:
    socket = WsClient(path, user=user)
    assert (await socket.connect())[0]
    await socket.until(lambda m: m["type"] == "challenges")
    return socket


def is_service(database: bool):
    return lambda m: m["type"] == "service" and m["database"] is database


async def test_every_message_of_a_lobby_session_is_of_a_declared_kind(
    alice, bob, carol, user_factory, wire: Wire, monkeypatch
):
    monkeypatch.setattr(database_watch, "PROBE_SECONDS", 0.05)
    dave = await database_sync_to_async(user_factory)("dave")
    lobby_a = await opened("/ws/lobby/?live=1", alice)
    lobby_b = await opened("/ws/lobby/", bob)
    await lobby_a.send({"type": "ping"})
    await lobby_a.until(lambda m: m["type"] == "pong")

    # A challenge declined, then one accepted: both players are sent to the game.
    challenge = await database_sync_to_async(challenges.challenge_create)(
        challenger=alice, opponent_username="bob"
    )
    await lobby_b.until(lambda m: m["type"] == "challenges" and m["challenges"])
    await database_sync_to_async(challenges.challenge_decline)(challenge_id=challenge.pk, user=bob)
    await lobby_a.until(lambda m: m["type"] == "declined")
    challenge = await database_sync_to_async(challenges.challenge_create)(
        challenger=alice, opponent_username="bob"
    )
    await database_sync_to_async(challenges.challenge_accept)(challenge_id=challenge.pk, user=bob)
    for lobby in (lobby_a, lobby_b):
        await lobby.until(lambda m: m["type"] == "redirect")
    if not any(f["type"] == "live_games" and f["games"] for f in lobby_a.frames):  # any order
        await lobby_a.until(lambda m: m["type"] == "live_games" and m["games"])

    # "Play now" in two tabs: joined, a status, left, joined again, the joining tab closed.
    tab1 = await opened("/ws/lobby/", carol)
    tab2 = await opened("/ws/lobby/", carol)
    await tab1.send({"type": "queue", "do": "join", "id": "j1"})
    assert (await tab1.until(lambda m: m.get("id") == "j1"))["in_queue"]
    await tab2.until(lambda m: m.get("change") == "joined")
    await tab1.send({"type": "queue", "do": "status"})
    await tab1.until(lambda m: m["type"] == "queue" and "id" in m)
    await tab1.send({"type": "queue", "do": "leave", "id": 2})
    assert (await tab1.until(lambda m: m.get("id") == 2))["in_queue"] is False
    await tab2.until(lambda m: m.get("change") == "left")
    await tab1.send({"type": "queue", "do": "join", "id": 3})
    await tab1.until(lambda m: m.get("id") == 3)
    await tab1.close()
    await tab2.until(lambda m: m.get("change") == "closed")
    # Two players queued are paired: each is answered with the game and sent to it.
    lobby_d = await opened("/ws/lobby/", dave)
    await lobby_d.send({"type": "queue", "do": "join", "id": "d1"})
    await lobby_d.until(lambda m: m.get("id") == "d1")
    await tab2.send({"type": "queue", "do": "join", "id": "c1"})
    assert (await tab2.until(lambda m: m.get("id") == "c1"))["url"]
    for lobby in (tab2, lobby_d):
        await lobby.until(lambda m: m["type"] == "redirect")
    await lobby_d.send({"type": "queue", "do": "leave", "closing": True})
    await lobby_d.until(lambda m: m["type"] == "queue")

    # An arena alice joined starts: she is told on whatever page she is.
    arena = await database_sync_to_async(Arena.objects.create)(
        name="Hourly", starts_at=timezone.now()
    )
    await database_sync_to_async(arena_join)(user=alice, arena_id=arena.pk)
    await database_sync_to_async(arena_start)(arena_id=arena.pk)
    assert (await lobby_a.until(lambda m: m["type"] == "arena_started"))["arena"] == arena.pk

    with database_down():
        for lobby in (lobby_a, lobby_b):
            await lobby.until(is_service(False), timeout=10)
        await lobby_a.send({"type": "queue", "do": "status", "id": 7})
        assert (await lobby_a.until(lambda m: m.get("id") == 7))["code"] == "unavailable"
    for lobby in (lobby_a, lobby_b):
        await lobby.until(is_service(True), timeout=10)
    await lobby_a.until(lambda m: m["type"] == "live_games")  # the resync's
    for lobby in (lobby_a, lobby_b, tab2, lobby_d):
        await lobby.close()

    codes = {*lobby_errors.MESSAGES, *game_errors.MESSAGES, *realtime_errors.MESSAGES}
    assert_vocabulary(wire, LobbyConsumer, messages, error_code=codes.__contains__)
