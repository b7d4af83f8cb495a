"""The bare relay bench/moves.py measures the platform against, served by the same Daphne.

`application` is the platform's own ASGI application plus one WebSocket route,
/ws/relay/<pair>/, whose consumer does nothing but relay: a text frame received is sent to
the pair's channel-layer group, and every member (the two clients of the pair) sends it
back out. It uses the platform's channel layer, so the transport under both measurements
is the same: Daphne, the layer (Redis or in-memory) and the clients. It is served only by
the benchmark's Daphne processes (`bench/moves.py --spawn`), never by the platform.
"""

from __future__ import annotations

from typing import Any

from channels.generic.websocket import AsyncWebsocketConsumer
from channels.routing import URLRouter
from django.urls import path

from config.asgi import application as platform_application

RELAY_PREFIX = "/ws/relay/"


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


relay_router = URLRouter([path("ws/relay/<str:pair>/", RelayConsumer.as_asgi())])


async def application(scope: dict[str, Any], receive: Any, send: Any) -> None:
    if scope["type"] == "websocket" and scope["path"].startswith(RELAY_PREFIX):
        await relay_router(scope, receive, send)
    else:
        await platform_application(scope, receive, send)
