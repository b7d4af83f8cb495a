"""lobby's part of the user socket (user_socket.consumer): the challenges addressed to the
player and who declined theirs, the "Play now" queue, and, to the pages that show them,
the challenge list (?challenges=1) and the games in progress (?live=1).

Every list arrives built once where it changed (lobby.broadcast): this part only keeps
what its user may see, drops a list older than one it sent (`stamp`), and sends it. It
reads the database when the socket opens (in the socket's one opening read,
realtime.parts) or resyncs, and for the queue's requests.
"""

from __future__ import annotations

import logging
from typing import Any

from django.conf import settings
from django.utils import translation

from fairplay.services import LeaverWait
from lobby.broadcast import stamp
from lobby.errors import LobbyError
from lobby.groups import LIVE_GROUP, LOBBY_GROUP
from lobby.messages import (
    ChallengeEntry,
    UserLobbyChallengesEvent,
    UserLobbyDeclinedEvent,
    UserLobbyInvitationsEvent,
    UserLobbyLiveEvent,
    UserLobbyQueueEvent,
    challenges_message,
    declined_message,
    invitations_message,
    live_games_message,
    queue_answer,
    queue_changed,
)
from lobby.selectors import (
    challenges_for,
    invitations_of,
    live_games_for,
    live_games_snapshot,
    lobby_snapshot,
)
from lobby.services import queue_join, queue_leave, queue_status_of, queue_touch
from realtime import fastjson
from realtime.consumer import UNAVAILABLE_ERRORS, echo_id, in_pool
from realtime.messages import error_message
from realtime.parts import SocketPart

logger = logging.getLogger(__name__)

# The live list as a page of a player in none of its games gets it, serialized once per
# process for all of them: (stamp, language) -> text, the latest few only.
_LIVE_TEXTS: dict[tuple[int, str], str] = {}
_LIVE_TEXTS_KEPT = 4


