"""Who is connected to a game: one entry per socket, kept alive by the process that holds it.

Slots 0 and 1 are the seats (a same-device screen holds both); slot WATCH counts the
spectators' sockets, so that a change is only computed and sent for audiences somebody
listens to (games.live.broadcast), and so that the pages can show how many watch.

A socket's entry expires `TTL_SECONDS` ahead and is refreshed every `REFRESH_SECONDS`,
so the entries of a Daphne process that dies expire and the clock keeper's sweep
(`presence_expire`) tells those games. With Redis the entries are shared by every process
(a sorted set per slot, scored by expiry); without it they live in this process's memory.
Presence is advice for the page: a failure to record it never fails the socket.

A broadcast composes its messages for the presence this process saw last
(`presence_expected`), and the send checks in the same script that it still holds
(`presence_guard`), saving a round trip of its own (docs/decisions/move-cost.md).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Iterable
from typing import cast

import redis
from django.conf import settings
from redis.backoff import NoBackoff
from redis.retry import Retry

from realtime.once import once
from realtime.relay import relay_url

logger = logging.getLogger(__name__)

TTL_SECONDS = 15.0
REFRESH_SECONDS = 5.0
WATCH = 2  # the spectators' slot, beside seats 0 and 1
SLOTS = (0, 1, WATCH)


class MemoryPresence:
    """Entries of this process only: {(game, seat): {connection: expires_at}}."""

    def __init__(self) -> None:
        self._entries: dict[tuple[int, int], dict[str, float]] = {}
        self._lock = threading.Lock()

    def put(self, game_id: int, seats: Iterable[int], conn: str, expires: float) -> bool:
        """Record the entry; True if any of its slots had none (rather than refreshing it)."""
        added = False
        with self._lock:
            for seat in seats:
                slot = self._entries.setdefault((game_id, seat), {})
                added = added or conn not in slot
                slot[conn] = expires
        return added

    def remove(self, game_id: int, seats: Iterable[int], conn: str) -> None:
        with self._lock:
            for seat in seats:
                self._entries.get((game_id, seat), {}).pop(conn, None)

    def counts(self, game_id: int, now: float) -> list[int]:
        with self._lock:
            return [
                sum(exp > now for exp in self._entries.get((game_id, slot), {}).values())
                for slot in SLOTS
            ]

    def listening(self, game_id: int, now: float) -> list[bool]:
        return [count > 0 for count in self.counts(game_id, now)]

    def expire(self, now: float) -> set[int]:
        changed = set()
        with self._lock:
            for (game_id, _seat), conns in list(self._entries.items()):
                for conn in [c for c, exp in conns.items() if exp <= now]:
                    del conns[conn]
                    changed.add(game_id)
                if not conns:
                    self._entries.pop((game_id, _seat), None)
        return changed


class RedisPresence:
    def __init__(self, url: str, prefix: str) -> None:
        # Short timeouts and no retries (redis-py retries three times, backing off for
        # seconds): presence must never hold a socket's handler for long, and a socket
        # learns at once that Redis is away (GameConsumer.keep_presence).
        self.client = redis.Redis.from_url(
            url, socket_timeout=2.0, socket_connect_timeout=2.0, retry=Retry(NoBackoff(), 0)
        )
        self.prefix = f"{prefix}:presence"

    def slot_key(self, game_id: int, seat: int) -> str:
        return f"{self.prefix}:{game_id}:{seat}"

    @property
    def _index(self) -> str:
        return f"{self.prefix}:index"

    def put(self, game_id: int, seats: Iterable[int], conn: str, expires: float) -> bool:
        pipe = self.client.pipeline(transaction=False)
        for seat in seats:
            key = self.slot_key(game_id, seat)
            pipe.zadd(key, {conn: expires})
            pipe.expire(key, int(TTL_SECONDS * 2))
            pipe.zadd(self._index, {f"{game_id}:{seat}:{conn}": expires})
        replies = pipe.execute()
        return any(replies[0::3])  # ZADD counts the members it added, not those it updated

    def remove(self, game_id: int, seats: Iterable[int], conn: str) -> None:
        pipe = self.client.pipeline(transaction=False)
        for seat in seats:
            pipe.zrem(self.slot_key(game_id, seat), conn)
            pipe.zrem(self._index, f"{game_id}:{seat}:{conn}")
        pipe.execute()

    def counts(self, game_id: int, now: float) -> list[int]:
        pipe = self.client.pipeline(transaction=False)
        for slot in SLOTS:
            pipe.zcount(self.slot_key(game_id, slot), f"({now}", "+inf")
        return [int(count) for count in pipe.execute()]

    def listening(self, game_id: int, now: float) -> list[bool]:
        return [count > 0 for count in self.counts(game_id, now)]

    def expire(self, now: float) -> set[int]:
        # Without scores or decode_responses, Redis answers a list of bytes.
        members = cast(list[bytes], self.client.zrangebyscore(self._index, "-inf", now))
        if not members:
            return set()
        pipe = self.client.pipeline(transaction=False)
        for member in members:
            pipe.zrem(self._index, member)
        removed = pipe.execute()
        changed = set()
        pipe = self.client.pipeline(transaction=False)
        for member, was_there in zip(members, removed, strict=True):
            game_id, seat, _conn = member.decode().split(":", 2)
            # By score: an entry refreshed since the range read stays in its seat's set.
            pipe.zremrangebyscore(self.slot_key(int(game_id), int(seat)), "-inf", now)
            if was_there:
                changed.add(int(game_id))
        pipe.execute()
        return changed


# Per game, the presence (per slot) this process last saw; a guess that sends check.
_seen: dict[int, list[bool]] = {}
SEEN_MAX_GAMES = 10_000


def presence_expected(game_id: int) -> list[bool] | None:
    """The game's presence as this process last saw it, or as it is now (None: unknown)."""
    seen = _seen.get(game_id)
    return list(seen) if seen is not None else presence_listening(game_id)


