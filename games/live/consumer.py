"""The game's socket (/ws/games/<id>/): a thin protocol layer over the services.

No rule lives here; docs/protocol.md lists the messages.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import Any

from asgiref.sync import sync_to_async
from django.utils import translation

from games import services
from games.clock.faults import fault_threshold
from games.errors import message_for
from games.live import presence
from games.live.audiences import audience_seats, game_audience, game_get
from games.live.broadcast import broadcast_presence, state_message
from games.live.groups import game_group
from games.live.messages import GameEvent, StateMessage, action_ack, rematch_ack
from games.replay.log import game_events
from realtime.consumer import (
    CLOSE_NOT_FOUND,
    DATABASE_WATCH,
    UNAVAILABLE_ERRORS,
    JsonSocketConsumer,
    echo_id,
    in_pool,
)
from realtime.messages import error_message, is_request_id

logger = logging.getLogger(__name__)

# While Redis is away, how often a game socket reads its game (GameConsumer.keep_presence).
POLL_SECONDS = 1.0


class GameConsumer(JsonSocketConsumer):
    game_id: int
    audience: str
    groups_joined: list[str]

    async def connect(self) -> None:
        self.seats: tuple[int, ...] = ()
        # Presence slots: the seats, or the spectators' slot (games.live.presence.WATCH).
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
        # audience (nobody listening yet) is then in that state (games.live.broadcast.heard).
        await self.presence_call(presence.presence_join)
        self.presence_task = asyncio.ensure_future(self.keep_presence())
        self.present = True
        await self.send_state(with_log=True)
        DATABASE_WATCH.watch(self)
        # Every socket is somebody arriving: a player's dot, or one more viewer to count.
        await in_pool(broadcast_presence)(game)

    async def disconnect(self, code: int) -> None:
        DATABASE_WATCH.unwatch(self)
        if self.presence_task is not None:  # first: nothing may refresh a closed socket's entry
            self.presence_task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.presence_task
        await self.leave_groups_quietly()
        if self.present:
            await self.presence_call(presence.presence_leave)
        if self.present:
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
                    await in_pool(broadcast_presence)(self.game)
                except UNAVAILABLE_ERRORS:
                    away = True
                    continue
                away = False

    def error_text(self, code: str) -> str:
        return str(message_for(code))

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

        def build() -> StateMessage | None:
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
        if not is_request_id(request_id):
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
            await self.send_json(action_ack(request_id, result.version))
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
            await self.send_json(rematch_ack(request_id, result.game_id))
        elif result.refused is not None:  # refused from above: its own text (a leaver's wait)
            with translation.override(self.language):
                text = str(result.message)
            await self.send_json(error_message(result.code, request_id, text))
        else:
            await self.send_error(result.code, request_id)

    async def game_message(self, event: GameEvent) -> None:
        """A message built for this connection's audience by games.live.broadcast."""
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
