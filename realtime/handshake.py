"""What wraps the WebSocket consumers: the origin check, the refused characters, the
connections per address, the outage guard, and the sign-in read in the thread pool.

Both close with a code the pages understand instead of refusing the handshake: a browser
sees a refused handshake as a bare 1006, which it cannot tell from a network error, so a
page would retry forever. Accepting and closing at once sends nothing but the code.
"""

from __future__ import annotations

import logging
from typing import Any
from urllib.parse import unquote, urlparse

from asgiref.sync import sync_to_async
from channels.auth import AuthMiddleware, get_user
from channels.generic.websocket import AsyncWebsocketConsumer
from channels.security.websocket import OriginValidator
from channels.sessions import CookieMiddleware, SessionMiddleware
from django.conf import settings
from django.http import parse_cookie

from realtime.addresses import scope_client_address
from realtime.characters import holds_refused_character
from realtime.consumer import CLOSE_FORBIDDEN, CLOSE_TRY_AGAIN_LATER, UNAVAILABLE_ERRORS, in_pool
from realtime.counters import window_take

logger = logging.getLogger(__name__)


class ForbiddenOrigin(AsyncWebsocketConsumer):
    async def connect(self) -> None:
        await self.accept()
        await self.close(code=CLOSE_FORBIDDEN)


class ClosingOriginValidator(OriginValidator):
    """OriginValidator's check (valid_origin), with ForbiddenOrigin as the denier."""

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        if scope["type"] != "websocket":
            raise ValueError("ClosingOriginValidator is for WebSocket connections only")
        origin = None
        for name, value in scope.get("headers", []):
            if name == b"origin":
                origin = urlparse(value.decode("latin1"))  # latin-1 decodes any bytes
        if self.valid_origin(origin):
            return await self.application(scope, receive, send)
        return await ForbiddenOrigin.as_asgi()(scope, receive, send)


def allowed_hosts_origin_validator(application: Any) -> ClosingOriginValidator:
    """channels' AllowedHostsOriginValidator, closing a foreign origin with 4403."""
    allowed_hosts = settings.ALLOWED_HOSTS
    if settings.DEBUG and not allowed_hosts:
        allowed_hosts = ["localhost", "127.0.0.1", "[::1]"]
    return ClosingOriginValidator(application, allowed_hosts)


def _scope_texts(scope: dict[str, Any]) -> list[str]:
    texts = [str(scope.get("path", ""))]
    texts.append(bytes(scope.get("query_string", b"")).decode("latin-1"))
    for name, value in scope.get("headers", []):
        texts.append(value.decode("latin-1"))
        if name == b"cookie":  # as the session middleware will read them (quoted, escaped)
            texts += [f"{k}={v}" for k, v in parse_cookie(value.decode("latin-1")).items()]
    return texts


class BadCharactersGuard:
    """Closes with 4403 a socket whose address, query or headers (its cookies among them)
    hold NUL: the session would be looked up with it, and PostgreSQL refuses it in text.
    Percent-escaped forms count too, as the query and cookies are decoded further on."""

    def __init__(self, application: Any) -> None:
        self.application = application

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        # Not kept in a local: this frame lasts as long as the socket.
        if any(holds_refused_character(unquote(text)) for text in _scope_texts(scope)):
            return await ForbiddenOrigin.as_asgi()(scope, receive, send)
        return await self.application(scope, receive, send)


class TryAgainLater(AsyncWebsocketConsumer):
    async def connect(self) -> None:
        await self.accept()
        await self.close(code=CLOSE_TRY_AGAIN_LATER)


def _connect_allowed(address: str) -> bool:
    limit = int(settings.WS_CONNECTS_PER_ADDRESS_PER_MINUTE)
    try:
        return window_take("ws-connects", address, limit=limit, seconds=60)
    except UNAVAILABLE_ERRORS:  # the counter's Redis is down: the other guards still hold
        logger.warning("socket connection counter unavailable; not counted")
        return True


class AddressBudgetGuard:
    """Closes with 4503 (try again later) a socket past WS_CONNECTS_PER_ADDRESS_PER_MINUTE
    from its client's address (realtime.addresses), before its session is read."""

    def __init__(self, application: Any) -> None:
        self.application = application

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        address = scope_client_address(scope)
        if not await sync_to_async(_connect_allowed, thread_sensitive=False)(address):
            return await TryAgainLater.as_asgi()(scope, receive, send)
        return await self.application(scope, receive, send)


class OutageGuard:
    """Closes with 4503 (try again later) when the database fails before a consumer runs.

    The session and the user are read (AuthMiddleware) before the consumer is reached, so
    the consumers' own outage handling cannot see a database that is down at that point.
    """

    def __init__(self, application: Any) -> None:
        self.application = application

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        accepted = False
        closed = False

        async def watched_send(message: dict[str, Any]) -> None:
            nonlocal accepted, closed
            accepted = accepted or message["type"] == "websocket.accept"
            closed = closed or message["type"] == "websocket.close"
            await send(message)

        try:
            return await self.application(scope, receive, watched_send)
        except UNAVAILABLE_ERRORS:
            if closed:
                raise
            logger.exception("WebSocket refused: database or channel layer unavailable")
            if not accepted:
                await send({"type": "websocket.accept"})
            await send({"type": "websocket.close", "code": CLOSE_TRY_AGAIN_LATER})
            return None


class PooledAuthMiddleware(AuthMiddleware):
    """Channels' AuthMiddleware reading the session and the user in the thread pool.

    Channels reads them on its one sync thread per process: a thousand pages coming back
    to a Daphne after another died queued there, one at a time, until Daphne's handshake
    timeout dropped the last ones, which came back again (bench/sockets.py).
    """

    async def resolve_scope(self, scope: dict[str, Any]) -> None:
        scope["user"]._wrapped = await in_pool(get_user.func)(scope)


def pooled_auth_middleware_stack(inner: Any) -> Any:
    """channels.auth.AuthMiddlewareStack with PooledAuthMiddleware."""
    return CookieMiddleware(SessionMiddleware(PooledAuthMiddleware(inner)))