def presence_seen(game_id: int, listening: list[bool] | None) -> None:
    """Remember what a guarded send found (see presence_guard)."""
    if listening is None:
        _seen.pop(game_id, None)
        return
    if len(_seen) >= SEEN_MAX_GAMES:  # games end; a guess costs only a retry to redo
        _seen.clear()
    _seen[game_id] = list(listening)


def presence_guard(game_id: int, listening: list[bool]) -> tuple[list[str], list[bool]] | None:
    """The check a send to the game makes that its presence is still `listening`.

    (keys, expected): each slot's sorted set, scored by expiry, and whether it should have
    a live entry. None when presence is not kept in Redis (a send then cannot check it);
    that it is the channel layer's Redis is realtime.fanout.guarded_sends's to know.
    """
    store = _store()
    if not isinstance(store, RedisPresence):
        return None
    return [store.slot_key(game_id, slot) for slot in SLOTS], list(listening)


@once
def _store() -> MemoryPresence | RedisPresence:
    if settings.REDIS_URL:
        return RedisPresence(settings.REDIS_URL, settings.CHANNELS_PREFIX)
    return MemoryPresence()


def presence_join(game_id: int, seats: Iterable[int], conn: str) -> bool | None:
    """A socket opened, or refreshes its entry (the same write).

    True when the entry was written anew: on opening, or because it was gone (it expired,
    or Redis restarted and lost it, and with it the socket's channel-layer groups); False
    when it was only refreshed; None when Redis could not be reached.
    """
    try:
        return _store().put(game_id, list(seats), conn, time.time() + TTL_SECONDS)
    except redis.RedisError:
        logger.warning("presence of game %s not recorded: Redis unavailable", game_id)
        return None


presence_refresh = presence_join


def presence_leave(game_id: int, seats: Iterable[int], conn: str) -> None:
    try:
        _store().remove(game_id, list(seats), conn)
    except redis.RedisError:
        logger.warning("presence of game %s not removed: Redis unavailable", game_id)


def presence_connected(game_id: int) -> list[bool] | None:
    """Per seat: whether any live socket of that seat is open; None if unknown (no Redis)."""
    listening = presence_listening(game_id)
    return None if listening is None else listening[:2]


def presence_listening(game_id: int) -> list[bool] | None:
    """Per slot (seat 0, seat 1, WATCH): whether a live socket is open; None if unknown."""
    counts = presence_counts(game_id)
    return None if counts is None else [count > 0 for count in counts]


def presence_counts(game_id: int) -> list[int] | None:
    """Per slot (seat 0, seat 1, WATCH): how many live sockets are open; None if unknown.

    The WATCH count is the game's spectators' sockets, which the players see as its viewers.
    """
    if relay_url():  # an embedded worker: the sockets, and their entries, are the web's
        return None
    try:
        return _store().counts(game_id, time.time())
    except redis.RedisError:
        return None


def presence_expire(*, now: float | None = None) -> set[int]:
    """Drop the entries nobody refreshed; returns the games whose presence changed."""
    try:
        return _store().expire(time.time() if now is None else now)
    except redis.RedisError:
        return set()
