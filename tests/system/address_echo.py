"""An ASGI app that answers each request and socket with the client address the platform
decides for it (realtime.addresses), for tests/system/test_forged_addresses.py and
test_nginx_live.py. A socket to a path ending in `hold/` stays open until the client leaves."""

from __future__ import annotations

import os
from typing import Any

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django.setup()

from realtime.addresses import scope_client_address  # noqa: E402  (needs Django set up)


async def application(scope: dict[str, Any], receive: Any, send: Any) -> None:
    address = scope_client_address(scope).encode()
    if scope["type"] == "http":
        await receive()
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": address})
    elif scope["type"] == "websocket":
        await receive()  # websocket.connect
        await send({"type": "websocket.accept"})
        await send({"type": "websocket.send", "text": address.decode()})
        if scope["path"].endswith("hold/"):
            while (await receive())["type"] != "websocket.disconnect":
                pass
            return
        await send({"type": "websocket.close", "code": 1000})
    elif scope["type"] == "lifespan":
        message = await receive()
        if message["type"] == "lifespan.startup":
            await send({"type": "lifespan.startup.complete"})
