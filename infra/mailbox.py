"""A socket's incoming messages as its reader takes them: asyncio.Queue's `get` and
`put_nowait` without its four deques, about 3 KB for each socket a process holds
(docs/decisions/built-once.md, "Memory"). Daphne's input queues (infra.server) and the
channel layer's receive buffers (realtime.channel_layer) are both made of it."""

from __future__ import annotations

import asyncio
from typing import Any


class Mailbox:
    """Messages in order and the one `get` that waits on them; with a `capacity`, the
    oldest message is dropped when full (as channels_redis's bounded queue does)."""

    __slots__ = ("capacity", "messages", "waiter")

    def __init__(self, capacity: int | None = None) -> None:
        self.capacity = capacity
        self.messages: list[dict[str, Any]] = []
        self.waiter: asyncio.Future[None] | None = None

    def empty(self) -> bool:
        return not self.messages

    def put_nowait(self, message: dict[str, Any]) -> None:
        if self.capacity is not None and len(self.messages) >= self.capacity:
            del self.messages[0]
        self.messages.append(message)
        if self.waiter is not None and not self.waiter.done():
            self.waiter.set_result(None)

    async def get(self) -> dict[str, Any]:
        """The oldest message, once there is one; cancelled, it takes none."""
        while not self.messages:
            self.waiter = asyncio.get_running_loop().create_future()
            try:
                await self.waiter
            finally:
                self.waiter = None
        return self.messages.pop(0)
