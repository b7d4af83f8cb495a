from __future__ import annotations

import pytest
from channels.testing import WebsocketCommunicator

from config.asgi import application


@pytest.mark.parametrize("origin", [b"http://evil.example", b"https://127.0.0.1.evil.example"])
async def test_websocket_handshake_from_a_foreign_origin_is_refused(origin):
    communicator = WebsocketCommunicator(application, "/ws/lobby/", headers=[(b"origin", origin)])
    connected, _ = await communicator.connect()
    assert connected is False
    await communicator.disconnect()
