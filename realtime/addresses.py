"""The client's address, decided once for every limit that counts by address.

Sign-ups, django-axes' log-in lock-out (AXES_CLIENT_IP_CALLABLE) and anything else counted
per address ask here, for a page's request or a socket's scope alike. The address is the
peer of the connection (Daphne's `client`, which it takes from the TCP connection since
it runs without `--proxy-headers`), unless that peer is one of TRUSTED_PROXIES: then the
proxy's `X-Forwarded-For` is read from its right end, one entry per trusted hop, and the
first address that is not a trusted proxy is the client's. Whatever a client writes into
that header itself lies to the left of what a trusted proxy added, and is never reached
(docs/fair-play.md, "Addresses and limits").
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable, Mapping
from functools import lru_cache
from typing import Any

from django.conf import settings
from django.http import HttpRequest

Network = ipaddress.IPv4Network | ipaddress.IPv6Network
Address = ipaddress.IPv4Address | ipaddress.IPv6Address

# What a connection without a peer address (a Unix socket, a test's scope) is counted as.
UNKNOWN = "unknown"


@lru_cache(maxsize=8)
def _networks(entries: tuple[str, ...]) -> tuple[Network, ...]:
    return tuple(ipaddress.ip_network(entry.strip(), strict=False) for entry in entries)


def trusted_networks() -> tuple[Network, ...]:
    """TRUSTED_PROXIES as networks (an address alone is a network of one)."""
    return _networks(tuple(str(entry) for entry in settings.TRUSTED_PROXIES if str(entry).strip()))


def _parse(text: str) -> Address | None:
    try:
        address = ipaddress.ip_address(text.strip())
    except ValueError:
        return None
    # An IPv4 client reaching an IPv6 socket shows as ::ffff:a.b.c.d: one address, one count.
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return address.ipv4_mapped
    return address


def _trusted(address: Address, networks: Iterable[Network]) -> bool:
    return any(address.version == net.version and address in net for net in networks)


def client_address_from(peer: str | None, forwarded_for: str = "") -> str:
    """The client's address, given the connection's peer and its X-Forwarded-For value."""
    current = _parse(peer or "")
    if current is None:
        return peer or UNKNOWN
    networks = trusted_networks()
    hops = [hop for hop in forwarded_for.split(",") if hop.strip()]
    while hops and _trusted(current, networks):
        hop = _parse(hops.pop())
        if hop is None:  # a header a trusted proxy did not write: stop at that proxy
            break
        current = hop
    return str(current)


def request_client_address(request: HttpRequest) -> str:
    """The address of the client behind a page's request (and django-axes' callable)."""
    return client_address_from(
        request.META.get("REMOTE_ADDR"), request.META.get("HTTP_X_FORWARDED_FOR", "")
    )


def axes_client_address(request: HttpRequest) -> str | None:
    """request_client_address for django-axes (AXES_CLIENT_IP_CALLABLE), which stores it in an
    address column: None when there is no address (a request made in code, a Unix socket)."""
    address = request_client_address(request)
    return None if _parse(address) is None else address


def scope_client_address(scope: Mapping[str, Any]) -> str:
    """The address of the client behind an ASGI scope (a socket's, or a request's)."""
    client = scope.get("client")
    peer = str(client[0]) if client else None
    # Repeated headers count as one list, as Django joins them for a request.
    forwarded = ",".join(
        value.decode("latin-1")
        for name, value in scope.get("headers", [])
        if name.lower() == b"x-forwarded-for"
    )
    return client_address_from(peer, forwarded)
