"""The WebSocket limits as a browser meets them: real Daphne started as the Procfile does.

Close codes are what the pages act on (games/static/games/game/protocol.js): 4401/4403/
4404 stop the retries, 1009 says a message was too big. A refused handshake or a dropped
TCP connection would reach the page as a bare 1006.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from typing import Any

import pytest
import websockets
from django.conf import settings

from realtime.consumer import MAX_MESSAGE_CHARS
from tests.games.factories import make_game
from tests.games.wsclient import session_cookie
from tests.live import LivePlatform, live_platform

pytestmark = [pytest.mark.live, pytest.mark.django_db(transaction=True)]

ONE_MIB = 1024 * 1024


@pytest.fixture(scope="module")
def web(django_db_setup: None, django_db_blocker: Any) -> Iterator[LivePlatform]:
    with live_platform(worker=False) as platform:
        yield platform


async def open_socket(url: str, cookie: str | None = None, origin: str = "http://127.0.0.1"):
    headers = {"Cookie": f"{settings.SESSION_COOKIE_NAME}={cookie}"} if cookie else {}
    return await websockets.connect(
        url, origin=websockets.Origin(origin), additional_headers=headers, max_size=None
    )


async def close_code_of(socket: Any) -> int | None:
    with pytest.raises(websockets.ConnectionClosed) as closed:
        for _ in range(20):
            await asyncio.wait_for(socket.recv(), 10)
    return closed.value.rcvd.code if closed.value.rcvd else None


def test_an_oversized_message_is_closed_with_1009(web, alice, bob):
    game = make_game(alice, bob)
    cookie = session_cookie(alice)

    async def run() -> None:
        socket = await open_socket(f"{web.ws_url()}/ws/games/{game.pk}/", cookie)
        # Under the transport's limit but over ours: an error, and the socket stays usable.
        await socket.send(json.dumps({"type": "ping", "pad": "x" * MAX_MESSAGE_CHARS}))
        reply = json.loads(await socket.recv())
        while reply["type"] != "error":  # presence and state pushes may come first
            reply = json.loads(await socket.recv())
        assert reply["code"] == "bad_request"
        await socket.send(json.dumps({"type": "ping", "id": 1, "pad": "x" * ONE_MIB}))
        assert await close_code_of(socket) == 1009

    asyncio.run(run())


@pytest.mark.parametrize(
    ("where", "signed_in", "origin", "code"),
    [
        ("/ws/games/{game}/", False, "http://127.0.0.1", 4401),
        ("/ws/lobby/", False, "http://127.0.0.1", 4401),
        ("/ws/games/987654/", True, "http://127.0.0.1", 4404),
        ("/ws/lobby/", True, "http://evil.example", 4403),
    ],
)
def test_a_refused_socket_is_closed_with_a_code_the_page_understands(
    web, alice, bob, where, signed_in, origin, code
):
    game = make_game(alice, bob)
    cookie = session_cookie(alice) if signed_in else None

    async def run() -> int | None:
        url = web.ws_url() + where.format(game=game.pk)
        return await close_code_of(await open_socket(url, cookie, origin))

    assert asyncio.run(run()) == code
