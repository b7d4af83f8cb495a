"""Who is connected to a game: a connection count per (game, seat) in the Django cache.

The cache is Redis in production, so every Daphne process sees the same counts. The keys
expire, so a process that died without decrementing cannot mark a seat connected forever.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.core.cache import cache

TTL_SECONDS = 6 * 3600


def _key(game_id: int, seat: int) -> str:
    return f"presence:{game_id}:{seat}"


def presence_join(game_id: int, seats: Iterable[int]) -> None:
    for seat in seats:
        key = _key(game_id, seat)
        cache.add(key, 0, TTL_SECONDS)
        try:
            cache.incr(key)
        except ValueError:  # expired between add() and incr()
            cache.set(key, 1, TTL_SECONDS)


def presence_leave(game_id: int, seats: Iterable[int]) -> None:
    for seat in seats:
        key = _key(game_id, seat)
        try:
            if cache.decr(key) < 0:
                cache.set(key, 0, TTL_SECONDS)
        except ValueError:  # already expired: nothing to decrement
            pass


def presence_connected(game_id: int) -> list[bool]:
    keys = [_key(game_id, 0), _key(game_id, 1)]
    values = cache.get_many(keys)
    return [int(values.get(key) or 0) > 0 for key in keys]


def presence_reset(game_id: int) -> None:
    cache.delete_many([_key(game_id, 0), _key(game_id, 1)])
