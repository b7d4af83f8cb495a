"""The fan-out: a change's messages to the channel-layer groups of its sockets, at once."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings

from realtime.channel_layer import Guard
from realtime.relay import relay_post, relay_url


def group_send_all(
    messages: Sequence[tuple[str, Mapping[str, Any]]], *, only_if: Guard | None = None
) -> None:
    """All of a change's messages at once, from the thread that made the change.

    The platform's Redis layer sends them all in one round trip with a blocking client
    (realtime.channel_layer), without a hop to an event loop and back; `only_if` is then
    checked in the same script (GuardChanged when it does not hold). Other layers go
    through an event loop, and take no guard: the in-memory one must, its queues belong
    to the loop that reads them.
    """
    layer = get_channel_layer()
    # Nothing to send still checks a guard: nobody listening may no longer be so.
    if layer is None or not (messages or only_if):
        return
    url = relay_url()
    if url and messages:  # an embedded worker: its sockets are in the web process
        relay_post(url, messages)
        return
    send_blocking = getattr(layer, "group_send_many_blocking", None)
    if send_blocking is not None and send_blocking(messages, only_if=only_if):
        return
    assert only_if is None, "only the Redis layer's blocking send checks a guard"

    async def send_all() -> None:
        await asyncio.gather(*(layer.group_send(group, message) for group, message in messages))

    async_to_sync(send_all)()


def group_listened(group: str) -> bool:
    """Whether any socket is in `group`, so that a list nobody watches is not read; True
    when the layer cannot tell (an embedded worker, whose sockets are in the web process)."""
    layer = get_channel_layer()
    if layer is None:
        return False
    if relay_url():
        return True
    listened = getattr(layer, "group_listened_blocking", None)
    if listened is not None:
        return bool(listened(group))
    groups = getattr(layer, "groups", None)  # the in-memory layer's members, by group
    return bool(groups.get(group)) if isinstance(groups, dict) else True


def guarded_sends() -> bool:
    """Whether sends can check the presence they were composed for (a guard on presence)."""
    layer = get_channel_layer()
    sends_blocking_from = getattr(layer, "sends_blocking_from", None)
    return sends_blocking_from is not None and sends_blocking_from(settings.REDIS_URL)