class LobbyPart(SocketPart):
    queued = False  # whether this connection put its user in the queue
    live = False  # whether the page asked for the live games
    challenges = False  # whether the page shows the challenge list
    # The stamp of the newest list of each kind this socket has sent.
    sent_stamps: dict[str, int]

    def part_options(self, query: dict[str, list[str]]) -> None:
        self.sent_stamps = {}
        self.challenges = query.get("challenges") == ["1"]
        self.live = query.get("live") == ["1"]
        super().part_options(query)

    async def part_join(self) -> None:
        if self.challenges:
            await self.join_group(LOBBY_GROUP)
        if self.live:
            await self.join_group(LIVE_GROUP)
        await super().part_join()

    def part_read(self, found: dict[str, Any]) -> None:
        found["lobby"] = self.read_challenges()
        super().part_read(found)

    async def part_open(self, found: dict[str, Any]) -> None:
        # The list first and the invitations after the other parts' news, as pages had them.
        taken, invitations, challenges = found["lobby"]
        await self.send_challenges(taken, challenges)
        await super().part_open(found)
        await self.send_invitations(taken, invitations)

    async def part_resync(self) -> None:
        taken, invitations, challenges = await in_pool(self.read_challenges)()
        await self.send_challenges(taken, challenges)
        await super().part_resync()
        await self.send_invitations(taken, invitations)
        if self.live:
            await self.send_live_games()

    async def part_close(self) -> None:
        if self.queued:
            # Leaving the waiting page leaves the queue (another lobby tab does not); if the
            # database is down, the queue drops entries whose status is not polled anyway.
            try:
                await in_pool(queue_leave)(user=self.scope["user"], closed=True)
            except UNAVAILABLE_ERRORS:
                logger.warning("could not leave the queue (unavailable)")
        await super().part_close()

    def newer(self, kind: str, taken: int) -> bool:
        """Whether a list stamped `taken` is newer than the last of its kind sent (and note it)."""
        if taken < self.sent_stamps.get(kind, 0):
            return False
        self.sent_stamps[kind] = taken
        return True

    def read_challenges(self) -> tuple[int, list[ChallengeEntry], list[ChallengeEntry] | None]:
        """When (`stamp`), the challenges addressed to the player, and the challenge list if
        the page shows it (in the pool)."""
        user = self.scope["user"]
        taken = stamp()
        return taken, invitations_of(user.pk), lobby_snapshot(user) if self.challenges else None

    async def send_challenges(self, taken: int, challenges: list[ChallengeEntry] | None) -> None:
        if challenges is not None and self.newer("challenges", taken):
            await self.send_json(challenges_message(challenges))

    async def send_invitations(self, taken: int, invitations: list[ChallengeEntry]) -> None:
        if self.newer("invitations", taken):
            await self.send_json(invitations_message(invitations))

    async def send_live_games(self) -> None:
        user = self.scope["user"]
        language = self.language

        def read() -> tuple[int, Any]:
            # The computer's seat is named in the page's language ("Ordenador (difícil)").
            with translation.override(language):
                return stamp(), live_games_snapshot(user)

        taken, games = await in_pool(read)()
        if self.newer("live", taken):
            await self.send_json(live_games_message(games))

    async def part_receive(self, data: dict[str, Any]) -> bool:
        if data.get("type") != "queue":
            return await super().part_receive(data)
        await self.receive_queue(data)
        return True

    async def receive_queue(self, data: dict[str, Any]) -> None:
        """`{"type": "queue", "do": "join" | "leave" | "status"}`, answered with the status.

        A leave sent by a page that is closing carries `"closing": true`. Joining and
        leaving are also pushed to the player's other pages (`user.lobby.queue`).

        Joining tries to pair at once; a pairing (here, in another process, or by the beat
        task as the accepted range widens) also pushes `redirect` to both players.
        """
        user = self.scope["user"]
        do = data.get("do")
        if do == "join":
            try:
                status = await in_pool(queue_join)(user=user)
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
            await in_pool(queue_leave)(user=user, closed=closing)
            status = await in_pool(queue_status_of)(user=user)
        elif do == "status":
            status = await in_pool(queue_touch)(user=user)
        else:
            await self.send_error("bad_request", data.get("id"))
            return
        # The request's id comes back with the answer, so that the page knows which of its
        # requests is answered and does not send it again.
        await self.send_json(queue_answer(status.as_message(), echo_id(data.get("id"))))

    async def user_lobby_challenges(self, event: UserLobbyChallengesEvent) -> None:
        if self.newer("challenges", event["stamp"]):
            mine = challenges_for(event["challenges"], self.scope["user"].pk)
            await self.send_json(challenges_message(mine))

    async def user_lobby_invitations(self, event: UserLobbyInvitationsEvent) -> None:
        if self.newer("invitations", event["stamp"]):
            await self.send_json(invitations_message(event["challenges"]))

    async def user_lobby_live(self, event: UserLobbyLiveEvent) -> None:
        if not self.newer("live", event["stamp"]):
            return
        games = event["games"].get(self.language) or event["games"][settings.LANGUAGE_CODE]
        user_id = self.scope["user"].pk
        if any(user_id in game["player_ids"] for game in games):
            await self.send_json(live_games_message(live_games_for(games, user_id)))
            return
        key = (event["stamp"], self.language)
        text = _LIVE_TEXTS.get(key)
        if text is None:
            text = fastjson.dumps_text(live_games_message(live_games_for(games, user_id)))
            _LIVE_TEXTS[key] = text
            while len(_LIVE_TEXTS) > _LIVE_TEXTS_KEPT:
                del _LIVE_TEXTS[next(iter(_LIVE_TEXTS))]
        await self.send(text_data=text)

    async def user_lobby_queue(self, event: UserLobbyQueueEvent) -> None:
        """The player joined or left the queue elsewhere (another tab): this page's status."""
        await self.send_json(queue_changed(event["status"], event["change"]))

    async def user_lobby_declined(self, event: UserLobbyDeclinedEvent) -> None:
        await self.send_json(declined_message(event["by"]))
