"""The Redis channel layer with one reader per process that no closing socket can cancel.

channels_redis delivers a process's messages (every consumer's channel shares one Redis
key per process) through whichever consumer holds its receive lock: that consumer pops
the next message (BZPOPMIN) and hands it to the addressee's buffer. When that consumer's
socket closes, Channels cancels its receive in the middle of the pop, and a message Redis
has already popped is dropped: some other player never hears of a move or a flag
(django/channels#1683, django/channels_redis#366). It happened here whenever games ended
while others were still being told of theirs, on every few runs of bench/moves.py.

Here one task per process pops the messages and fills the buffers; consumers only wait on
their own buffer, so cancelling them cancels nothing that holds a message. The reader
outlives Redis outages: it retries with back-off while the sockets stay open.

Its Redis connections come from a pool that waits for a free connection: redis-py's
default pool refuses the 101st at once ("Too many connections"), and 200 sockets opening
together on one process (a Daphne restart, bench/moves.py at 200 games) failed with 500.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

from channels_redis.core import RedisChannelLayer
from redis.asyncio import BlockingConnectionPool

logger = logging.getLogger(__name__)

RETRY_FIRST_SECONDS = 0.1
RETRY_MAX_SECONDS = 2.0
POOL_CONNECTIONS = 200
POOL_WAIT_SECONDS = 5.0


class SteadyRedisChannelLayer(RedisChannelLayer):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._reader: asyncio.Task[None] | None = None
        self._reader_loop: asyncio.AbstractEventLoop | None = None
        # Buffers nobody waits on (their consumer is gone): evicted once their newest
        # message is older than the layer's expiry, as Redis would have dropped it.
        self._waiting: set[str] = set()
        self._last_put: dict[str, float] = {}
        self._next_eviction = 0.0

    def create_pool(self, index: int) -> Any:
        host = dict(self.hosts[index])
        if "address" not in host:
            return super().create_pool(index)
        host.setdefault("max_connections", POOL_CONNECTIONS)
        host.setdefault("timeout", POOL_WAIT_SECONDS)
        return BlockingConnectionPool.from_url(host.pop("address"), **host)

    async def receive(self, channel: str) -> dict[str, Any]:
        if "!" not in channel:
            return await super().receive(channel)
        assert self.require_valid_channel_name(channel)
        self._ensure_reader(self.non_local_name(channel))
        buffer = self.receive_buffer[channel]
        self._waiting.add(channel)
        try:
            message = await buffer.get()
        finally:
            self._waiting.discard(channel)
            if buffer.empty() and self.receive_buffer.get(channel) is buffer:
                del self.receive_buffer[channel]
                self._last_put.pop(channel, None)
        return message

    def _ensure_reader(self, process_channel: str) -> None:
        loop = asyncio.get_running_loop()
        if self._reader is not None and not self._reader.done():
            if self._reader_loop is loop:
                return
            if self._reader_loop is not None and self._reader_loop.is_running():
                raise RuntimeError(
                    "Two event loops are trying to receive() on one channel layer at once!"
                )
        self._reader_loop = loop
        self._reader = loop.create_task(self._read_forever(process_channel))

    async def _read_forever(self, process_channel: str) -> None:
        retry = RETRY_FIRST_SECONDS
        me = asyncio.current_task()
        # A cancellation that redis-py swallowed still ends the loop (the event loop's
        # shutdown would otherwise wait for it for ever).
        while me is None or not me.cancelling():
            try:
                addressee, message = await self.receive_single(process_channel)
            except Exception:  # not CancelledError, a BaseException: that one ends the loop
                if retry == RETRY_FIRST_SECONDS:
                    logger.warning("channel layer: reading messages failed; retrying")
                await asyncio.sleep(retry)
                retry = min(RETRY_MAX_SECONDS, retry * 2)
                continue
            retry = RETRY_FIRST_SECONDS
            now = time.monotonic()
            for name in addressee if isinstance(addressee, list) else [addressee]:
                self.receive_buffer[name].put_nowait(message)
                self._last_put[name] = now
            if now >= self._next_eviction:
                self._evict_unread(now)

    def _evict_unread(self, now: float) -> None:
        self._next_eviction = now + self.expiry
        for name, put_at in list(self._last_put.items()):
            if name not in self._waiting and now - put_at > self.expiry:
                self.receive_buffer.pop(name, None)
                del self._last_put[name]

    async def close_pools(self) -> None:
        if self._reader is not None and self._reader_loop is asyncio.get_running_loop():
            self._reader.cancel()
            await asyncio.gather(self._reader, return_exceptions=True)
            self._reader = None
        await super().close_pools()
