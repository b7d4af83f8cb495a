"""Built once, sent to many: a change of the lobby is read and rendered where it happens,
and the sockets that show it read nothing; each keeps only what its user may see, and
drops a list older than one it has sent."""

from __future__ import annotations

import time
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer

from games import services
from games.live import user_part as games_part
from lobby import broadcast, challenges
from lobby import user_part as lobby_part
from lobby.groups import LIVE_GROUP
from tests.games.factories import make_game
from tests.games.wsclient import WsClient

pytestmark = pytest.mark.django_db(transaction=True)


async def opened(path: str, user: Any) -> WsClient:
    socket = WsClient(path, user=user)
    assert (await socket.connect())[0]
    await socket.until(lambda m: m["type"] == "invitations")  # the last of the first news
    return socket


def count_reads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every read a socket part makes from now on (they all go through `in_pool`)."""
    reads: list[str] = []
    for module in (lobby_part, games_part):
        real = module.in_pool

        def counted(func: Any, real: Any = real) -> Any:
            reads.append(getattr(func, "__name__", repr(func)))
            return real(func)

        monkeypatch.setattr(module, "in_pool", counted)
    return reads


async def test_pushes_of_the_lobby_cost_no_read_per_socket(
    alice, bob, carol, user_factory, monkeypatch
):
    dave = await database_sync_to_async(user_factory)("dave")
    pages = {
        user.username: await opened("/ws/user/?challenges=1&live=1", user)
        for user in (alice, bob, carol, dave)
    }
    reads = count_reads(monkeypatch)
    # A challenge Alice addresses to Bob, and one open to anyone from Carol.
    made = await database_sync_to_async(challenges.challenge_create)(
        challenger=alice, opponent_username="bob"
    )
    await database_sync_to_async(challenges.challenge_create)(challenger=carol)

    def both(m: dict[str, Any]) -> bool:
        return m["type"] == "challenges" and len(m["challenges"]) == 2

    for name in ("alice", "bob"):
        listed = await pages[name].until(both)
        mine = {c["id"]: (c["mine"], c["to_me"]) for c in listed["challenges"]}
        assert mine[made.pk] == ((True, False) if name == "alice" else (False, True))
    # Dave sees the open challenge only: Alice's to Bob is theirs.
    seen = await pages["dave"].until(lambda m: m["type"] == "challenges" and m["challenges"])
    assert [c["challenger"] for c in seen["challenges"]] == ["carol"]
    told = [f for f in pages["bob"].frames if f["type"] == "invitations" and f["challenges"]]
    assert [c["id"] for c in told[-1]["challenges"]] == [made.pk]
    # A new game reaches every live list; only its players' say it is theirs.
    game = await database_sync_to_async(make_game)(carol, dave)
    for name, page in pages.items():
        listed = await page.until(lambda m: m["type"] == "live_games" and m["games"])
        assert [(g["id"], g["mine"]) for g in listed["games"]] == [
            (game.pk, name in ("carol", "dave"))
        ]
    await database_sync_to_async(services.game_submit_action)(
        game_id=game.pk, user=dave, action={"do": "resign"}, request_id=None
    )
    for page in pages.values():
        await page.until(lambda m: m["type"] == "live_games" and not m["games"])
    assert reads == []  # no socket read the database for any of it
    for page in pages.values():
        await page.close()


async def test_a_list_older_than_one_sent_is_dropped(alice):
    page = await opened("/ws/user/?live=1", alice)
    layer = get_channel_layer()

    def live(stamp: int, rounds: int) -> dict[str, Any]:
        game = {
            "id": 1,
            "url": "/games/1/",
            "players": ["x", "y"],
            "ratings": None,
            "playing": True,
            "round": rounds,
            "balances": [150, 150],
            "same_device": False,
            "player_ids": [0, 0],
        }
        return {"type": "user.lobby.live", "stamp": stamp, "games": {"en": [game], "es": [game]}}

    now = time.time_ns()
    await layer.group_send(LIVE_GROUP, live(now, 2))
    assert (await page.until(lambda m: m["type"] == "live_games"))["games"][0]["round"] == 2
    await layer.group_send(LIVE_GROUP, live(now - 1, 1))  # read before the one above
    await layer.group_send(LIVE_GROUP, live(now + 1, 3))
    later = await page.until(lambda m: m["type"] == "live_games" and m["games"][0]["round"] != 2)
    assert later["games"][0]["round"] == 3
    assert [f["games"][0]["round"] for f in page.frames if f["type"] == "live_games"] == [2, 3]
    await page.close()


def test_a_list_nobody_watches_is_not_read(alice, bob, monkeypatch):
    reads: list[int] = []
    real = broadcast.live_games_shared

    def counted() -> Any:
        reads.append(1)
        return real()

    monkeypatch.setattr(broadcast, "live_games_shared", counted)
    game = make_game(alice, bob)  # nobody shows the live list
    assert reads == []
    layer = get_channel_layer()
    channel = async_to_sync(layer.new_channel)()
    async_to_sync(layer.group_add)(LIVE_GROUP, channel)
    services.game_submit_action(game_id=game.pk, user=bob, action={"do": "resign"}, request_id=None)
    assert reads == [1]
    told = async_to_sync(layer.receive)(channel)
    assert told["type"] == "user.lobby.live" and told["games"]["en"] == []
