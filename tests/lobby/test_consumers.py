"""The lobby socket (/ws/lobby/) on the game socket's plumbing: sign-in and outages.

The queue over this socket is tested in test_matchmaking.py, the challenge list in
test_challenges.py; a channel-layer outage while connecting, for both sockets, in
tests/games/test_consumers.py.
"""

from __future__ import annotations

import pytest

from realtime import consumer as consumers
from tests.games.test_consumers import database_down
from tests.games.wsclient import WsClient

pytestmark = pytest.mark.django_db(transaction=True)


async def test_anonymous_is_told_to_sign_in():
    assert await WsClient("/ws/lobby/").close_code() == consumers.CLOSE_UNAUTHENTICATED


async def test_the_lobby_answers_unavailable_during_a_database_outage(alice):
    lobby = WsClient("/ws/lobby/?challenges=1", user=alice)
    assert (await lobby.connect())[0]
    await lobby.until(lambda m: m["type"] == "invitations")  # the last of the first news
    with database_down():
        await lobby.send({"type": "queue", "do": "status", "id": 7})
        reply = await lobby.until(lambda m: m["type"] == "error")
        assert (reply["code"], reply["id"]) == ("unavailable", 7)
    await lobby.send({"type": "queue", "do": "status"})
    # Whatever the database watch said meanwhile, the status is answered.
    reply = await lobby.until(lambda m: m["type"] not in ("challenges", "service"))
    assert reply["type"] == "queue"
    await lobby.close()


async def test_a_game_created_or_over_is_pushed_to_the_live_games_lists(alice, bob):
    """Games in progress are listed for anyone signed in; creation and the end both push."""
    from channels.db import database_sync_to_async

    from games import services
    from tests.games.factories import make_game

    watcher = WsClient("/ws/lobby/?challenges=1&live=1", user=alice)
    queue_page = WsClient("/ws/lobby/?challenges=1", user=bob)  # "Play now": it shows no such list
    for socket in (watcher, queue_page):
        assert (await socket.connect())[0]
        await socket.until(lambda m: m["type"] == "challenges")
    game = await database_sync_to_async(make_game)(alice, bob)
    pushed = await watcher.until(lambda m: m["type"] == "live_games")
    assert pushed["games"] == [
        {
            "id": game.pk,
            "url": f"/games/{game.pk}/",
            "players": ["alice", "bob"],
            "ratings": ["1500?", "1500?"],
            "playing": False,
            "round": 0,
            "balances": [150, 150],
            "same_device": False,
            "mine": True,
        }
    ]
    await database_sync_to_async(services.game_submit_action)(
        game_id=game.pk, user=bob, action={"do": "resign"}, request_id=None
    )
    over = await watcher.until(lambda m: m["type"] == "live_games" and not m["games"])
    assert over == {"type": "live_games", "games": []}
    await queue_page.drain()
    assert all(frame["type"] != "live_games" for frame in queue_page.frames)
    await watcher.close()
    await queue_page.close()


async def test_live_games_name_the_seats_as_their_game_pages_do(alice, bob):
    """A same-device game is listed with its two players' names, a game against the
    computer with the computer's name in the reader's language; neither with ratings."""
    from channels.db import database_sync_to_async

    from games import services
    from games.computer.moves import computer_game_create

    watcher = WsClient("/ws/lobby/?challenges=1&live=1", user=bob)
    watcher.language = "es"
    assert (await watcher.connect())[0]
    await watcher.until(lambda m: m["type"] == "challenges")
    await database_sync_to_async(services.same_device_game_create)(
        user=alice, names=("Marta", "Luis")
    )
    listed = await watcher.until(lambda m: m["type"] == "live_games" and m["games"])
    assert [(g["players"], g["ratings"]) for g in listed["games"]] == [(["Marta", "Luis"], None)]
    await database_sync_to_async(computer_game_create)(user=bob, strength="hard")
    listed = await watcher.until(lambda m: m["type"] == "live_games" and len(m["games"]) == 2)
    names = [g["players"] for g in listed["games"]]
    assert ["bob", "Ordenador (difícil)"] in names or ["Ordenador (difícil)", "bob"] in names
    assert all(g["ratings"] is None for g in listed["games"])
    await watcher.close()
