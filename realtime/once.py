"""A factory's one result per process, built under a lock.

Not functools.cache, which lets two first callers both build: redis-py's `Redis.__del__`
then closes the discarded client's pool while its caller still uses it
(docs/decisions/channel-layer.md).
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
