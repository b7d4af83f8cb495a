"""The Daphne entry point's WebSocket protocol (infra/server.py)."""

from __future__ import annotations

import pytest
from autobahn.exception import Disconnected
from daphne.ws_protocol import WebSocketProtocol

from infra.server import CleanCloseServer, GoneSafeWebSocketProtocol


def closed(protocol_class: type[WebSocketProtocol]) -> WebSocketProtocol:
    """A protocol whose browser has closed the connection (autobahn's state after it)."""
    protocol = protocol_class()
    protocol.client_addr = ["127.0.0.1", 50000]
    protocol.state = protocol.STATE_CLOSED
    return protocol


def test_daphne_raises_into_the_consumer_on_a_send_after_the_browser_closed() -> None:
    with pytest.raises(Disconnected):
        closed(WebSocketProtocol).serverSend("{}", False)


def test_a_send_after_the_browser_closed_is_dropped() -> None:
    sent: list[bytes] = []
    protocol = closed(GoneSafeWebSocketProtocol)
    protocol.sendMessage = lambda payload, binary: sent.append(payload)  # type: ignore[method-assign]

    protocol.serverSend("{}", False)

    assert sent == []


def test_a_send_on_an_open_socket_is_sent() -> None:
    sent: list[bytes] = []
    protocol = GoneSafeWebSocketProtocol()
    protocol.client_addr = ["127.0.0.1", 50000]
    protocol.state = protocol.STATE_OPEN
    protocol.sendMessage = lambda payload, binary: sent.append(payload)  # type: ignore[method-assign]

    protocol.serverSend('{"type": "state"}', False)

    assert sent == [b'{"type": "state"}']


def test_the_server_builds_its_sockets_with_that_protocol() -> None:
    server = CleanCloseServer(application=None, endpoints=["tcp:port=0:interface=127.0.0.1"])
    factory = type("Factory", (), {"setProtocolOptions": lambda self, **options: None})()

    server.ws_factory = factory

    assert factory.protocol is GoneSafeWebSocketProtocol
