"""realtime.channel_layer: a socket that closes never takes another socket's message with it.

Upstream, the consumer that pops its process's next message from Redis can be cancelled
(its socket closed) after Redis popped a message for another consumer, which is then lost
(django/channels#1683). These tests close receivers while messages for others are in
flight, against the real Redis.
"""

from __future__ import annotations

import asyncio
import os
import time
import uuid
from collections.abc import AsyncIterator

import pytest
from channels_redis.core import RedisChannelLayer
from django.conf import settings

from realtime.channel_layer import GuardChanged, SteadyRedisChannelLayer

pytestmark = pytest.mark.skipif(not settings.REDIS_URL, reason="the Redis channel layer")


@pytest.fixture
async def layer() -> AsyncIterator[SteadyRedisChannelLayer]:
    config = settings.CHANNEL_LAYERS["default"]["CONFIG"]
    layer = SteadyRedisChannelLayer(
        **{**config, "prefix": f"test-layer-{os.getpid()}-{uuid.uuid4().hex[:6]}"}
    )
    yield layer
    await layer.flush()


async def test_closing_receivers_lose_no_message_meant_for_others(layer) -> None:
    rounds = 120
    keeper = await layer.new_channel()
    for n in range(rounds):
        # A socket waits for news, then closes just as a message for another one is sent:
        # a sweep of moments around the send, the pop's reply among them.
        leaving = await layer.new_channel()
        wait = asyncio.ensure_future(layer.receive(leaving))
        await asyncio.sleep(0.005)
        sent = asyncio.ensure_future(layer.send(keeper, {"type": "m", "n": n}))
        await asyncio.sleep((n % 12) * 0.0002)
        wait.cancel()
        await sent
    got = [(await asyncio.wait_for(layer.receive(keeper), 5))["n"] for _ in range(rounds)]
    assert got == list(range(rounds))


async def test_group_messages_reach_every_member_in_order(layer) -> None:
    members = [await layer.new_channel() for _ in range(3)]
    for name in members:
        await layer.group_add("table", name)
    for n in range(20):
        await layer.group_send("table", {"type": "m", "n": n})
    for name in members:
        got = [(await asyncio.wait_for(layer.receive(name), 5))["n"] for _ in range(20)]
        assert got == list(range(20))


async def test_messages_for_a_closed_socket_are_dropped_after_the_expiry(layer) -> None:
    gone, alive = await layer.new_channel(), await layer.new_channel()
    await layer.send(gone, {"type": "m"})
    await layer.send(alive, {"type": "m"})
    assert (await asyncio.wait_for(layer.receive(alive), 5))["type"] == "m"
    assert gone in layer.receive_buffer
    layer._evict_unread(time.monotonic() + layer.expiry + 1)
    assert gone not in layer.receive_buffer


async def test_a_burst_beyond_the_pool_waits_for_a_connection_instead_of_failing() -> None:
    config = settings.CHANNEL_LAYERS["default"]["CONFIG"]
    hosts = [{**config["hosts"][0], "max_connections": 2}]
    layer = SteadyRedisChannelLayer(**{**config, "hosts": hosts, "prefix": f"burst-{os.getpid()}"})
    names = [await layer.new_channel() for _ in range(40)]
    await asyncio.gather(*(layer.group_add("burst", name) for name in names))
    await layer.group_send("burst", {"type": "m"})
    for name in names:
        assert (await asyncio.wait_for(layer.receive(name), 5))["type"] == "m"
    await layer.flush()


async def test_one_call_sends_each_group_its_own_message_in_order(layer) -> None:
    seat, watcher = await layer.new_channel(), await layer.new_channel()
    await layer.group_add("seat", seat)
    await layer.group_add("watch", watcher)
    await layer.group_add("all", seat)
    await layer.group_add("all", watcher)
    # Big enough for msgpack's longer headers, with more fields than a one-byte map header.
    many = {f"k{i}": i for i in range(20)}
    await layer.group_send_many(
        [
            ("seat", {"type": "m", "who": "seat", "text": "x" * 70_000}),
            ("watch", {"type": "m", "who": "watch", **many}),
            ("all", {"type": "m", "who": "all"}),
        ]
    )
    first = await asyncio.wait_for(layer.receive(seat), 5)
    assert (first["who"], len(first["text"])) == ("seat", 70_000)
    assert (await asyncio.wait_for(layer.receive(seat), 5))["who"] == "all"
    watched = await asyncio.wait_for(layer.receive(watcher), 5)
    assert watched == {"type": "m", "who": "watch", **many}
    assert (await asyncio.wait_for(layer.receive(watcher), 5))["who"] == "all"


