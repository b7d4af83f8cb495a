"""Sign-ups per client address: at most SIGNUP_RATE_LIMIT_PER_HOUR in any hour, counted by
realtime.counters (a sliding hour, shared by every web process with Redis)."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest

from realtime.addresses import request_client_address
from realtime.counters import window_has_room, window_take

WINDOW_SECONDS = 3600
KIND = "signups"


def client_address(request: HttpRequest) -> str:
    """The address every limit counts, django-axes' log-in failures included."""
    return request_client_address(request)


def signup_allowed(address: str) -> bool:
    """Whether one more sign-up from `address` fits (a limit of 0 or less: no limit)."""
    limit = int(settings.SIGNUP_RATE_LIMIT_PER_HOUR)
    return window_has_room(KIND, address, limit=limit, seconds=WINDOW_SECONDS)


def signup_take(address: str) -> bool:
    """Count a sign-up from `address` before its account is made; False past the limit.

    Taken in one step, so that parallel sign-ups cannot all see room for the last place.
    A sign-up that then fails (a name taken meanwhile) keeps its place: that is rare, and
    the counter gives nothing back.
    """
    limit = int(settings.SIGNUP_RATE_LIMIT_PER_HOUR)
    return window_take(KIND, address, limit=limit, seconds=WINDOW_SECONDS)
