"""Message budgets for the WebSockets: per connection, per user and per game.

A connection's own budget lives in the consumer (a sliding window in memory). The user's
and the game's budgets must hold across all of a user's sockets, which may sit in several
Daphne processes, so they are counters shared by every process: in Redis in production
(both counters in one round trip), in the Django cache (the process's memory) in embedded
mode, where there is only one process.
"""

from __future__ import annotations

import time
from collections import deque

import redis
from django.conf import settings
from django.core.cache import cache

from games.once import once

KEY_PREFIX = "ws-rate"


class RateLimiter:
    """At most `limit` messages in any sliding window of `window` seconds (one connection)."""

    def __init__(self, limit: int | None = None, window: float | None = None) -> None:
        self.limit = settings.WS_RATE_LIMIT_CONNECTION if limit is None else limit
        self.window = settings.WS_RATE_LIMIT_WINDOW if window is None else window
        self.stamps: deque[float] = deque()

    def allow(self, now: float | None = None) -> bool:
        now = time.monotonic() if now is None else now
        while self.stamps and now - self.stamps[0] >= self.window:
            self.stamps.popleft()
        if len(self.stamps) >= self.limit:
            return False
        self.stamps.append(now)
        return True


@once
def _redis() -> redis.Redis:
    # Short timeouts: a message must not wait long on a counter (see the consumer's fallback).
    return redis.Redis.from_url(settings.REDIS_URL, socket_timeout=2.0, socket_connect_timeout=2.0)


def _take_in_redis(counters: list[tuple[str, int, int]], window: float, now: float) -> bool:
    """One message against each (kind, key, limit) fixed-window counter, in one round trip."""
    slot = int(now // window)
    pipe = _redis().pipeline(transaction=False)
    for kind, key, _limit in counters:
        name = f"{settings.CHANNELS_PREFIX}:{KEY_PREFIX}:{kind}:{key}:{slot}"
        pipe.incr(name)
        pipe.expire(name, int(window) + 1, nx=True)
    counts = pipe.execute()[0::2]
    return all(count <= limit for count, (_kind, _key, limit) in zip(counts, counters, strict=True))


def _take(kind: str, key: int, limit: int, window: float, now: float) -> bool:
    """One message against a fixed-window counter shared by every process.

    Fixed windows cost one cache round trip per message; a burst across a window boundary
    may reach twice the limit, which the per-connection sliding window still bounds.
    """
    slot = int(now // window)
    cache_key = f"{KEY_PREFIX}:{kind}:{key}:{slot}"
    # add() creates the counter atomically; incr() on a key that just expired raises.
    if cache.add(cache_key, 1, timeout=int(window) + 1):
        return limit >= 1
    try:
        count = cache.incr(cache_key)
    except ValueError:
        cache.add(cache_key, 1, timeout=int(window) + 1)
        count = 1
    return count <= limit


def shared_budget_allows(
    *, user_id: int, game_id: int | None = None, now: float | None = None
) -> bool:
    """Whether one more message fits the user's budget and, if given, the game's.

    The game's budget is counted only for its players' messages (the caller passes no
    `game_id` for a spectator), so that spectators cannot starve the players of it.
    """
    now = time.time() if now is None else now
    window = settings.WS_RATE_LIMIT_WINDOW
    if settings.REDIS_URL:
        counters = [("user", user_id, settings.WS_RATE_LIMIT_USER)]
        if game_id is not None:
            counters.append(("game", game_id, settings.WS_RATE_LIMIT_GAME))
        return _take_in_redis(counters, window, now)
    if not _take("user", user_id, settings.WS_RATE_LIMIT_USER, window, now):
        return False
    if game_id is not None:
        return _take("game", game_id, settings.WS_RATE_LIMIT_GAME, window, now)
    return True
