"""infra.redis_broker acks a finished task after Celery closed its channel on a Redis restart.

The close clears the channel's connection and its pool; kombu's stock transport then reads
the connection parameters from the cleared connection and raises the AttributeError that
killed the worker under tests/system/test_redis_restart.py.
"""

from __future__ import annotations

import contextlib
import uuid
from collections.abc import Iterator

import pytest
import redis
from django.conf import settings
from kombu import Connection
from kombu.simple import SimpleQueue

pytestmark = pytest.mark.skipif(not settings.REDIS_URL, reason="needs REDIS_URL")

STOCK = "redis"
OURS = "infra.redis_broker:Transport"


@pytest.fixture
def queue_name() -> Iterator[str]:
    name = f"redis-broker-test-{uuid.uuid4().hex}"
    yield name
    client = redis.Redis.from_url(settings.REDIS_URL)
    try:
        client.delete(name, f"_kombu.binding.{name}", f"_kombu.binding_permanent.{name}")
    finally:
        client.close()


def delivered_then_closed(transport: str, queue_name: str) -> tuple[SimpleQueue, int]:
    """A message delivered and unacknowledged when Celery tears the connection down on a
    restart: the transport's client cleared first, then the channel closed, its pools gone."""
    connection = Connection(settings.REDIS_URL, transport=transport)
    queue = connection.SimpleQueue(queue_name)
    queue.put({"n": 1})
    message = queue.get(timeout=5)
    channel = message.channel
    channel.connection.client = None
    with contextlib.suppress(AttributeError):  # the stock put-back (the decision page's other half)
        channel.close()
    channel._disconnect_pools()
    return channel, message.delivery_tag


def test_the_stock_transport_fails_to_ack_once_its_channel_is_closed(queue_name):
    channel, tag = delivered_then_closed(STOCK, queue_name)
    with pytest.raises(AttributeError, match="'NoneType' object has no attribute"):
        channel.qos.ack(tag)


def test_ours_acks_with_the_parameters_the_channel_last_used(queue_name):
    channel, tag = delivered_then_closed(OURS, queue_name)
    client = redis.Redis.from_url(settings.REDIS_URL)
    try:
        assert client.hexists(channel.unacked_key, tag)
        channel.qos.ack(tag)
        assert not client.hexists(channel.unacked_key, tag)
        assert client.zscore(channel.unacked_index_key, tag) is None
    finally:
        client.close()
