"""No ghost players on a real Daphne: a socket closed while a broadcast is on its way to it
is gone for everyone else, every time."""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

import pytest
import websockets
from django.conf import settings

from tests.games.factories import make_game
from tests.games.wsclient import session_cookie
from tests.live import live_platform

pytestmark = [pytest.mark.live, pytest.mark.django_db(transaction=True)]

RACES = 200


async def frames_until(socket: Any, predicate: Any, timeout: float = 5.0) -> dict[str, Any]:
    end = time.monotonic() + timeout
    while True:
        message = json.loads(await asyncio.wait_for(socket.recv(), end - time.monotonic()))
        if predicate(message):
            return message


async def open_socket(base: str, game_id: int, cookie: str) -> Any:
    socket = await websockets.connect(
        f"{base}/ws/games/{game_id}/",
        origin=websockets.Origin("http://127.0.0.1"),
        additional_headers={"Cookie": f"{settings.SESSION_COOKIE_NAME}={cookie}"},
    )
    await frames_until(socket, lambda m: m["type"] == "state")
    return socket


def test_a_close_racing_a_broadcast_leaves_no_presence(alice, bob):
    cookies = session_cookie(alice), session_cookie(bob)
    games = [make_game(alice, bob).pk for _ in range(RACES)]
    with live_platform(web=1, worker=False) as platform:

        async def race(game_id: int) -> None:
            stays = await open_socket(platform.ws_url(), game_id, cookies[1])
            leaves = await open_socket(platform.ws_url(), game_id, cookies[0])
            await frames_until(
                stays, lambda m: m["type"] == "presence" and m["connected"] == [True, True]
            )
            # Both press Start at once; alice's socket closes the moment its ack arrives,
            # while bob's Start is being broadcast to it.
            start = {"type": "action", "action": {"do": "start"}}
            await leaves.send(json.dumps({**start, "id": "a"}))
            await stays.send(json.dumps({**start, "id": "b"}))
            await frames_until(leaves, lambda m: m.get("id") == "a")
            await leaves.close()
            await frames_until(
                stays, lambda m: m["type"] == "presence" and m["connected"] == [False, True]
            )
            await stays.close()

        async def all_races() -> list[int]:
            ghosts = []
            for game_id in games:
                try:
                    await race(game_id)
                except TimeoutError:
                    ghosts.append(game_id)
            return ghosts

        ghosts = asyncio.run(all_races())
        assert ghosts == [], platform.logs()[-4000:]
