"""What wraps the WebSocket consumers: the origin check, the outage guard, and the sign-in
read in the thread pool.

Both close with a code the pages understand instead of refusing the handshake: a browser
sees a refused handshake as a bare 1006, which it cannot tell from a network error, so a
page would retry forever. Accepting and closing at once sends nothing but the code.
"""

from __future__ import annotations

import logging
from typing import Any
from urllib.parse import urlparse

from channels.auth import AuthMiddleware, get_user
from channels.generic.websocket import AsyncWebsocketConsumer
from channels.security.websocket import OriginValidator
from channels.sessions import CookieMiddleware, SessionMiddleware
from django.conf import settings

from realtime.consumer import CLOSE_FORBIDDEN, CLOSE_TRY_AGAIN_LATER, UNAVAILABLE_ERRORS, in_pool

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
