"""The arenas' part of the user socket (user_socket.consumer): "your arena has started",
built once for the arena's players where it starts (tournaments.broadcast) and sent on
as it is."""

from __future__ import annotations

from realtime.parts import SocketPart
from tournaments.messages import UserArenaStartedEvent, arena_started_message


class ArenaPart(SocketPart):
    async def user_tournaments_started(self, event: UserArenaStartedEvent) -> None:
        await self.send_json(arena_started_message(event))
