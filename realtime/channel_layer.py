"""channels_redis's RedisChannelLayer with one reader per process: upstream loses a popped
message when a closing socket's receive is cancelled (django/channels#1683,
django/channels_redis#366; docs/decisions/channel-layer.md).

One task per process pops the messages and fills each socket's buffer; sockets wait only
on their own buffer, so cancelling one cancels nothing that holds a message. A group send
is one Lua script writing what channels_redis writes, and threads without an event loop
send with a blocking client (`group_send_many_blocking`). Upstream's backup queue is left
out: the one reader is cancelled only when the process's layer closes, and whatever it
holds then is for this process's sockets, which are closing too.
"""

from __future__ import annotations

import asyncio
import collections
import functools
import hashlib
import logging
import random
import threading
import time
from typing import Any

import msgpack
import redis
from channels_redis.core import RedisChannelLayer
from channels_redis.serializers import MsgPackSerializer
from redis.asyncio import BlockingConnectionPool
from redis.exceptions import NoScriptError, ResponseError

from infra.mailbox import Mailbox

logger = logging.getLogger(__name__)

RETRY_FIRST_SECONDS = 0.1
RETRY_MAX_SECONDS = 2.0
# The pools wait for a free connection, where redis-py's default refuses the 101st.
POOL_CONNECTIONS = 200
POOL_WAIT_SECONDS = 5.0
# A pooled connection idle this long is pinged before use: one kept from before a Redis
# restart would fail its first request.
HEALTH_CHECK_SECONDS = 5
READ_BATCH = 100
# A blocking send from a thread gives up after this (the caller logs it; pages resync).
BLOCKING_SEND_TIMEOUT_SECONDS = 5.0

# KEYS: the guard's sorted sets, then the groups. ARGV: key prefix, now, oldest group member
# kept, oldest message kept, expiry, capacity, the guard's size; per guard key whether it
# should have a member scored after now (1) or not (0); then per group: random prefix,
# msgpack map header, map entries.
# As channels_redis: a process's sockets share one key per process, and one message per
# key lists its addressees in `__asgi_channel__`; a full key drops the message.
# A guard that does not hold sends nothing and returns what each guard key has (a table).
GROUP_SEND_SCRIPT = """
local prefix, now = ARGV[1], tonumber(ARGV[2])
local members_from, messages_from = ARGV[3], ARGV[4]
local expiry, capacity = tonumber(ARGV[5]), tonumber(ARGV[6])
local guards = tonumber(ARGV[7])
local observed, held = {}, true
for i = 1, guards do
    observed[i] = redis.call('ZCOUNT', KEYS[i], '(' .. ARGV[2], '+inf') > 0 and 1 or 0
    if observed[i] ~= tonumber(ARGV[7 + i]) then held = false end
end
if not held then return observed end
local channel_field = cmsgpack.pack('__asgi_channel__')
local over = 0
for g = guards + 1, #KEYS do
    redis.call('ZREMRANGEBYSCORE', KEYS[g], 0, members_from)
    local addressees, keys = {}, {}
    for _, channel in ipairs(redis.call('ZRANGE', KEYS[g], 0, -1)) do
        local bang = string.find(channel, '!', 1, true)
        local key = prefix .. (bang and string.sub(channel, 1, bang) or channel)
        if addressees[key] == nil then
            addressees[key] = {}
            table.insert(keys, key)
        end
        table.insert(addressees[key], channel)
    end
    local at = 7 + guards + (g - guards - 1) * 3
    for _, key in ipairs(keys) do
        redis.call('ZREMRANGEBYSCORE', key, 0, messages_from)
        if redis.call('ZCARD', key) < capacity then
            local message = ARGV[at + 1] .. ARGV[at + 2] .. channel_field
                .. cmsgpack.pack(addressees[key]) .. ARGV[at + 3]
            -- later groups score later: members of equal score pop in byte order
            redis.call('ZADD', key, now + (g - guards - 1) * 0.000001, message)
            redis.call('EXPIRE', key, expiry)
        else
            over = over + 1
        end
    end
end
return over
"""
GROUP_SEND_SHA = hashlib.sha1(GROUP_SEND_SCRIPT.encode()).hexdigest()


# A send's guard: Redis keys of sorted sets, and whether each should have a live member.
Guard = tuple[list[str], list[bool]]


class GuardChanged(Exception):
    """A guarded send found its guard changed, and sent nothing."""

    def __init__(self, observed: list[bool]) -> None:
        super().__init__(f"the guard has changed: {observed}")
        self.observed = observed


def _map_header(size: int) -> bytes:
    if size < 16:
        return bytes([0x80 | size])
    if size < 2**16:
        return b"\xde" + size.to_bytes(2, "big")
    return b"\xdf" + size.to_bytes(4, "big")


def _map_entries(message: dict[str, Any]) -> bytes:
    """The message as msgpack without its map header: the script adds one more entry."""
    packed = msgpack.packb(message)
    return packed[{0xDE: 3, 0xDF: 5}.get(packed[0], 1) :]


