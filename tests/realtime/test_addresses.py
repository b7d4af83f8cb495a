"""One client address for every limit: X-Forwarded-For believed only from TRUSTED_PROXIES."""

from __future__ import annotations

from typing import Any

import pytest
from channels.testing import WebsocketCommunicator
from django.test import RequestFactory

from config.asgi import application
from realtime.addresses import (
    UNKNOWN,
    axes_client_address,
    client_address_from,
    request_client_address,
    scope_client_address,
)
from realtime.consumer import CLOSE_TRY_AGAIN_LATER
from realtime.counters import windows_forget

PROXY = "10.0.0.5"
CLIENT = "203.0.113.7"
FORGED = "198.51.100.1"


def _scope(peer: str | None, *forwarded: str) -> dict[str, Any]:
    headers = [(b"host", b"testserver")]
    headers += [(b"x-forwarded-for", value.encode()) for value in forwarded]
    return {"type": "websocket", "client": [peer, 50000] if peer else None, "headers": headers}


def test_without_trusted_proxies_the_peer_is_the_client(settings: Any, rf: RequestFactory) -> None:
    settings.TRUSTED_PROXIES = []
    request = rf.get("/", REMOTE_ADDR=CLIENT, HTTP_X_FORWARDED_FOR=f"{FORGED}, 127.0.0.1")
    assert request_client_address(request) == CLIENT
    assert scope_client_address(_scope(CLIENT, f"{FORGED}, 127.0.0.1")) == CLIENT


def test_a_header_from_a_peer_that_is_not_a_trusted_proxy_changes_nothing(
    settings: Any, rf: RequestFactory
) -> None:
    settings.TRUSTED_PROXIES = [PROXY]
    request = rf.get("/", REMOTE_ADDR=CLIENT, HTTP_X_FORWARDED_FOR=FORGED)
    assert request_client_address(request) == CLIENT
    assert scope_client_address(_scope(CLIENT, FORGED)) == CLIENT


def test_behind_a_trusted_proxy_the_client_is_what_the_proxy_saw(
    settings: Any, rf: RequestFactory
) -> None:
    settings.TRUSTED_PROXIES = ["10.0.0.0/24"]
    request = rf.get("/", REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR=CLIENT)
    assert request_client_address(request) == CLIENT
    assert scope_client_address(_scope(PROXY, CLIENT)) == CLIENT


@pytest.mark.parametrize(
    "forwarded",
    [
        # A proxy that appends ($proxy_add_x_forwarded_for) keeps what the client forged on
        # the left; only the right end, which the proxy wrote, is read.
        f"{FORGED}, 127.0.0.1, {CLIENT}",
        f"{FORGED}, {PROXY}, {CLIENT}",
    ],
)
def test_what_the_client_forged_left_of_the_proxys_entry_is_never_read(
    settings: Any, forwarded: str
) -> None:
    settings.TRUSTED_PROXIES = [PROXY]
    assert client_address_from(PROXY, forwarded) == CLIENT
    assert scope_client_address(_scope(PROXY, *forwarded.split(", "))) == CLIENT


def test_a_chain_of_trusted_proxies_is_walked_from_the_right(settings: Any) -> None:
    settings.TRUSTED_PROXIES = [PROXY, "10.0.1.0/24"]
    assert client_address_from(PROXY, f"{FORGED}, {CLIENT}, 10.0.1.9") == CLIENT


def test_a_malformed_entry_stops_at_the_proxy(settings: Any) -> None:
    settings.TRUSTED_PROXIES = [PROXY]
    assert client_address_from(PROXY, "not-an-address") == PROXY
    assert client_address_from(PROXY, "") == PROXY


def test_ipv6_and_ipv4_mapped_peers(settings: Any) -> None:
    settings.TRUSTED_PROXIES = ["::1"]
    assert client_address_from("::ffff:203.0.113.7", FORGED) == CLIENT
    assert client_address_from("::1", "2001:db8::1") == "2001:db8::1"
    assert client_address_from("2001:db8::2", FORGED) == "2001:db8::2"


def test_no_peer_is_counted_as_unknown(settings: Any) -> None:
    settings.TRUSTED_PROXIES = []
    assert scope_client_address(_scope(None, FORGED)) == UNKNOWN


def test_axes_is_given_no_address_rather_than_a_word(rf: RequestFactory) -> None:
    request = rf.get("/")
    del request.META["REMOTE_ADDR"]
    assert request_client_address(request) == UNKNOWN
    assert axes_client_address(request) is None
    assert axes_client_address(rf.get("/", REMOTE_ADDR=CLIENT)) == CLIENT


@pytest.mark.parametrize("trusted", [False, True])
async def test_socket_connections_per_address_ignore_forged_headers(
    settings: Any, trusted: bool
) -> None:
    """WS_CONNECTS_PER_ADDRESS_PER_MINUTE counts the address realtime.addresses decides:
    rotating forged headers do not reset it, and behind a trusted proxy each client has its
    own count."""
    settings.WS_CONNECTS_PER_ADDRESS_PER_MINUTE = 3
    settings.TRUSTED_PROXIES = [PROXY] if trusted else []
    windows_forget()

    async def close_code(forwarded: str) -> int:
        headers = [(b"origin", b"http://127.0.0.1"), (b"x-forwarded-for", forwarded.encode())]
        communicator = WebsocketCommunicator(application, "/ws/lobby/", headers)
        communicator.scope["client"] = [PROXY if trusted else CLIENT, 40000]
        await communicator.connect()
        closed = await communicator.receive_output()
        await communicator.disconnect()
        return int(closed["code"])

    # Behind the proxy, the client's forged entry comes first and the proxy's last.
    forged = [f"198.51.100.{k}" + (f", {CLIENT}" if trusted else "") for k in range(5)]
    codes = [await close_code(header) for header in forged]
    # Anonymous sockets: 4401 once let through, 4503 (try again later) past the limit.
    assert codes == [4401, 4401, 4401, CLOSE_TRY_AGAIN_LATER, CLOSE_TRY_AGAIN_LATER]
    if trusted:  # another client behind the same proxy is counted on its own
        assert await close_code("198.51.100.9, 203.0.113.99") == 4401
