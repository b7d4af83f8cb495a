"""The lobby socket (/ws/lobby/) on the game socket's plumbing: sign-in and outages.

The queue over this socket is tested in test_matchmaking.py, the challenge list in
test_challenges.py; a channel-layer outage while connecting, for both sockets, in
tests/games/test_consumers.py.
"""

from __future__ import annotations

import pytest

from games import consumers
from tests.games.test_consumers import database_down
from tests.games.wsclient import WsClient

pytestmark = pytest.mark.django_db(transaction=True)


async def test_anonymous_is_told_to_sign_in():
    assert await WsClient("/ws/lobby/").close_code() == consumers.CLOSE_UNAUTHENTICATED


async def test_the_lobby_answers_unavailable_during_a_database_outage(alice):
    lobby = WsClient("/ws/lobby/", user=alice)
    assert (await lobby.connect())[0]
    await lobby.until(lambda m: m["type"] == "challenges")
    with database_down():
        await lobby.send({"type": "queue", "do": "status", "id": 7})
        reply = await lobby.until(lambda m: m["type"] == "error")
        assert (reply["code"], reply["id"]) == ("unavailable", 7)
    await lobby.send({"type": "queue", "do": "status"})
    assert (await lobby.until(lambda m: m["type"] != "challenges"))["type"] == "queue"
    await lobby.close()
