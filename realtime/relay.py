"""Embedded mode's fan-out between processes: the in-memory channel layer is one process's, so
a worker posts a change's messages to the web process over the loopback, signed with the
secret key, and the web process sends them to its sockets' groups (Redis does this in
production; docs/architecture.md, run modes)."""

from __future__ import annotations

import hashlib
import hmac
import logging
import time
import urllib.error
import urllib.request
from collections.abc import Mapping, Sequence
from typing import Any

import orjson
from channels.layers import InMemoryChannelLayer, get_channel_layer
from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST

logger = logging.getLogger(__name__)

SIGNATURE_HEADER = "X-Relay-Signature"
# A signed post older than this is refused: a copy of one cannot be sent again later.
MAX_AGE_SECONDS = 10.0
MAX_BODY_BYTES = 4 * 1024 * 1024
POST_TIMEOUT_SECONDS = 2.0


def _signature(body: bytes) -> str:
    return hmac.new(settings.SECRET_KEY.encode(), body, hashlib.sha256).hexdigest()


def relay_url() -> str:
    """Where this process posts its messages: set for the worker in embedded mode only."""
    url: str = settings.EMBEDDED_RELAY_URL
    return url if url and isinstance(get_channel_layer(), InMemoryChannelLayer) else ""


def relay_post(url: str, messages: Sequence[tuple[str, Mapping[str, Any]]]) -> None:
    """Post the messages to the web process; a failure is logged, and the pages resync."""
    body = orjson.dumps({"at": time.time(), "messages": [[g, dict(m)] for g, m in messages]})
    request = urllib.request.Request(
        url,
        data=body,
        headers={"Content-Type": "application/json", SIGNATURE_HEADER: _signature(body)},
        method="POST",
    )
    try:
        with urllib.request.urlopen(request, timeout=POST_TIMEOUT_SECONDS) as response:
            response.read()
    except (OSError, urllib.error.URLError):
        logger.warning("could not relay %s messages to the web process", len(messages))


@csrf_exempt
@require_POST
async def relay(request: HttpRequest) -> HttpResponse:
    """The web process's end: a signed, recent post's messages to this process's groups.

    Async, so that a post goes straight to the layer on the server's loop rather than
    through the thread that Django's synchronous views share."""
    layer = get_channel_layer()
    if not isinstance(layer, InMemoryChannelLayer):
        return HttpResponse(status=404)
    body = request.body
    if len(body) > MAX_BODY_BYTES:
        return HttpResponse(status=413)
    given = request.headers.get(SIGNATURE_HEADER, "")
    if not hmac.compare_digest(given, _signature(body)):
        return HttpResponse(status=403)
    try:
        post = orjson.loads(body)
        at, messages = float(post["at"]), post["messages"]
        pairs = [(str(group), dict(message)) for group, message in messages]
    except (ValueError, KeyError, TypeError):
        return HttpResponse(status=400)
    if abs(time.time() - at) > MAX_AGE_SECONDS:
        return HttpResponse(status=403)
    for group, message in pairs:
        await layer.group_send(group, message)
    return HttpResponse(status=204)
