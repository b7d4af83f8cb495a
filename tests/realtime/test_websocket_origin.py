from __future__ import annotations

import pytest
from channels.testing import WebsocketCommunicator

from config.asgi import application


@pytest.mark.parametrize("origin", [b"http://evil.example", b"https://127.0.0.1.evil.example"])
async def test_websocket_from_a_foreign_origin_is_closed_as_forbidden(origin):
    """Accepted only to be closed with 4403 at once: the page learns not to retry."""
    communicator = WebsocketCommunicator(application, "/ws/lobby/", headers=[(b"origin", origin)])
    connected, _ = await communicator.connect()
    assert connected is True
    assert await communicator.receive_output() == {"type": "websocket.close", "code": 4403}
    await communicator.disconnect()
