"""`/health/`: whether this web process can reach what a game needs, and whether time is kept.

For load balancers, compose healthchecks and operators: 200 when the database answers,
the channel layer answers (Redis in production) and a clock keeper beat recently; 503
with the same JSON otherwise, saying which part is down.
"""

from __future__ import annotations

import logging
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import DatabaseError, connection
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from games.clock.faults import timekeeping_status

logger = logging.getLogger(__name__)


def _database_ok() -> bool:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
        return True
    except DatabaseError:
        return False


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


def platform_health() -> dict[str, Any]:
    database = _database_ok()
    clock = timekeeping_status() if database else {"up": False}
    layer = _layer_ok()
    return {
        "ok": database and layer and bool(clock["up"]),
        "database": database,
        "channel_layer": layer,
        "clock_keeper": clock,
    }


@never_cache
@require_GET
def health(request: HttpRequest) -> JsonResponse:
    report = platform_health()
    return JsonResponse(report, status=200 if report["ok"] else 503)
