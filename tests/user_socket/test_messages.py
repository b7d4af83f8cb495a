"""The user socket speaks user_socket.messages (its parts' vocabularies: games', lobby's and
the arenas'): every message of a session, checked.

Players challenge each other (declined, then accepted), watch the games in progress,
queue on "Play now" from two tabs (joined, left, a tab closed, paired), ping, and live
through a database outage; every frame each lobby socket sent and took, and every
channel-layer event it handled, must be one kind of the composed union, and every kind it
declares must be seen.
"""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from django.utils import timezone

from games import errors as game_errors
from games import services as game_services
from lobby import challenges
from lobby import errors as lobby_errors
from realtime import database_watch
from realtime import errors as realtime_errors
from tests.games.test_consumers import database_down
from tests.games.wsclient import WsClient
from tests.realtime.vocabulary import Wire, assert_vocabulary
from tournaments.models import Arena
from tournaments.services import arena_join, arena_start
from user_socket import messages
from user_socket.consumer import UserConsumer

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
    lobby_a = await opened("/ws/user/?challenges=1&live=1", alice)
    lobby_b = await opened("/ws/lobby/?challenges=1", bob)
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
    # Each heard of the new game just before being sent to it ("your game" everywhere).
    news = [f for f in lobby_b.frames if f["type"] == "your_game" and f["game"]]
    game_id = news[-1]["game"]["id"]
    # The game changes turn (both press Start), then ends; Alice offers a rematch.
    for user in (alice, bob):
        await database_sync_to_async(game_services.game_submit_action)(
            game_id=game_id, user=user, action={"do": "start"}, request_id=None
        )
    await lobby_b.until(lambda m: m["type"] == "your_game" and m["game"]["status"] == "playing")
    await database_sync_to_async(game_services.game_submit_action)(
        game_id=game_id, user=bob, action={"do": "resign"}, request_id=None
    )
    await lobby_b.until(lambda m: m["type"] == "your_game" and m["game"] is None)
    await database_sync_to_async(game_services.game_rematch)(
        game_id=game_id, user=alice, answer="offer"
    )
    offer = await lobby_b.until(lambda m: m["type"] == "rematch_offer")
    assert offer["by"] == "alice" and offer["game"] == game_id
    if not any(f["type"] == "live_games" and f["games"] for f in lobby_a.frames):  # any order
        await lobby_a.until(lambda m: m["type"] == "live_games" and m["games"])

    # "Play now" in two tabs: joined, a status, left, joined again, the joining tab closed.
    tab1 = await opened("/ws/lobby/?challenges=1", carol)
    tab2 = await opened("/ws/lobby/?challenges=1", carol)
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
    lobby_d = await opened("/ws/lobby/?challenges=1", dave)
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
    assert_vocabulary(wire, UserConsumer, messages, error_code=codes.__contains__)
