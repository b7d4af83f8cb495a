"""The user socket (/ws/user/, and /ws/lobby/ while pages move to it): one per page of a
signed-in player, opened by the header's script (user_socket/static/js/user.js) on every
page, a seat's game page included (there it says what comes after the game).

Composed of one part per app, each with its own handlers and message types in its app:
games' (their game, its rematch, a new game to go to: games.live.user_part), lobby's
(challenges, the queue, the live games list: lobby.user_part) and the arenas'
(tournaments.user_part). Every group event is named `user.<app>.<what>`; user_socket.messages
is the union; docs/protocol.md lists the messages.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qs

from games.live.user_part import GamesPart
from lobby.errors import message_for
from lobby.user_part import LobbyPart
from realtime.consumer import in_pool
from realtime.groups import user_group
from tournaments.user_part import ArenaPart


class UserConsumer(LobbyPart, GamesPart, ArenaPart):
    """Every part's steps run in this order: lobby, games, tournaments."""

    async def connect(self) -> None:
        await self.connect_or_close()

    async def open(self) -> None:
        if not await self.open_for_user():
            return
        self.part_options(parse_qs(self.scope.get("query_string", b"").decode()))
        await self.join_group(user_group(self.scope["user"].pk))
        await self.part_join()
        found: dict[str, Any] = {}
        await in_pool(self.part_read)(found)
        await self.accept()
        await self.part_open(found)
        self.start_keeping_groups()

    async def disconnect(self, code: int) -> None:
        await self.stop_keeping_groups()
        await self.part_close()

    async def resync(self) -> None:
        await self.part_resync()

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        data = await self.read_message(text_data, bytes_data)
        if data is not None:
            await self.answer_or_unavailable(data, self.dispatch_message)

    async def dispatch_message(self, data: dict[str, Any]) -> None:
        # Challenges are made over plain POST forms; the socket carries the queue and pings.
        if data.get("type") == "ping":
            await self.send_pong()
        elif not await self.part_receive(data):
            await self.send_error("bad_request", data.get("id"))

    def error_text(self, code: str) -> str:
        return str(message_for(code))

    def database_notice(self) -> str:
        return str(message_for("lobby_database_unavailable"))
