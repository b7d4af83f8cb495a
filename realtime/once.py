"""A factory's one result per process, built under a lock.

functools.cache lets two threads that call a factory for the first time both build, and
keeps one result. For a Redis client that is harmful, not just wasteful: the other client
is garbage-collected while its caller still uses its connection pool, and redis-py's
`Redis.__del__` closes that pool, cutting a connection in the middle of its handshake
(seen under load as AttributeError: 'NoneType' object has no attribute 'readline').
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


def once(factory: Callable[[], T]) -> Callable[[], T]:
    lock = threading.Lock()
    made: list[T] = []

    @functools.wraps(factory)
    def get() -> T:
        if not made:
            with lock:
                if not made:
                    made.append(factory())
        return made[0]

    return get