class SteadyRedisChannelLayer(RedisChannelLayer):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.receive_buffer: collections.defaultdict[str, Mailbox] = collections.defaultdict(
            functools.partial(Mailbox, self.capacity)
        )
        self._reader: asyncio.Task[None] | None = None
        self._reader_loop: asyncio.AbstractEventLoop | None = None
        # Buffers nobody waits on (their consumer is gone): evicted once their newest
        # message is older than the layer's expiry, as Redis would have dropped it.
        self._waiting: set[str] = set()
        self._last_put: dict[str, float] = {}
        self._next_eviction = 0.0
        self._blocking_client: redis.Redis | None = None
        self._blocking_lock = threading.Lock()
        self._bzmpop = True  # Redis 7 has it; an older server falls back to BZPOPMIN

    def _pool_options(self, index: int) -> dict[str, Any]:
        """The host's options, with a pool that waits for a free connection by default."""
        host = dict(self.hosts[index])
        host.setdefault("max_connections", POOL_CONNECTIONS)
        host.setdefault("timeout", POOL_WAIT_SECONDS)
        host.setdefault("health_check_interval", HEALTH_CHECK_SECONDS)
        return host

    def create_pool(self, index: int) -> Any:
        if "address" not in self.hosts[index]:
            return super().create_pool(index)
        host = self._pool_options(index)
        return BlockingConnectionPool.from_url(host.pop("address"), **host)

    def _scripted(self) -> bool:
        """Whether the one-script group send applies: messages as channels_redis writes them.

        Sharded hosts, per-channel capacities and encryption keep the upstream path.
        """
        serializer = self._serializer
        return (
            self.ring_size == 1
            and not self.channel_capacity
            and isinstance(serializer, MsgPackSerializer)
            and serializer.crypter is None
            and serializer.random_prefix_length > 0
        )

    def _group_send_call(
        self, messages: list[tuple[str, dict[str, Any]]], only_if: Guard | None = None
    ) -> list[Any]:
        """KEYS and ARGV of GROUP_SEND_SCRIPT for these (group, message) pairs."""
        now = time.time()
        guard_keys, expected = only_if if only_if is not None else ([], [])
        keys: list[Any] = list(guard_keys)
        args: list[Any] = [
            self.prefix,
            now,
            int(now) - self.group_expiry,
            int(now) - int(self.expiry),
            int(self.expiry),
            self.capacity,
            len(guard_keys),
            *(int(bool(present)) for present in expected),
        ]
        size = self._serializer.random_prefix_length
        for group, message in messages:
            assert self.require_valid_group_name(group), "Group name not valid"
            assert "__asgi_channel__" not in message
            keys.append(self._group_key(group))
            args += [random.getrandbits(8 * size).to_bytes(size, "big")]
            args += [_map_header(len(message) + 1), _map_entries(message)]
        return [GROUP_SEND_SHA, len(keys), *keys, *args]

    def _log_over_capacity(self, over: int) -> None:
        if over:
            logger.info("channel layer: %s channels over capacity; messages dropped", over)

    async def group_send(self, group: str, message: dict[str, Any]) -> None:
        await self.group_send_many([(group, message)])

    async def group_add(self, group: str, channel: str) -> bool:
        """channels_redis's `group_add`, saying whether `channel` was missing from the group.

        A Redis restarted without persistence has lost every group: a connection that
        joins its groups again now and then learns so, and what it may have missed.
        """
        assert self.require_valid_group_name(group), "Group name not valid"
        assert self.require_valid_channel_name(channel), "Channel name not valid"
        key = self._group_key(group)
        connection = self.connection(self.consistent_hash(group))
        added = await connection.zadd(key, {channel: time.time()})
        await connection.expire(key, self.group_expiry)
        return bool(added)

    async def group_send_many(self, messages: list[tuple[str, dict[str, Any]]]) -> None:
        """Send each message to its group's members, all in one round trip."""
        if not messages:
            return
        if not self._scripted():
            for group, message in messages:
                await super().group_send(group, message)
            return
        call = self._group_send_call(messages)
        connection = self.connection(0)
        try:
            over = await connection.evalsha(*call)
        except NoScriptError:
            await connection.script_load(GROUP_SEND_SCRIPT)
            over = await connection.evalsha(*call)
        self._log_over_capacity(over)

    def group_send_many_blocking(
        self, messages: list[tuple[str, dict[str, Any]]], *, only_if: Guard | None = None
    ) -> bool:
        """`group_send_many` from a thread without an event loop, with a blocking client.

        False, having sent nothing, where the one-script send does not apply (the caller
        then sends through an event loop). `only_if` is (keys, expected): sorted sets in
        this layer's Redis scored by expiry, and whether each should have a member that has
        not expired. If any has changed, nothing is sent and GuardChanged says what each
        has now: the check and the send are one script, nothing can come in between.
        """
        if not self._scripted():
            return False
        if not messages and only_if is None:
            return True
        client = self._blocking()
        call = self._group_send_call(messages, only_if)
        try:
            result = client.evalsha(*call)
        except NoScriptError:
            client.script_load(GROUP_SEND_SCRIPT)
            result = client.evalsha(*call)
        if isinstance(result, list):
            raise GuardChanged([bool(present) for present in result])
        self._log_over_capacity(result)
        return True

    def group_listened_blocking(self, group: str) -> bool:
        """Whether `group` has a member that has not expired, from a thread (True where
        the one-script send does not apply: the layer then cannot say cheaply)."""
        if not self._scripted():
            return True
        since = int(time.time()) - self.group_expiry
        return bool(self._blocking().zcount(self._group_key(group), since, "+inf"))

    def sends_blocking_from(self, address: str | None) -> bool:
        """Whether `group_send_many_blocking` sends, with guards kept in Redis at `address`."""
        return self._scripted() and address is not None and self.hosts[0].get("address") == address

    def _blocking(self) -> redis.Redis:
        with self._blocking_lock:
            if self._blocking_client is None:
                host = self._pool_options(0)
                host["socket_timeout"] = BLOCKING_SEND_TIMEOUT_SECONDS
                pool = redis.BlockingConnectionPool.from_url(host.pop("address"), **host)
                self._blocking_client = redis.Redis(connection_pool=pool)
            return self._blocking_client

    async def receive(self, channel: str) -> dict[str, Any]:
        if "!" not in channel:
            return await super().receive(channel)
        assert self.require_valid_channel_name(channel)
        self._ensure_reader(self.non_local_name(channel))
        buffer = self.receive_buffer[channel]
        self._waiting.add(channel)
        try:
            message = await buffer.get()
        finally:
            self._waiting.discard(channel)
            if buffer.empty() and self.receive_buffer.get(channel) is buffer:
                del self.receive_buffer[channel]
                self._last_put.pop(channel, None)
        return message

    def _ensure_reader(self, process_channel: str) -> None:
        loop = asyncio.get_running_loop()
        if self._reader is not None and not self._reader.done():
            if self._reader_loop is loop:
                return
            if self._reader_loop is not None and self._reader_loop.is_running():
                raise RuntimeError(
                    "Two event loops are trying to receive() on one channel layer at once!"
                )
        self._reader_loop = loop
        self._reader = loop.create_task(self._read_forever(process_channel))

    async def _read_forever(self, process_channel: str) -> None:
        retry = RETRY_FIRST_SECONDS
        me = asyncio.current_task()
        # A cancellation that redis-py swallowed still ends the loop (the event loop's
        # shutdown would otherwise wait for it for ever).
        while me is None or not me.cancelling():
            try:
                delivered = await self._pop_messages(process_channel)
            except Exception:  # not CancelledError, a BaseException: that one ends the loop
                if retry == RETRY_FIRST_SECONDS:
                    logger.warning("channel layer: reading messages failed; retrying")
                await asyncio.sleep(retry)
                retry = min(RETRY_MAX_SECONDS, retry * 2)
                continue
            retry = RETRY_FIRST_SECONDS
            now = time.monotonic()
            for addressee, message in delivered:
                for name in addressee if isinstance(addressee, list) else [addressee]:
                    self.receive_buffer[name].put_nowait(message)
                    self._last_put[name] = now
            if now >= self._next_eviction:
                self._evict_unread(now)

    async def _pop_messages(self, process_channel: str) -> list[tuple[Any, dict[str, Any]]]:
        """The next messages for this process, oldest first: (addressee(s), message) each.

        Waits up to the layer's blocking time for one; returns [] if none came.
        """
        key = self.prefix + process_channel
        connection = self.connection(self.consistent_hash(process_channel))
        if self._bzmpop:
            try:
                popped = await connection.bzmpop(
                    self.brpop_timeout, 1, [key], min=True, count=READ_BATCH
                )
            except ResponseError as error:
                if "unknown command" not in str(error).lower():
                    raise
                self._bzmpop = False  # Redis before 7.0
                return []
            contents = [member for member, _score in popped[1]] if popped else []
        else:
            popped = await connection.bzpopmin(key, timeout=self.brpop_timeout)
            contents = [popped[1]] if popped else []
        delivered = []
        for content in contents:
            message = self.deserialize(content)
            delivered.append((message.pop("__asgi_channel__", process_channel), message))
        return delivered

    def _evict_unread(self, now: float) -> None:
        self._next_eviction = now + self.expiry
        for name, put_at in list(self._last_put.items()):
            if name not in self._waiting and now - put_at > self.expiry:
                self.receive_buffer.pop(name, None)
                del self._last_put[name]

    async def close_pools(self) -> None:
        if self._reader is not None and self._reader_loop is asyncio.get_running_loop():
            self._reader.cancel()
            await asyncio.gather(self._reader, return_exceptions=True)
            self._reader = None
        with self._blocking_lock:
            client, self._blocking_client = self._blocking_client, None
        if client is not None:
            client.close()
            client.connection_pool.disconnect()
        await super().close_pools()
