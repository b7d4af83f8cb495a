"""WebSocket consumers: a thin protocol layer over the services (no rule lives here).

`GameConsumer` (/ws/games/<id>/) speaks the protocol of design.md. The lobby's socket
(lobby.consumers) builds on `JsonProtocolMixin` here.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import Any

from asgiref.sync import sync_to_async
from channels.consumer import get_handler_name
from channels.db import database_sync_to_async
from channels.exceptions import ChannelFull
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.db import Error as DatabaseError
from django.db import connection
from django.utils import translation
from django.utils.translation.trans_real import parse_accept_lang_header
from redis.exceptions import RedisError

from games import fastjson, presence, services, timebase
from games.audiences import audience_seats, game_audience, game_get, game_group
from games.broadcast import broadcast_presence, message_text, state_message
from games.database_watch import DatabaseWatch, database_reachable
from games.errors import message_for
from games.faults import fault_threshold
from games.ratelimit import RateLimiter, SharedBudget
from games.replay import game_events

logger = logging.getLogger(__name__)


def in_pool(func: Any) -> Any:
    """Run a service in the thread pool rather than the one shared sync thread (PostgreSQL).

    database_sync_to_async defaults to a single thread per process, which would serialize
    every game's moves; the services need no thread affinity (each call is one transaction
    on its thread's own connection, which database_sync_to_async closes when obsolete).
    SQLite serializes writers anyway, and threads queueing on its lock only add latency, so
    there the single thread is kept.
    """
    return database_sync_to_async(func, thread_sensitive=connection.vendor == "sqlite")


MAX_MESSAGE_CHARS = 4096
# Close codes the pages understand. A refused handshake (closing before accepting) reaches a
# browser as a bare 1006, which it cannot tell from a network blip, so these are sent after
# accepting: the 44xx codes mean "do not retry", 4503 "try again later". (Not 1013, the
# standard's "try again later": autobahn lets an application send only 1000 and 3000-4999,
# and Daphne turned the refused 1013 into 1011 with a traceback.)
CLOSE_UNAUTHENTICATED = 4401
CLOSE_FORBIDDEN = 4403
CLOSE_NOT_FOUND = 4404
CLOSE_TRY_AGAIN_LATER = 4503
# While Redis is away, how often a game socket reads its game (GameConsumer.keep_presence).
POLL_SECONDS = 1.0
# How often a lobby socket checks that the channel layer still has its groups (keep_groups).
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


def _scope_language(scope: dict[str, Any]) -> str:
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


def echo_id(value: Any) -> str | int | None:
    """A request id fit to send back, else nothing."""
    return value if services.is_request_id(value) else None


class JsonProtocolMixin:
    """What both consumers share: the signed-in check, groups, rate limit, parsing, replies."""

    language: str
    limiter: RateLimiter
    groups_joined: list[str]
    # The game whose shared budget this connection's messages count against (players only).
    budget_game_id: int | None = None
    shared_budget: SharedBudget | None = None

    async def open_for_user(self) -> bool:
        """Refuse anonymous users (4401); False when the socket was closed."""
        self.groups_joined = []
        user = self.scope.get("user")  # type: ignore[attr-defined]
        if user is None or not user.is_authenticated:
            await self.refuse(CLOSE_UNAUTHENTICATED)
            return False
        self.language = _scope_language(self.scope)  # type: ignore[attr-defined]
        self.limiter = RateLimiter()
        return True

    async def refuse(self, code: int) -> None:
        """Accept, then close with `code`, so that the page learns why (see CLOSE_*)."""
        await self.accept()  # type: ignore[attr-defined]
        await self.close(code=code)  # type: ignore[attr-defined]

    async def connect_or_close(self) -> None:
        """Run `open` (the consumer's connect); an outage closes with 4503, not 1011."""
        try:
            await self.open()
        except UNAVAILABLE_ERRORS:
            logger.exception("WebSocket connect failed: database or channel layer unavailable")
            await self.leave_groups_quietly()
            if getattr(self, "accepted", False):
                await self.close(code=CLOSE_TRY_AGAIN_LATER)  # type: ignore[attr-defined]
            else:
                await self.refuse(CLOSE_TRY_AGAIN_LATER)

    async def open(self) -> None:
        raise NotImplementedError

    async def dispatch(self, message: dict[str, Any]) -> None:
        """Channels' dispatch minus its `close_old_connections` before every message.

        Channels runs that on the process's one sync thread for each frame and each layer
        message, so every socket of the process queued on it. These consumers never touch
        the database on the event loop: each database call goes through
        database_sync_to_async (`in_pool`), which closes obsolete connections itself, on
        the thread that uses them.
        """
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    async def accept(self, subprotocol: str | None = None) -> None:
        await super().accept(subprotocol)  # type: ignore[misc]
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
        await self.channel_layer.group_add(group, self.channel_name)  # type: ignore[attr-defined]
        self.groups_joined.append(group)

    async def rejoin_groups(self) -> bool:
        """Join this connection's groups again; True if the layer had lost any of them."""
        lost = False
        for group in self.groups_joined:
            # The Redis layer says whether it had lost the membership; the in-memory one,
            # which cannot lose it, says nothing (None).
            added = await self.channel_layer.group_add(group, self.channel_name)  # type: ignore[attr-defined]
            lost = bool(added) or lost
        return lost

    async def keep_groups(self) -> None:
        """Join the groups again every `GROUPS_CHECK_SECONDS`, and `resync` after a loss.

        A Redis restarted without persistence has lost them, and whatever was sent to
        them meanwhile; so has a Redis that could not be reached. For sockets that have
        nothing else to notice it by (the game sockets have their presence refresh).
        """
        missed = False
        while True:
            await asyncio.sleep(GROUPS_CHECK_SECONDS)
            try:
                if await self.rejoin_groups() or missed:
                    await self.resync()
                missed = False
            except UNAVAILABLE_ERRORS:
                missed = True

    async def resync(self) -> None:
        """Send this connection afresh what it may have missed (see keep_groups)."""
        raise NotImplementedError

    def database_notice(self) -> str:
        """What this page's user is told while the database is away (in their language)."""
        raise NotImplementedError

    async def database_changed(self, reachable: bool) -> None:
        """Say that nothing can be saved for now; or that it can again, and `resync`.

        Called by DATABASE_WATCH for every socket of the process that watches it.
        """
        message: dict[str, Any] = {"type": "service", "database": reachable}
        if not reachable:
            with translation.override(self.language):
                message["message"] = self.database_notice()
        await self.send_json(message)
        if reachable:
            await self.resync()

    async def leave_groups(self) -> None:
        for group in self.groups_joined:
            await self.channel_layer.group_discard(group, self.channel_name)  # type: ignore[attr-defined]

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
        if not self.limiter.allow():
            return False
        if not shared:
            return True
        return await sync_to_async(self.within_shared_budget, thread_sensitive=False)()

    def within_shared_budget(self) -> bool:
        """The user's and the game's budgets; called off the loop, one message at a time.

        With Redis, a round trip every few messages (games.ratelimit.SharedBudget).
        """
        if self.shared_budget is None:
            self.shared_budget = SharedBudget(
                user_id=self.scope["user"].pk,  # type: ignore[attr-defined]
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
        await self.send_json({"type": "pong", "server_time": timebase.to_ms(timebase.server_now())})

    async def send_json(self, content: dict[str, Any]) -> None:
        await self.send(text_data=message_text(content))  # type: ignore[attr-defined]

    async def send_error(self, code: str, request_id: Any = None) -> None:
        with translation.override(self.language):
            message = str(message_for(code))
        await self.send_json(
            {"type": "error", "id": echo_id(request_id), "code": code, "message": message}
        )

    def parse(self, text_data: str | None, bytes_data: bytes | None) -> dict[str, Any] | None:
        """The message as a dict, or None when it is too big, not JSON, or not an object."""
        if text_data is None or bytes_data is not None or len(text_data) > MAX_MESSAGE_CHARS:
            return None
        try:
            data = fastjson.loads_untrusted(text_data)
        except ValueError:
            return None
        return data if isinstance(data, dict) else None


class GameConsumer(JsonProtocolMixin, AsyncWebsocketConsumer):
    game_id: int
    audience: str
    groups_joined: list[str]

    async def connect(self) -> None:
        self.seats: tuple[int, ...] = ()
        # Presence slots: the seats, or the spectators' slot (games.presence.WATCH).
        self.slots: tuple[int, ...] = ()
        self.presence_task: asyncio.Task[None] | None = None
        self.present = False
        self.sent_version = -1  # the newest state this socket was sent
        await self.connect_or_close()

    async def open(self) -> None:
        if not await self.open_for_user():
            return
        user = self.scope["user"]
        self.game_id = int(self.scope["url_route"]["kwargs"]["game_id"])
        game = await in_pool(game_get)(self.game_id)
        if game is None:
            await self.refuse(CLOSE_NOT_FOUND)
            return
        self.game = game  # for presence broadcasts, which need only its id and kind
        self.audience = game_audience(game, user)
        self.seats = audience_seats(self.audience)
        self.slots = self.seats or (presence.WATCH,)
        self.budget_game_id = self.game_id if self.seats else None
        await self.join_group(game_group(self.game_id, self.audience))
        await self.accept()
        # Registered before the first state is read: a change whose broadcast skipped this
        # audience (nobody listening yet) is then in that state (games.broadcast.heard).
        await self.presence_call(presence.presence_join)
        self.presence_task = asyncio.ensure_future(self.keep_presence())
        self.present = True
        await self.send_state(with_log=True)
        DATABASE_WATCH.watch(self)
        if self.seats:
            await in_pool(broadcast_presence)(game)

    async def disconnect(self, code: int) -> None:
        DATABASE_WATCH.unwatch(self)
        await self.leave_groups_quietly()
        if self.presence_task is not None:
            self.presence_task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.presence_task
        if self.present:
            await self.presence_call(presence.presence_leave)
        if self.seats and self.present:
            try:
                await in_pool(broadcast_presence)(self.game)
            except UNAVAILABLE_ERRORS:
                logger.warning("presence of game %s not broadcast (unavailable)", self.game_id)

    async def presence_call(self, func: Any) -> Any:
        # Off the event loop and off the one database thread: it talks to Redis only.
        return await sync_to_async(func, thread_sensitive=False)(
            self.game_id, self.slots, self.channel_name
        )

    async def keep_presence(self) -> None:
        """Refresh this socket's presence entry while it is open (it expires otherwise).

        Broadcasts may have missed this socket when the refresh finds its entry gone (Redis
        restarted and lost it, and this socket's channel-layer groups with it; or it
        expired), or comes late. The socket then joins its groups again (a no-op where
        they are intact) and reads the state afresh.

        While Redis cannot be reached, no broadcast reaches anyone: the socket reads the
        game from the database every `POLL_SECONDS` and sends it when it has moved on, so
        that the players see each other's moves through the outage; once Redis answers
        again, it joins its groups again as above.
        """
        refreshed = time.monotonic()
        away = False
        while True:
            await asyncio.sleep(POLL_SECONDS if away else presence.REFRESH_SECONDS)
            written_anew = await self.presence_call(presence.presence_refresh)
            if written_anew is None:
                away = True
                with contextlib.suppress(*UNAVAILABLE_ERRORS):
                    await self.send_state(only_if_newer=True)
                continue
            lapsed = time.monotonic() - refreshed > presence.TTL_SECONDS - 1.0
            refreshed = time.monotonic()
            if written_anew or lapsed or away:
                try:
                    await self.rejoin_groups()
                    await self.send_state()
                    if self.seats:
                        await in_pool(broadcast_presence)(self.game)
                except UNAVAILABLE_ERRORS:
                    away = True
                    continue
                away = False

    def database_notice(self) -> str:
        seconds = round(fault_threshold().total_seconds())
        return str(message_for("database_unavailable")) % {"seconds": seconds}

    async def resync(self) -> None:
        await self.send_state()

    async def send_state(self, *, with_log: bool = False, only_if_newer: bool = False) -> None:
        """The full state for this connection, read fresh from the database.

        `with_log` (on connecting) adds the game's events so far, filtered for this
        audience, so that a reloaded page or a spectator who joins late has the game log.
        Otherwise the state carries the events of the changes since the version this
        socket was sent last, which it has not heard of (a worker's change that an
        in-memory channel layer could not push, changes made while Redis was away).
        `only_if_newer`: nothing when this socket was sent that version already.
        """
        sent = self.sent_version

        def build() -> dict[str, Any] | None:
            game = game_get(self.game_id)
            if game is None or (only_if_newer and game.version <= sent):
                return None
            log = game_events(game.pk) if with_log else None
            missed = None
            if not with_log and 0 <= sent < game.version:
                missed = game_events(game.pk, after_version=sent)
            return state_message(game, self.audience, log=log, events=missed)

        message = await in_pool(build)()
        if message is not None:
            self.sent_version = max(self.sent_version, message["version"])
            await self.send_json(message)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        data = await self.read_message(text_data, bytes_data)
        if data is not None:
            await self.answer_or_unavailable(data, self.dispatch_message)

    async def dispatch_message(self, data: dict[str, Any]) -> None:
        kind = data.get("type")
        if kind == "action":
            await self.receive_action(data)
        elif kind == "tick":
            # Only a player's tick may settle the clock (the keeper does it anyway); a
            # spectator's tick just resyncs its clock, and takes no lock.
            result = (
                await in_pool(services.game_advance)(game_id=self.game_id) if self.seats else None
            )
            if result is None or not result.changed:  # nothing due yet: resync this clock
                await self.send_state()
        elif kind == "rematch":
            await self.receive_rematch(data)
        elif kind == "ping":
            await self.send_pong()
        else:
            await self.send_error("bad_request", data.get("id"))

    def budget_checked_later(self, data: dict[str, Any] | None) -> bool:
        # An action takes the shared budget on the thread that then submits it: one hop
        # off the event loop per move instead of two. (A malformed one is answered
        # without touching the database, so the connection's own budget bounds it.)
        return data is not None and data.get("type") == "action"

    async def receive_action(self, data: dict[str, Any]) -> None:
        request_id = data.get("id")
        if not services.is_request_id(request_id):
            await self.send_error("bad_request", None)
            return
        if not isinstance(data.get("action"), dict):
            await self.send_error("bad_request", request_id)
            return

        def submit() -> services.ActionResult:
            if not self.within_shared_budget():
                return services.ActionResult(ok=False, version=None, code="rate_limited")
            return services.game_submit_action(
                game_id=self.game_id,
                user=self.scope["user"],
                action=data["action"],
                request_id=request_id,
            )

        result = await in_pool(submit)()
        if result.ok:
            await self.send_json({"type": "ack", "id": request_id, "version": result.version})
        else:
            await self.send_error(result.code, request_id)

    async def receive_rematch(self, data: dict[str, Any]) -> None:
        """{"type": "rematch", "id": …, "answer": "offer" | "decline"} from a player."""
        request_id = echo_id(data.get("id"))
        if request_id is None:
            await self.send_error("bad_request", None)
            return
        result = await in_pool(services.game_rematch)(
            game_id=self.game_id, user=self.scope["user"], answer=data.get("answer")
        )
        if result.ok:
            await self.send_json({"type": "ack", "id": request_id, "game": result.game_id})
        else:
            await self.send_error(result.code, request_id)

    async def game_message(self, event: dict[str, Any]) -> None:
        """A message computed and serialized for this connection's audience by games.broadcast."""
        version = event.get("version")
        if version is not None:
            if version <= self.sent_version:
                # Read afresh and sent already, with its events (send_state): sent again,
                # the page would write those events into its game log twice.
                return
            since = event.get("since")
            if since is not None and 0 <= self.sent_version < since:
                # Changes this socket never heard of came before this one (a worker's move
                # that an in-memory layer could not push): the state read afresh carries
                # their events too, so the page's game log misses none.
                try:
                    await self.send_state()
                    return
                except UNAVAILABLE_ERRORS:
                    logger.warning("game %s: missed events not read (unavailable)", self.game_id)
            self.sent_version = version
        await self.send(text_data=event["text"])
