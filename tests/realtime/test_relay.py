"""Embedded mode's relay: a worker's messages reach the web process's groups, signed and recent."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from typing import Any

import orjson
import pytest
from asgiref.sync import async_to_sync
from channels.layers import channel_layers, get_channel_layer
from django.test import Client

from realtime import relay

URL = "/realtime/relay/"
MESSAGE = {"type": "game.message", "text": '{"type":"state"}', "version": 3}


def posted(body: bytes, signature: str | None = None) -> int:
    headers = {relay.SIGNATURE_HEADER: relay._signature(body) if signature is None else signature}
    response = Client().post(URL, body, content_type="application/json", headers=headers)
    return response.status_code


def body(at: float | None = None, messages: Any = None) -> bytes:
    messages = [["game-1-seat0", MESSAGE]] if messages is None else messages
    return orjson.dumps({"at": time.time() if at is None else at, "messages": messages})


@pytest.fixture(autouse=True)
def in_memory_layer(settings: Any) -> Iterator[None]:
    """The embedded mode's layer, whatever this run's (the relay serves only that one)."""
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    channel_layers.backends.clear()
    yield
    channel_layers.backends.clear()


@pytest.fixture
def listener() -> Any:
    layer = get_channel_layer()
    channel = async_to_sync(layer.new_channel)()
    async_to_sync(layer.group_add)("game-1-seat0", channel)
    return layer, channel


def test_a_signed_post_reaches_the_group(listener: Any) -> None:
    layer, channel = listener
    assert posted(body()) == 204
    assert async_to_sync(layer.receive)(channel) == MESSAGE


@pytest.mark.parametrize(
    ("payload", "signature", "status"),
    [
        (body(), "0" * 64, 403),  # not signed with this platform's key
        (body(at=time.time() - 60), None, 403),  # an old post sent again
        (b"not json", None, 400),
        (body(messages=[["only-a-group"]]), None, 400),
    ],
    ids=["forged", "replayed", "malformed", "incomplete"],
)
def test_anything_else_is_refused_and_sends_nothing(
    listener: Any, payload: bytes, signature: str | None, status: int
) -> None:
    layer, channel = listener
    assert posted(payload, signature) == status

    async def nothing() -> bool:
        try:
            await asyncio.wait_for(layer.receive(channel), 0.1)
        except TimeoutError:
            return True
        return False

    assert async_to_sync(nothing)()


def test_a_worker_relays_only_where_it_is_told_to(settings: Any) -> None:
    settings.EMBEDDED_RELAY_URL = ""
    assert relay.relay_url() == ""
    settings.EMBEDDED_RELAY_URL = "http://127.0.0.1:8000/realtime/relay/"
    assert relay.relay_url() == settings.EMBEDDED_RELAY_URL
