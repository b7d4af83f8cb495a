"""No ghost players: whatever ends a game socket removes its presence, and entries expire."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest
from channels.db import database_sync_to_async

from games.live import presence
from games.live.consumer import GameConsumer
from tests.games.factories import make_game
from tests.games.test_consumers import connected

pytestmark = pytest.mark.django_db(transaction=True)


async def test_a_send_to_a_client_that_left_still_ends_its_socket(alice, bob, monkeypatch):
    """The client closed while a broadcast was on its way: the send raises, and Channels
    leaves the consumer without its disconnect step unless the consumer runs it itself."""
    monkeypatch.setattr(presence, "REFRESH_SECONDS", 0.05)  # a ghost would refresh at once
    game = await database_sync_to_async(make_game)(alice, bob)
    gone = await connected(game, alice)
    other = await connected(game, bob)
    real_send = GameConsumer.send

    async def send(self: GameConsumer, *args: Any, **kwargs: Any) -> None:
        if self.scope["user"].pk == alice.pk:
            raise RuntimeError("Attempt to send on a closed protocol")
        await real_send(self, *args, **kwargs)

    monkeypatch.setattr(GameConsumer, "send", send)
    assert (await other.act({"do": "start"}))["type"] == "ack"
    await other.until(lambda m: m["type"] == "presence" and m["connected"] == [False, True])
    await asyncio.sleep(0.3)  # several refresh periods
    assert presence.presence_listening(game.pk) == [False, True, False]
    await other.close()
    del gone


def test_an_entry_nobody_refreshes_expires(alice, bob):
    game = make_game(alice, bob)
    assert presence.presence_join(game.pk, [0], "socket-a") is True
    assert presence.presence_listening(game.pk) == [True, False, False]
    later = time.time() + presence.TTL_SECONDS + 1
    assert presence._store().listening(game.pk, later) == [False, False, False]
    assert game.pk in presence.presence_expire(now=later)
    assert presence.presence_listening(game.pk) == [False, False, False]
