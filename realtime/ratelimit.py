"""Message budgets for the WebSockets: per connection, per user and per game.

A connection's own budget is a sliding window in the consumer's memory. The user's and
the game's must hold across sockets in several Daphne processes, so they are counters
shared by every process: in Redis (both in one round trip), or realtime.counters in
embedded mode, where there is only one process.

With Redis a connection takes its messages from the shared counters a few at a time
(`SharedBudget`, `WS_RATE_LIMIT_LEASE`) to save round trips (docs/decisions/move-cost.md).
The counters never let more through than their limits; a lease unused when its window
ends is lost.
"""

from __future__ import annotations

import time
from collections import deque
from typing import Any

import redis
from django.conf import settings

from realtime.counters import window_take
from realtime.once import once

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


# KEYS: the counters. ARGV: the most to take, the counters' expiry, then each one's limit.
# It takes at most a quarter of the room the fullest counter has left (at least one), so
# that leases shrink as a budget runs out and the last messages go one at a time.
TAKE_SCRIPT = """
local most, expiry = tonumber(ARGV[1]), tonumber(ARGV[2])
local take = most
for i = 1, #KEYS do
    local room = tonumber(ARGV[2 + i]) - tonumber(redis.call('GET', KEYS[i]) or '0')
    take = math.min(take, math.max(1, math.floor(room / 4)))
end
local granted = take
for i = 1, #KEYS do
    local total = redis.call('INCRBY', KEYS[i], take)
    if total == take then redis.call('EXPIRE', KEYS[i], expiry) end
    granted = math.min(granted, math.max(0, tonumber(ARGV[2 + i]) - (total - take)))
end
return granted
"""


@once
def _take_script() -> Any:
    return _redis().register_script(TAKE_SCRIPT)


def _take_in_redis(
    counters: list[tuple[str, int, int]], window: float, now: float, count: int = 1
) -> int:
    """Up to `count` messages against each (kind, key, limit) counter, in one round trip.

    Returns how many of them every counter had room for (0: none).
    """
    slot = int(now // window)
    keys = [
        f"{settings.CHANNELS_PREFIX}:{KEY_PREFIX}:{kind}:{key}:{slot}" for kind, key, _ in counters
    ]
    limits = [limit for _kind, _key, limit in counters]
    return int(_take_script()(keys=keys, args=[count, int(window) + 1, *limits]))


def _take(kind: str, key: int, limit: int, window: float) -> bool:
    """One message against a counter shared by the process's sockets (realtime.counters)."""
    return window_take(f"{KEY_PREFIX}:{kind}", key, limit=limit, seconds=max(1, round(window)))


def shared_budget_take(
    *, user_id: int, game_id: int | None = None, now: float | None = None, count: int = 1
) -> int:
    """Up to `count` messages from the user's budget and, if given, the game's; how many fit
    (0: none).

    The game's budget is counted only for its players' messages (the caller passes no
    `game_id` for a spectator), so that spectators cannot starve the players of it. More
    than one only with Redis (see SharedBudget); without, they are taken one at a time.
    """
    now = time.time() if now is None else now
    window = settings.WS_RATE_LIMIT_WINDOW
    if settings.REDIS_URL:
        counters = [("user", user_id, settings.WS_RATE_LIMIT_USER)]
        if game_id is not None:
            counters.append(("game", game_id, settings.WS_RATE_LIMIT_GAME))
        return _take_in_redis(counters, window, now, count)
    if not _take("user", user_id, settings.WS_RATE_LIMIT_USER, window):
        return 0
    if game_id is not None and not _take("game", game_id, settings.WS_RATE_LIMIT_GAME, window):
        return 0
    return 1


class SharedBudget:
    """One connection's messages against its user's and game's budgets, a lease at a time.

    It asks the shared counters only when its lease is spent or its window is over.
    """

    def __init__(self, *, user_id: int, game_id: int | None, lease: int | None = None) -> None:
        self.user_id = user_id
        self.game_id = game_id
        self.lease = settings.WS_RATE_LIMIT_LEASE if lease is None else lease
        self.slot: int | None = None
        self.left = 0

    def allow(self, now: float | None = None) -> bool:
        now = time.time() if now is None else now
        slot = int(now // settings.WS_RATE_LIMIT_WINDOW)
        if slot == self.slot and self.left > 0:
            self.left -= 1
            return True
        count = max(1, self.lease) if settings.REDIS_URL else 1
        taken = shared_budget_take(user_id=self.user_id, game_id=self.game_id, now=now, count=count)
        self.slot, self.left = slot, max(0, taken - 1)
        return taken > 0
