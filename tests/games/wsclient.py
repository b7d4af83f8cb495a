"""A test WebSocket client on top of channels' WebsocketCommunicator, with a session cookie."""

from __future__ import annotations

import asyncio
import itertools
import json
import re
from collections.abc import Callable
from typing import Any

from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.test import Client

from config.asgi import application

ORIGIN = b"http://testserver"
TILE = re.compile(r'"(\d-\d)"')


def session_cookie(user: AbstractBaseUser) -> str:
    client = Client()
    client.force_login(user)
    return client.cookies[settings.SESSION_COOKIE_NAME].value


def tiles_in(data: Any) -> set[str]:
    return set(TILE.findall(json.dumps(data)))


def scrub_public(frame: dict[str, Any]) -> dict[str, Any]:
    """A state frame without what is public once a round is over (R2.4: both hands then)."""
    frame = json.loads(json.dumps(frame))
    frame["game"]["last_round"] = None
    frame["events"] = [e for e in frame["events"] if e.get("type") != "round_over"]
    return frame


class WsClient:
    _ids = itertools.count(1)

    def __init__(self, path: str, *, user: AbstractBaseUser | None = None, origin: bytes = ORIGIN):
        self.path = path
        self.user = user
        self.origin = origin
        self.frames: list[dict[str, Any]] = []
        self.state: dict[str, Any] | None = None
        self.communicator: WebsocketCommunicator | None = None
        self.cookie: str | None = None  # set beforehand to connect while the database is down
        self.language: str | None = None  # sent as Accept-Language

    async def connect(self) -> tuple[bool, Any]:
        headers = [(b"origin", self.origin)]
        if self.language is not None:
            headers.append((b"accept-language", self.language.encode()))
        if self.user is not None:
            if self.cookie is None:
                self.cookie = await database_sync_to_async(session_cookie)(self.user)
            name = settings.SESSION_COOKIE_NAME
            headers.append((b"cookie", f"{name}={self.cookie}".encode()))
        self.communicator = WebsocketCommunicator(application, self.path, headers=headers)
        return await self.communicator.connect(timeout=5)

    async def close_code(self, timeout: float = 5) -> int | None:
        """Connect expecting to be closed at once; the close code (after an accept)."""
        ok, _ = await self.connect()
        if not ok:  # a refused handshake: what a browser sees as a bare 1006
            return None
        assert self.communicator is not None
        output = await self.communicator.receive_output(timeout)
        assert output["type"] == "websocket.close", output
        return int(output.get("code", 1000))

    async def close(self) -> None:
        if self.communicator is not None:
            # The communicator cancels the consumer after `timeout` (1 s by default), in the
            # middle of its goodbye (presence, broadcast) on a loaded machine; Daphne waits
            # its application_close_timeout (10 s).
            await self.communicator.disconnect(timeout=10)

    async def send(self, data: Any) -> None:
        assert self.communicator is not None
        if isinstance(data, str):
            await self.communicator.send_to(text_data=data)
        else:
            await self.communicator.send_json_to(data)

    async def recv(self, timeout: float = 5) -> dict[str, Any]:
        assert self.communicator is not None
        message = await self.communicator.receive_json_from(timeout=timeout)
        self.frames.append(message)
        if message.get("type") == "state":
            self.state = message
        return message

    async def until(
        self, predicate: Callable[[dict[str, Any]], bool], timeout: float = 5
    ) -> dict[str, Any]:
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while True:
            message = await self.recv(timeout=max(0.01, end - loop.time()))
            if predicate(message):
                return message

    async def until_version(self, version: int, timeout: float = 5) -> dict[str, Any]:
        if self.state is not None and self.state["version"] >= version:
            return self.state
        return await self.until(
            lambda m: m.get("type") == "state" and m["version"] >= version, timeout
        )

    async def act(self, action: dict[str, Any], request_id: Any = None) -> dict[str, Any]:
        """Send an action and return its ack or error (state frames are kept on the way)."""
        rid = request_id if request_id is not None else f"r{next(self._ids)}"
        await self.send({"type": "action", "id": rid, "action": action})
        return await self.until(lambda m: m.get("type") in ("ack", "error") and m.get("id") == rid)

    async def nothing(self, timeout: float = 0.2) -> bool:
        assert self.communicator is not None
        return await self.communicator.receive_nothing(timeout=timeout)

    async def drain(self, timeout: float = 0.2) -> None:
        while not await self.nothing(timeout):
            await self.recv()

    @property
    def game(self) -> dict[str, Any]:
        assert self.state is not None
        return self.state["game"]
