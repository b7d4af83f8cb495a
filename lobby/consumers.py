"""The user socket (/ws/lobby/): one per page of a signed-in player, opened by the site
header's script (static/js/user.js) on every page but the game page of a seat.

It carries what concerns the player wherever they are (their game in progress, the
challenges addressed to them, a rematch offered, a new game to go to) and, to the pages
that show them, the challenge list (?challenges=1), the live games (?live=1) and the
"Play now" queue. A thin protocol layer over lobby.services on realtime's JSON socket
(signed-in check, rate limit, parsing, close codes); docs/protocol.md lists the messages.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any
from urllib.parse import parse_qs

from channels.db import database_sync_to_async
from django.urls import reverse
from django.utils import translation

from fairplay.services import LeaverWait
from games.live.messages import UserGameEvent, UserRematchEvent, YourGame
from games.live.yours import rematch_offered_to, your_game_of
from games.selectors import active_game_id
from lobby.errors import LobbyError, message_for
from lobby.messages import (
    ArenaStartedEvent,
    LiveGame,
    LobbyChangedEvent,
    LobbyDeclinedEvent,
    LobbyInvitationsEvent,
    LobbyLiveEvent,
    LobbyQueueEvent,
    LobbyRedirectEvent,
    arena_started_message,
    challenges_message,
    declined_message,
    invitations_message,
    live_games_message,
    queue_answer,
    queue_changed,
    redirect_message,
    rematch_offer_message,
    your_game_message,
)
from lobby.selectors import (
    LIVE_GROUP,
    LOBBY_GROUP,
    invitations_of,
    live_games_snapshot,
    lobby_snapshot,
)
from lobby.services import queue_join, queue_leave, queue_status_of, queue_touch
from realtime.consumer import UNAVAILABLE_ERRORS, JsonSocketConsumer, echo_id
from realtime.groups import user_group
from realtime.messages import error_message

logger = logging.getLogger(__name__)


class LobbyConsumer(JsonSocketConsumer):
    """Pushes the player's own news (`your_game`, `invitations`, `rematch_offer`, `redirect`,
    `declined`, the queue) to every page of theirs; to a page that asked for them
    (?challenges=1) `{"type": "challenges", ...}` on every change, and (?live=1)
    `{"type": "live_games", ...}` when a game is created, starts or ends."""

    async def connect(self) -> None:
        self.queued = False  # whether this connection put its user in the queue
        self.live = False  # whether the page asked for the live games
        self.challenges = False  # whether the page shows the challenge list
        await self.connect_or_close()

    async def open(self) -> None:
        if not await self.open_for_user():
            return
        await self.join_group(user_group(self.scope["user"].pk))
        query = parse_qs(self.scope.get("query_string", b"").decode())
        if query.get("challenges") == ["1"]:
            self.challenges = True
            await self.join_group(LOBBY_GROUP)
        if query.get("live") == ["1"]:
            self.live = True
            await self.join_group(LIVE_GROUP)
        await self.accept()
        if self.challenges:
            await self.send_challenges()
        await self.send_player_news()
        self.start_keeping_groups()

    async def disconnect(self, code: int) -> None:
        await self.stop_keeping_groups()
        if self.queued:
            # Leaving the waiting page leaves the queue (another lobby tab does not); if the
            # database is down, the queue drops entries whose status is not polled anyway.
            try:
                await database_sync_to_async(queue_leave)(user=self.scope["user"], closed=True)
            except UNAVAILABLE_ERRORS:
                logger.warning("could not leave the queue (unavailable)")

    async def send_challenges(self) -> None:
        challenges = await database_sync_to_async(lobby_snapshot)(self.scope["user"])
        await self.send_json(challenges_message(challenges))

    async def send_player_news(self) -> None:
        """What every page shows of the player: their game, the challenges addressed to
        them, a rematch their opponent offers."""
        user = self.scope["user"]

        def read() -> tuple[YourGame | None, UserRematchEvent | None]:
            found = your_game_of(user.pk)
            return (found[1] if found else None), rematch_offered_to(user.pk)

        game, rematch = await database_sync_to_async(read)()
        await self.send_json(your_game_message(game))
        await self.send_invitations()
        if rematch is not None and game is None:  # with a game on, it could not be accepted
            await self.send_json(rematch_offer_message(rematch))

    async def send_invitations(self) -> None:
        challenges = await database_sync_to_async(invitations_of)(self.scope["user"])
        await self.send_json(invitations_message(challenges))

    async def resync(self) -> None:
        # A redirect to a game made meanwhile (a challenge accepted) was lost with the rest.
        game_id = await database_sync_to_async(active_game_id)(self.scope["user"].pk)
        if game_id is not None:
            url = reverse("game", kwargs={"game_id": game_id})
            await self.send_json(redirect_message(url, game_id))
        await self.send_player_news()
        if self.challenges:
            await self.send_challenges()
        if self.live:
            await self.send_live_games()

    def error_text(self, code: str) -> str:
        return str(message_for(code))

    def database_notice(self) -> str:
        return str(message_for("lobby_database_unavailable"))

    async def send_live_games(self) -> None:
        def snapshot() -> list[LiveGame]:
            # The computer's seat is named in the page's language ("Ordenador (difícil)").
            with translation.override(self.language):
                return live_games_snapshot(self.scope["user"])

        games = await database_sync_to_async(snapshot)()
        await self.send_json(live_games_message(games))

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        # Challenges are made over plain POST forms; the socket carries the queue and pings.
        data = await self.read_message(text_data, bytes_data)
        if data is not None:
            await self.answer_or_unavailable(data, self.dispatch_message)

    async def dispatch_message(self, data: dict[str, Any]) -> None:
        if data.get("type") == "queue":
            await self.receive_queue(data)
        elif data.get("type") == "ping":
            await self.send_pong()
        else:
            await self.send_error("bad_request", data.get("id"))

    async def receive_queue(self, data: dict[str, Any]) -> None:
        """`{"type": "queue", "do": "join" | "leave" | "status"}`, answered with the status.

        A leave sent by a page that is closing carries `"closing": true`. Joining and
        leaving are also pushed to the player's other pages (`lobby_queue`).

        Joining tries to pair at once; a pairing (here, in another process, or by the beat
        task as the accepted range widens) also pushes `redirect` to both players.
        """
        user = self.scope["user"]
        do = data.get("do")
        if do == "join":
            try:
                status = await database_sync_to_async(queue_join)(user=user)
            except LeaverWait as refused:  # a leaver's wait: how long and why, in their words
                self.queued = False
                with translation.override(self.language):
                    text = refused.message
                await self.send_json(error_message(refused.code, echo_id(data.get("id")), text))
                return
            except LobbyError as error:  # a marked account
                await self.send_error(error.code, data.get("id"))
                return
            self.queued = True
        elif do == "leave":
            self.queued = False
            closing = data.get("closing") is True  # the page is closing (see queue_leave)
            await database_sync_to_async(queue_leave)(user=user, closed=closing)
            status = await database_sync_to_async(queue_status_of)(user=user)
        elif do == "status":
            status = await database_sync_to_async(queue_touch)(user=user)
        else:
            await self.send_error("bad_request", data.get("id"))
            return
        # The request's id comes back with the answer, so that the page knows which of its
        # requests is answered and does not send it again.
        await self.send_json(queue_answer(status.as_message(), echo_id(data.get("id"))))

    async def refresh(self, send: Callable[[], Awaitable[None]], what: str) -> None:
        """Read and send `what` again after a change; when the database is away, the next
        change (or the resync once it is back) will."""
        try:
            await send()
        except UNAVAILABLE_ERRORS:
            logger.warning("%s not refreshed (unavailable); the next change will", what)

    async def lobby_changed(self, event: LobbyChangedEvent) -> None:
        # The group message carries nothing: each connection reads only what its user may see.
        await self.refresh(self.send_challenges, "lobby list")

    async def lobby_live(self, event: LobbyLiveEvent) -> None:
        # Only on a change: the page drew the list it was served with.
        await self.refresh(self.send_live_games, "live games")

    async def lobby_queue(self, event: LobbyQueueEvent) -> None:
        """The player joined or left the queue elsewhere (another tab): this page's status."""
        try:
            status = await database_sync_to_async(queue_status_of)(user=self.scope["user"])
        except UNAVAILABLE_ERRORS:
            logger.warning("queue change not told (unavailable); the next status poll will")
            return
        await self.send_json(queue_changed(status.as_message(), event["change"]))

    async def lobby_invitations(self, event: LobbyInvitationsEvent) -> None:
        await self.refresh(self.send_invitations, "invitations")

    async def user_game(self, event: UserGameEvent) -> None:
        # Built by games for this player already: sent on as it is, no read.
        await self.send_json(your_game_message(event["game"]))

    async def user_rematch(self, event: UserRematchEvent) -> None:
        await self.send_json(rematch_offer_message(event))

    async def lobby_redirect(self, event: LobbyRedirectEvent) -> None:
        await self.send_json(redirect_message(event["url"], event["game"]))

    async def lobby_declined(self, event: LobbyDeclinedEvent) -> None:
        await self.send_json(declined_message(event["by"]))

    async def arena_started(self, event: ArenaStartedEvent) -> None:
        await self.send_json(arena_started_message(event))
