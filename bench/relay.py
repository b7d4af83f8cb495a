"""The bare relay bench/moves.py measures the platform against, served by the same Daphne.

`application` is the platform's own ASGI application plus one WebSocket route,
/ws/relay/<pair>/, whose consumer does nothing but relay: a text frame received is sent to
the pair's channel-layer group, and every member (the two clients of the pair) sends it
back out. It uses the platform's channel layer, so the transport under both measurements
is the same: Daphne, the layer (Redis or in-memory) and the clients. It is served only by
the benchmark's Daphne processes (`bench/moves.py --spawn`), never by the platform.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

from channels.generic.websocket import AsyncWebsocketConsumer
from channels.routing import URLRouter
from django.conf import settings
from django.urls import path
from psycopg.conninfo import make_conninfo
from psycopg_pool import AsyncConnectionPool

from config.asgi import application as platform_application

RELAY_PREFIX = "/ws/relay"


class RelayConsumer(AsyncWebsocketConsumer):
    async def connect(self) -> None:
        self.group = f"relay_{self.scope['url_route']['kwargs']['pair']}"
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()

    async def disconnect(self, code: int) -> None:
        await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        await self.channel_layer.group_send(self.group, {"type": "relay.frame", "text": text_data})

    async def relay_frame(self, event: dict[str, Any]) -> None:
        await self.send(text_data=event["text"])


LOG_TABLE = "bench_relay_log"
LOG_TABLE_SQL = (
    f"CREATE TABLE IF NOT EXISTS {LOG_TABLE}"
    " (id bigserial PRIMARY KEY, pair text NOT NULL, version bigint NOT NULL, action text NOT NULL)"
)
INSERT_SQL = f"INSERT INTO {LOG_TABLE} (pair, version, action) VALUES (%s, %s, %s)"
ACTION = json.dumps({"do": "play", "tile": [6, 6], "end": "left"})
ACK = json.dumps({"type": "ack", "id": "r", "version": 0})
_pool: AsyncConnectionPool | None = None
_pool_lock = asyncio.Lock()


async def log_pool() -> AsyncConnectionPool:
    """psycopg's own async connections, used on this process's event loop: no thread hop.

    As many at most as the platform's pool per process (DB_POOL_MAX).
    """
    global _pool
    async with _pool_lock:
        if _pool is None:
            db = settings.DATABASES["default"]
            conninfo = make_conninfo(
                dbname=db["NAME"],
                user=db["USER"],
                host=db["HOST"],
                port=db["PORT"] or None,
                password=db["PASSWORD"] or None,
            )
            _pool = AsyncConnectionPool(
                conninfo,
                min_size=4,
                max_size=db["OPTIONS"]["pool"]["max_size"],
                kwargs={"autocommit": True},
                open=False,
            )
            await _pool.open()
    return _pool


class LoggedRelayConsumer(RelayConsumer):
    """The relay plus what no conforming server can skip: a durable log row, then an ack.

    Each frame is first inserted (one small row, committed: PostgreSQL's WAL flush) through
    an async connection on the event loop, which costs less than any thread hop; the
    sender is acked; then the frame goes to the group.
    """

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        version = json.loads(text_data or "{}").get("version", 0)
        pool = await log_pool()
        async with pool.connection() as conn:
            await conn.execute(INSERT_SQL, (self.group, version, ACTION), prepare=True)
        await self.send(text_data=ACK)
        await super().receive(text_data, bytes_data)


relay_router = URLRouter(
    [
        path("ws/relay/<str:pair>/", RelayConsumer.as_asgi()),
        path("ws/relay-logged/<str:pair>/", LoggedRelayConsumer.as_asgi()),
    ]
)


async def application(scope: dict[str, Any], receive: Any, send: Any) -> None:
    if scope["type"] == "websocket" and scope["path"].startswith(RELAY_PREFIX):
        await relay_router(scope, receive, send)
    else:
        await platform_application(scope, receive, send)
