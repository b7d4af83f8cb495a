"""Counts in sliding windows, the one mechanism behind every limit kept outside the database:
sign-ups per address, replay suggestions per player, and socket messages per user and game
when there is no Redis (realtime.ratelimit's fallback).

The `limits` library's sliding window counter: this window's count plus the part of the last
window's that still falls within `seconds` of now, taken and checked in one step (a Lua
script in Redis, shared by every process; a lock in this process's memory in embedded mode,
where one web process serves everything). A count past the limit is refused and not kept.
"""

from __future__ import annotations

from django.conf import settings
from limits import RateLimitItemPerSecond
from limits.storage import MemoryStorage, RedisStorage
from limits.strategies import SlidingWindowCounterRateLimiter

from realtime.once import once

KEY_PREFIX = "limits"


@once
def _limiter() -> SlidingWindowCounterRateLimiter:
    if settings.REDIS_URL:
        # Short timeouts: a page or a message must not wait long on a counter.
        storage: RedisStorage | MemoryStorage = RedisStorage(
            settings.REDIS_URL,
            key_prefix=f"{settings.CHANNELS_PREFIX}:{KEY_PREFIX}",
            socket_timeout=2.0,
            socket_connect_timeout=2.0,
        )
    else:
        storage = MemoryStorage()
    return SlidingWindowCounterRateLimiter(storage)


def _item(limit: int, seconds: int) -> RateLimitItemPerSecond:
    return RateLimitItemPerSecond(limit, max(1, int(seconds)))


def window_take(kind: str, key: str | int, *, limit: int, seconds: int, cost: int = 1) -> bool:
    """Count `cost` against `kind`/`key`'s limit of `limit` in any `seconds`; False, and
    nothing counted, past it. A limit of 0 or less is no limit."""
    if limit <= 0:
        return True
    return _limiter().hit(_item(limit, seconds), kind, str(key), cost=cost)


def window_has_room(kind: str, key: str | int, *, limit: int, seconds: int) -> bool:
    """Whether one more would fit now (nothing counted)."""
    if limit <= 0:
        return True
    return _limiter().test(_item(limit, seconds), kind, str(key))


def windows_forget() -> None:
    """Forget every count this process's prefix holds (the tests' fresh start)."""
    _limiter().storage.reset()
