"""NUL on the way into a socket: its address, query or cookies close it with 4403 before the
session is read, and a message holding one is a `bad_request`. Generated from the socket
routes, so a new one is covered by itself."""

from __future__ import annotations

import re

import pytest
from channels.testing import WebsocketCommunicator

from config.asgi import application
from games.live.routing import websocket_urlpatterns as game_sockets
from realtime.consumer import CLOSE_FORBIDDEN, JsonSocketConsumer
from tournaments.routing import websocket_urlpatterns as arena_sockets
from user_socket.routing import websocket_urlpatterns as user_sockets

ORIGIN = (b"origin", b"http://127.0.0.1")
SOCKETS = game_sockets + user_sockets + arena_sockets
ROUTES = [str(pattern.pattern).lstrip("^").rstrip("$") for pattern in SOCKETS]


def _path(route: str) -> str:
    return "/" + re.sub(r"<(?:\w+:)?\w+>|\(\?P<\w+>[^)]*\)", "1", route)


@pytest.mark.parametrize("route", ROUTES)
@pytest.mark.parametrize(
    ("suffix", "headers"),
    [
        ("?next=a%00b", []),
        ("", [(b"cookie", b'sessionid="abcdefgh\\000ijklmnop"')]),
        ("", [(b"cookie", b"sessionid=abcdefgh%00ijklmnop")]),
        ("", [(b"x-anything", b"a\x00b")]),
    ],
    ids=["query", "quoted-cookie", "escaped-cookie", "header"],
)
async def test_nul_closes_the_socket_with_4403(route: str, suffix: str, headers: list) -> None:
    communicator = WebsocketCommunicator(application, _path(route) + suffix, [ORIGIN, *headers])
    connected, _ = await communicator.connect()
    assert connected is True
    closed = await communicator.receive_output()
    assert closed == {"type": "websocket.close", "code": CLOSE_FORBIDDEN}
    await communicator.disconnect()


def test_every_socket_route_is_generated() -> None:
    assert len(ROUTES) >= 3 and all(_path(r).startswith("/ws/") for r in ROUTES)


@pytest.mark.parametrize(
    "text", ['{"type": "challenge", "opponent": "a\\u0000b"}', '{"id": "a\\u0000", "type": "ping"}']
)
def test_a_message_holding_nul_is_a_bad_request(text: str) -> None:
    assert JsonSocketConsumer().parse(text, None) is None
    assert JsonSocketConsumer().parse(text.replace("\\u0000", "x"), None) is not None
