"""`/health/`: whether this web process can reach what a game needs, and whether time is kept.

For load balancers, compose healthchecks and operators: 200 when the database answers,
the channel layer answers (Redis in production) and a clock keeper beat recently; 503
with the same JSON otherwise, saying which part is down ("away": its names).

Anyone gets the status and each part's ok or failing; staff also get the details (the
clock keeper's host and process, the beat's age, this web process). Reading who asks
needs the database, so while it is away everyone gets the anonymous answer.
"""

from __future__ import annotations

import logging
import os
import socket
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import DatabaseError
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from games.clock.faults import timekeeping_status
from realtime.database_watch import database_reachable

logger = logging.getLogger(__name__)


def _layer_ok() -> bool:
    layer = get_channel_layer()
    if layer is None:
        return False
    try:
        # A round trip through the layer: a message to a fresh channel of this process.
        async def round_trip() -> None:
            channel = await layer.new_channel()
            await layer.send(channel, {"type": "health.ping"})
            await layer.receive(channel)

        async_to_sync(round_trip)()
        return True
    except Exception:
        logger.warning("health: channel layer unreachable", exc_info=True)
        return False


COMPONENTS = ("database", "channel_layer", "clock_keeper")


def platform_health() -> dict[str, Any]:
    """The full report: each part's state, and the clock keeper's details."""
    database = database_reachable()
    clock = timekeeping_status() if database else {"up": False}
    layer = _layer_ok()
    up = {"database": database, "channel_layer": layer, "clock_keeper": bool(clock["up"])}
    return {
        "ok": all(up.values()),
        "away": [name for name in COMPONENTS if not up[name]],
        "database": database,
        "channel_layer": layer,
        "clock_keeper": clock,
    }


def public_health(report: dict[str, Any]) -> dict[str, Any]:
    """What anyone may read: the status and each part's ok or failing, no host nor age."""
    return {**report, "clock_keeper": {"up": bool(report["clock_keeper"]["up"])}}


def _is_staff(request: HttpRequest) -> bool:
    try:
        return bool(getattr(request.user, "is_staff", False))
    except DatabaseError:  # the session or the user cannot be read: an anonymous answer
        return False


@never_cache
@require_GET
def health(request: HttpRequest) -> JsonResponse:
    report = platform_health()
    # Who asks is read only once the database has answered: no second wait for it.
    if report["database"] and _is_staff(request):
        report["web"] = {"host": socket.gethostname(), "pid": os.getpid()}
    else:
        report = public_health(report)
    return JsonResponse(report, status=200 if report["ok"] else 503)
