"""The JSON socket every page's WebSocket is: sign-in, groups, rate limits, parsing, replies.

The game socket (games.live.consumer), the user socket (user_socket.consumer, through
realtime.parts) and the arena socket (tournaments.consumers) build on `JsonSocketConsumer`;
docs/protocol.md lists the messages.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
import weakref
from collections.abc import Mapping
from typing import Any

from asgiref.sync import sync_to_async
from channels.consumer import get_handler_name
from channels.db import database_sync_to_async
from channels.exceptions import ChannelFull, StopConsumer
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.db import Error as DatabaseError
from django.utils import translation
from django.utils.translation.trans_real import parse_accept_lang_header
from redis.exceptions import RedisError

from realtime import fastjson
from realtime.characters import json_holds_refused_character
from realtime.database_watch import DatabaseWatch, database_reachable
from realtime.errors import message_for
from realtime.messages import (
    RequestId,
    error_message,
    is_request_id,
    pong_message,
    service_message,
)
from realtime.ratelimit import RateLimiter, SharedBudget

logger = logging.getLogger(__name__)


def in_pool(func: Any) -> Any:
    """Run a service in the thread pool rather than Channels' one sync thread per process,
    which would serialize every game's moves (docs/decisions/daphne-entry-point.md).

    The services need no thread affinity: each call is one transaction on its thread's own
    connection. SQLite keeps the one thread, since it serializes writers anyway. The engine
    is read from the settings: `django.db.connection` touched on the event loop makes a
    connection object for each socket's context (a few KB each, never used).
    """
    sqlite = settings.DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3"
    return database_sync_to_async(func, thread_sensitive=sqlite)


MAX_MESSAGE_CHARS = 4096
# Close codes sent after accepting, since a refused handshake reaches a browser as a bare
# 1006: 44xx "do not retry", 4503 "try again later" (docs/decisions/close-code-4503.md).
CLOSE_UNAUTHENTICATED = 4401
CLOSE_FORBIDDEN = 4403
CLOSE_NOT_FOUND = 4404
CLOSE_TRY_AGAIN_LATER = 4503
# What a socket that ended without a close frame is said to have closed with (RFC 6455).
CLOSE_ABNORMAL = 1006
# How often a user socket checks that the channel layer still has its groups (check_groups).
GROUPS_CHECK_SECONDS = 10.0

# What a database or channel-layer (Redis) outage raises: answered with `unavailable` (or
# closed with 4503 while connecting) rather than crashing the consumer into a bare 1011.
UNAVAILABLE_ERRORS: tuple[type[BaseException], ...] = (
    DatabaseError,
    RedisError,
    ChannelFull,
    OSError,
    asyncio.TimeoutError,
)


# Tells this process's game sockets when the database goes away and comes back.
DATABASE_WATCH = DatabaseWatch(lambda: in_pool(database_reachable)())


class GroupsKeeper:
    """One task per event loop that has every socket it keeps `check_groups` once every
    `GROUPS_CHECK_SECONDS`, a tenth of them each tenth of that: a task per socket cost
    about 2 KB each, of the 40 a user socket may take (bench/sockets.py)."""

    SLICES = 10

    def __init__(self) -> None:
        self.slices: list[weakref.WeakSet[JsonSocketConsumer]] = [
            weakref.WeakSet() for _ in range(self.SLICES)
        ]
        self.checking: dict[JsonSocketConsumer, asyncio.Task[None]] = {}
        self.added = 0
        self.turn = 0
        self.task: asyncio.Task[None] | None = None

    def keep(self, socket: JsonSocketConsumer) -> None:
        self.slices[self.added % self.SLICES].add(socket)
        self.added += 1
        loop = asyncio.get_running_loop()
        if self.task is None or self.task.done() or self.task.get_loop() is not loop:
            self.task = loop.create_task(self._run())

    async def drop(self, socket: JsonSocketConsumer) -> None:
        """Stop keeping `socket`, and wait for its check underway, if any, to be cancelled."""
        for kept in self.slices:
            kept.discard(socket)
        task = self.checking.pop(socket, None)
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def _run(self) -> None:
        while any(self.slices):
            await asyncio.sleep(GROUPS_CHECK_SECONDS / self.SLICES)
            kept = list(self.slices[self.turn])
            self.turn = (self.turn + 1) % self.SLICES
            checks = [asyncio.ensure_future(socket.check_groups()) for socket in kept]
            self.checking.update(zip(kept, checks, strict=True))
            await asyncio.gather(*checks, return_exceptions=True)
            for socket in kept:
                self.checking.pop(socket, None)


GROUPS_KEEPER = GroupsKeeper()


def scope_language(scope: dict[str, Any]) -> str:
    """The language of the page that opened the socket: its cookie, else Accept-Language."""
    supported = {code for code, _name in settings.LANGUAGES}
    cookie = scope.get("cookies", {}).get(settings.LANGUAGE_COOKIE_NAME)
    if cookie in supported:
        return cookie
    for name, value in scope.get("headers", []):
        if name == b"accept-language":
            for lang, _q in parse_accept_lang_header(value.decode("latin-1")):
                base = lang.split("-")[0].lower()
                if base in supported:
                    return base
    return settings.LANGUAGE_CODE


def echo_id(value: Any) -> RequestId | None:
    """A request id fit to send back, else nothing."""
    return value if is_request_id(value) else None


class JsonSocketConsumer(AsyncWebsocketConsumer):
    """What every socket shares: the signed-in check, groups, rate limit, parsing, replies."""

    language: str
    limiter: RateLimiter | None = None  # made at the socket's first message
    groups_joined: list[str]
    groups_missed = False  # whether the last check of the groups could not reach the layer
    # The game whose shared budget this connection's messages count against (players only).
    budget_game_id: int | None = None
    shared_budget: SharedBudget | None = None
    # Whether `connect` began, and whether `disconnect` has run: it runs exactly once.
    connecting = False
    ended = False

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        """Channels' consumer, with its disconnect step run however the socket ends.

        A send to a client that has just gone raises, as can any handler, and Channels then
        leaves without `websocket_disconnect`: the socket's groups and presence would live on.
        """
        try:
            await super().__call__(scope, receive, send)
        finally:
            await self.end(CLOSE_ABNORMAL)

    async def websocket_disconnect(self, message: dict[str, Any]) -> None:
        await self.end(message.get("code", CLOSE_ABNORMAL))
        raise StopConsumer()

    async def end(self, code: int) -> None:
        """Run `disconnect` once, if `connect` began."""
        if self.ended or not self.connecting:
            return
        self.ended = True
        try:
            await self.disconnect(code)
        except Exception:
            logger.exception("WebSocket disconnect step failed")

    async def open_for_user(self) -> bool:
        """Refuse anonymous users (4401); False when the socket was closed."""
        self.groups_joined = []
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            await self.refuse(CLOSE_UNAUTHENTICATED)
            return False
        self.language = scope_language(self.scope)
        return True

    async def refuse(self, code: int) -> None:
        """Accept, then close with `code`, so that the page learns why (see CLOSE_*)."""
        await self.accept()
        await self.close(code=code)

    async def connect_or_close(self) -> None:
        """Run `open` (the consumer's connect); an outage closes with 4503, not 1011."""
        self.connecting = True
        try:
            await self.open()
        except UNAVAILABLE_ERRORS:
            logger.exception("WebSocket connect failed: database or channel layer unavailable")
            await self.leave_groups_quietly()
            if getattr(self, "accepted", False):
                await self.close(code=CLOSE_TRY_AGAIN_LATER)
            else:
                await self.refuse(CLOSE_TRY_AGAIN_LATER)

    async def open(self) -> None:
        raise NotImplementedError

    async def dispatch(self, message: dict[str, Any]) -> None:
        """Channels' dispatch without its `close_old_connections` before every message.

        That ran on the process's one sync thread and queued every socket on it; these
        consumers touch the database only through `in_pool`, which closes obsolete
        connections itself, on the thread that uses them.
        """
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    async def accept(self, subprotocol: str | None = None) -> None:
        await super().accept(subprotocol)
        self.accepted = True

    async def answer_or_unavailable(self, data: dict[str, Any] | None, handle: Any) -> None:
        """Run `handle(data)`; an outage answers `unavailable` with the request's id.

        The page then retries the same request id later: the game service is idempotent on
        (game, user, request id), so a request that did commit is not applied twice.
        """
        try:
            await handle(data)
        except UNAVAILABLE_ERRORS:
            logger.exception("WebSocket request failed: database or channel layer unavailable")
            await self.send_error("unavailable", data.get("id") if data else None)

    async def leave_groups_quietly(self) -> None:
        try:
            await self.leave_groups()
        except UNAVAILABLE_ERRORS:
            logger.warning("could not leave the channel-layer groups (unavailable)")

    async def join_group(self, group: str) -> None:
        await self.channel_layer.group_add(group, self.channel_name)
        self.groups_joined.append(group)

    async def rejoin_groups(self) -> bool:
        """Join this connection's groups again; True if the layer had lost any of them."""
        lost = False
        for group in self.groups_joined:
            # The Redis layer says whether it had lost the membership; the in-memory one,
            # which cannot lose it, says nothing (None).
            added = await self.channel_layer.group_add(group, self.channel_name)
            lost = bool(added) or lost
        return lost

    async def check_groups(self) -> None:
        """Join the groups again (every `GROUPS_CHECK_SECONDS`, GROUPS_KEEPER), and `resync`
        after a loss.

        A Redis restarted without persistence has lost them, and whatever was sent to
        them meanwhile; so has a Redis that could not be reached. For sockets that have
        nothing else to notice it by (the game sockets have their presence refresh).
        """
        try:
            if await self.rejoin_groups() or self.groups_missed:
                await self.resync()
            self.groups_missed = False
        except UNAVAILABLE_ERRORS:
            self.groups_missed = True

    def start_keeping_groups(self) -> None:
        """Once open: have GROUPS_KEEPER `check_groups`, and hear of the database leaving
        and returning (DATABASE_WATCH), until `stop_keeping_groups`."""
        GROUPS_KEEPER.keep(self)
        DATABASE_WATCH.watch(self)

    async def stop_keeping_groups(self) -> None:
        """Undo `start_keeping_groups`, and leave every group."""
        DATABASE_WATCH.unwatch(self)
        await GROUPS_KEEPER.drop(self)
        await self.leave_groups_quietly()

    async def resync(self) -> None:
        """Send this connection afresh what it may have missed (see check_groups)."""
        raise NotImplementedError

    def database_notice(self) -> str:
        """What this page's user is told while the database is away (in their language)."""
        raise NotImplementedError

    async def database_changed(self, reachable: bool) -> None:
        """Say that nothing can be saved for now; or that it can again, and `resync`.

        Called by DATABASE_WATCH for every socket of the process that watches it.
        """
        notice = None
        if not reachable:
            with translation.override(self.language):
                notice = self.database_notice()
        await self.send_json(service_message(reachable, notice))
        if reachable:
            await self.resync()

    async def leave_groups(self) -> None:
        for group in self.groups_joined:
            await self.channel_layer.group_discard(group, self.channel_name)

    async def read_message(
        self, text_data: str | None, bytes_data: bytes | None
    ) -> dict[str, Any] | None:
        """The message, or None once `rate_limited` or `bad_request` has been answered.

        Parsed first (the frame is size-bounded, so this is cheap) so that a refusal can
        name the request it refuses: the page then knows which of its requests to retry.
        """
        data = self.parse(text_data, bytes_data)
        if not await self.within_budget(shared=not self.budget_checked_later(data)):
            await self.send_error("rate_limited", data.get("id") if data else None)
            return None
        if data is None:
            await self.send_error("bad_request")
        return data

    def budget_checked_later(self, data: dict[str, Any] | None) -> bool:
        """Whether this message's shared budget is taken where it is served (see below)."""
        return False

    async def within_budget(self, *, shared: bool = True) -> bool:
        """The connection's own budget, then the user's and the game's across all processes."""
        if self.limiter is None:
            self.limiter = RateLimiter()
        if not self.limiter.allow():
            return False
        if not shared:
            return True
        return await sync_to_async(self.within_shared_budget, thread_sensitive=False)()

    def within_shared_budget(self) -> bool:
        """The user's and the game's budgets; called off the loop, one message at a time.

        With Redis, a round trip every few messages (realtime.ratelimit.SharedBudget).
        """
        if self.shared_budget is None:
            self.shared_budget = SharedBudget(
                user_id=self.scope["user"].pk,
                game_id=self.budget_game_id,
            )
        try:
            return self.shared_budget.allow()
        except UNAVAILABLE_ERRORS:
            # The cache (Redis) is down: the per-connection budget above still holds, and
            # refusing every message would stop every game for an outage of a counter.
            logger.warning("rate-limit cache unavailable; only per-connection limits apply")
            return True

    async def send_pong(self) -> None:
        await self.send_json(pong_message(round(time.time() * 1000)))

    async def send_json(self, content: Mapping[str, Any]) -> None:
        """A message of this socket's vocabulary (realtime.messages, the app's messages)."""
        await self.send(text_data=fastjson.dumps_text(content))

    def error_text(self, code: str) -> str:
        """The human text of an error code, in the active language; apps add their codes."""
        return str(message_for(code))

    async def send_error(self, code: str, request_id: Any = None) -> None:
        with translation.override(self.language):
            message = self.error_text(code)
        await self.send_json(error_message(code, echo_id(request_id), message))

    def parse(self, text_data: str | None, bytes_data: bytes | None) -> dict[str, Any] | None:
        """The message as a dict, or None when it is too big, not JSON, not an object, or
        holds a character no text of ours can hold."""
        if text_data is None or bytes_data is not None or len(text_data) > MAX_MESSAGE_CHARS:
            return None
        if json_holds_refused_character(text_data):  # NUL: no text of ours can hold it
            return None
        try:
            data = fastjson.loads_untrusted(text_data)
        except ValueError:
            return None
        return data if isinstance(data, dict) else None
