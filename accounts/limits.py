"""Sign-ups per client address: at most SIGNUP_RATE_LIMIT_PER_HOUR in any hour.

Counted in the Django cache (Redis in production, shared by every web process; the
process's memory embedded) in two fixed hours, the current one and the one before, which
is weighted by how much of it still lies within the last 60 minutes: a sliding hour
without keeping one entry per sign-up.
"""

from __future__ import annotations

import contextlib
import time

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest

from realtime.addresses import request_client_address

WINDOW_SECONDS = 3600
KEY_PREFIX = "signups"
# An hour's count is read during that hour and the next.
KEY_SECONDS = 2 * WINDOW_SECONDS + 60


def client_address(request: HttpRequest) -> str:
    """The address every limit counts, django-axes' log-in failures included."""
    return request_client_address(request)


def _limit() -> int:
    return int(settings.SIGNUP_RATE_LIMIT_PER_HOUR)


def _keys(address: str, now: float) -> tuple[str, str, float]:
    """The current hour's key, the previous hour's, and the previous hour's weight."""
    window, offset = divmod(now, WINDOW_SECONDS)
    current = f"{KEY_PREFIX}:{address}:{int(window)}"
    previous = f"{KEY_PREFIX}:{address}:{int(window) - 1}"
    return current, previous, 1.0 - offset / WINDOW_SECONDS


def _count(address: str, now: float) -> float:
    current, previous, weight = _keys(address, now)
    counts = cache.get_many([current, previous])
    return float(counts.get(current, 0)) + weight * float(counts.get(previous, 0))


def signup_allowed(address: str, *, now: float | None = None) -> bool:
    """Whether one more sign-up from `address` fits (a limit of 0 or less: no limit)."""
    if _limit() <= 0:
        return True
    return _count(address, time.time() if now is None else now) + 1 <= _limit()


def signup_take(address: str, *, now: float | None = None) -> str | None:
    """Count a sign-up from `address` before it is made: the key to give it back with
    (signup_give_back) if the account is not created, or None past the limit."""
    if _limit() <= 0:
        return ""
    now = time.time() if now is None else now
    current, previous, weight = _keys(address, now)
    # add, else incr, each atomic in Redis: the count returned is this sign-up's own place.
    count = 1
    if not cache.add(current, 1, timeout=KEY_SECONDS):
        try:
            count = cache.incr(current)
        except ValueError:  # expired between the two calls
            cache.add(current, 1, timeout=KEY_SECONDS)
    if count + weight * float(cache.get(previous, 0)) > _limit():
        signup_give_back(current)
        return None
    return current


def signup_give_back(key: str) -> None:
    """Return a place taken by signup_take (the account was not created after all)."""
    if not key:
        return
    with contextlib.suppress(ValueError):  # the hour's count expired: nothing to give back
        cache.decr(key)