async def test_a_thread_sends_without_an_event_loop(layer) -> None:
    member = await layer.new_channel()
    await layer.group_add("table", member)
    sent = await asyncio.to_thread(layer.group_send_many_blocking, [("table", {"type": "m"})])
    assert sent is True
    assert await asyncio.wait_for(layer.receive(member), 5) == {"type": "m"}


async def test_a_guarded_send_goes_only_while_its_guard_holds(layer) -> None:
    """The check and the send are one script: a changed guard sends nothing, and says why."""
    import redis

    member = await layer.new_channel()
    await layer.group_add("table", member)
    client = redis.Redis.from_url(settings.REDIS_URL)
    live, gone = f"{layer.prefix}:guard:live", f"{layer.prefix}:guard:gone"
    client.zadd(live, {"socket": time.time() + 60})
    client.zadd(gone, {"socket": time.time() - 1})  # expired: not there any more
    try:
        send = layer.group_send_many_blocking
        with pytest.raises(GuardChanged) as changed:
            await asyncio.to_thread(
                send, [("table", {"type": "m", "n": 1})], only_if=([live, gone], [True, True])
            )
        assert changed.value.observed == [True, False]
        with pytest.raises(GuardChanged):  # nothing to send still checks who is there
            await asyncio.to_thread(send, [], only_if=([live, gone], [False, False]))
        sent = await asyncio.to_thread(
            send, [("table", {"type": "m", "n": 2})], only_if=([live, gone], [True, False])
        )
        assert sent is True
        assert (await asyncio.wait_for(layer.receive(member), 5))["n"] == 2
        with pytest.raises(TimeoutError):
            await asyncio.wait_for(layer.receive(member), 0.3)
    finally:
        client.delete(live, gone)
        client.close()


async def test_what_it_sends_is_what_channels_redis_reads(layer) -> None:
    # The script writes the messages itself: a stock layer must read them as its own.
    stock = RedisChannelLayer(
        **{**settings.CHANNEL_LAYERS["default"]["CONFIG"], "prefix": layer.prefix}
    )
    member = await stock.new_channel()
    await layer.group_add("table", member)
    await layer.group_send("table", {"type": "m", "n": 1})
    assert await asyncio.wait_for(stock.receive(member), 5) == {"type": "m", "n": 1}
    await stock.close_pools()


async def test_a_full_socket_drops_what_comes_beyond_its_capacity(layer) -> None:
    layer.capacity = 3
    member = await layer.new_channel()
    await layer.group_add("table", member)
    for n in range(5):
        await layer.group_send("table", {"type": "m", "n": n})
    got = [(await asyncio.wait_for(layer.receive(member), 5))["n"] for _ in range(3)]
    assert got == [0, 1, 2]
    with pytest.raises(TimeoutError):
        await asyncio.wait_for(layer.receive(member), 0.5)


async def test_encrypted_layers_keep_the_upstream_send() -> None:
    config = settings.CHANNEL_LAYERS["default"]["CONFIG"]
    layer = SteadyRedisChannelLayer(
        **{**config, "prefix": f"crypt-{os.getpid()}", "symmetric_encryption_keys": ["k"]}
    )
    member = await layer.new_channel()
    await layer.group_add("table", member)
    assert layer.group_send_many_blocking([("table", {"type": "m"})]) is False
    await layer.group_send_many([("table", {"type": "m", "n": 2})])
    assert await asyncio.wait_for(layer.receive(member), 5) == {"type": "m", "n": 2}
    await layer.flush()


async def test_the_reader_takes_a_backlog_in_batches(layer) -> None:
    member = await layer.new_channel()
    await layer.group_add("table", member)
    for n in range(250):
        await layer.group_send("table", {"type": "m", "n": n})
    batches = await layer._pop_messages(layer.non_local_name(member))
    assert [message["n"] for _addressees, message in batches] == list(range(100))
