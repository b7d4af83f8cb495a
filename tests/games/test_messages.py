"""The game socket speaks games.live.messages: every message of a whole game, checked.

Two players and a spectator play a game through to its end over real sockets, with a
ping, a tick, a refused action, a database outage and a rematch on the way; every frame
each socket sent and took, and every channel-layer event it handled, must be one kind of
games.live.messages (with realtime.messages'), and every kind it declares must be seen.
"""

from __future__ import annotations

import json

import pytest
from channels.db import database_sync_to_async

from games import errors as game_errors
from games.live import messages
from games.live.consumer import GameConsumer
from games.review import services as review_services
from realtime import database_watch
from realtime import errors as realtime_errors
from tests.games.factories import make_game, seeded_deals
from tests.games.test_consumers import _play_to_the_end, connected, database_down, rematch_request
from tests.realtime.vocabulary import Wire, assert_vocabulary, kind_of

pytestmark = pytest.mark.django_db(transaction=True)


def is_service(database: bool):
    return lambda m: m["type"] == "service" and m["database"] is database


async def test_every_message_of_a_game_is_of_a_declared_kind(
    alice, bob, carol, wire: Wire, monkeypatch
):
    monkeypatch.setattr(database_watch, "PROBE_SECONDS", 0.05)
    game = await database_sync_to_async(make_game)(
        alice, bob, deals=seeded_deals(1), balances=(20, 20)
    )
    c0 = await connected(game, alice)  # a state with the log
    watcher = await connected(game, carol)
    c1 = await connected(game, bob)
    await c0.until(lambda m: m["type"] == "presence" and m["connected"] == [True, True])
    # The spectator is counted in the presence every socket is told.
    assert (await watcher.until(lambda m: m["type"] == "presence"))["watching"] == 1
    await c0.send({"type": "ping"})
    await c0.until(lambda m: m["type"] == "pong")
    await c0.send({"type": "tick"})
    await c0.until(lambda m: m["type"] == "state")
    assert (await watcher.act({"do": "resign"}))["code"] == "forbidden"

    with database_down():
        for client in (c0, c1, watcher):
            await client.until(is_service(False), timeout=10)
        assert (await c0.act({"do": "start"}))["code"] == "unavailable"
    for client in (c0, c1, watcher):
        await client.until(is_service(True), timeout=10)

    await _play_to_the_end(game, c0, c1, watcher)
    assert c0.game["status"] == "finished"
    # The finished game's review: its progress reaches every socket of the game.
    review = await database_sync_to_async(review_services.review_start)(game_id=game.pk)
    await database_sync_to_async(review_services.review_push)(review)
    for client in (c0, c1, watcher):
        await client.until(lambda m: m["type"] == "review")
    assert (await rematch_request(c0, "offer"))["type"] == "ack"
    await c1.until(lambda m: m["type"] == "rematch")
    assert (await rematch_request(c1, "offer", "r2"))["game"]
    for client in (c0, watcher):
        await client.until(lambda m: m["type"] == "rematch" and m["game"])
    await c1.close()
    await c0.until(lambda m: m["type"] == "presence" and m["connected"] == [True, False])
    for client in (c0, watcher):
        await client.close()

    seen = assert_vocabulary(
        wire,
        GameConsumer,
        messages,
        error_code=lambda code: code in game_errors.MESSAGES or code in realtime_errors.MESSAGES,
    )
    assert seen["channel layer"] == {messages.GameEvent}
    # What the layer carries is a message of the socket's too (sent as is, or left out as
    # one sent already: checked here either way).
    _sent, _received, events = wire.of(GameConsumer)
    for event in events:
        kind_of(json.loads(event["text"]), messages.ServerMessage, "carried by the layer")
