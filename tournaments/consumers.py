"""An arena page's socket (/ws/arenas/<id>/): the standings on connecting and on every push.

The push carries the standings built once by the sender (tournaments.broadcast), so a
thousand open pages cost one read, not a thousand. The socket takes pings only.
"""

from __future__ import annotations

from channels.db import database_sync_to_async

from realtime.consumer import CLOSE_NOT_FOUND, JsonSocketConsumer
from tournaments.errors import message_for
from tournaments.groups import arena_group
from tournaments.messages import ArenaStandingsEvent, StandingsMessage
from tournaments.models import Arena
from tournaments.selectors import standings_message


def _standings(arena_id: int) -> StandingsMessage | None:
    arena = Arena.objects.filter(pk=arena_id).first()
    return None if arena is None else standings_message(arena)


class ArenaConsumer(JsonSocketConsumer):
    async def connect(self) -> None:
        await self.connect_or_close()

    async def open(self) -> None:
        if not await self.open_for_user():
            return
        self.arena_id = int(self.scope["url_route"]["kwargs"]["arena_id"])
        standings = await database_sync_to_async(_standings)(self.arena_id)
        if standings is None:
            await self.refuse(CLOSE_NOT_FOUND)
            return
        await self.join_group(arena_group(self.arena_id))
        await self.accept()
        await self.send_json(standings)
        self.start_keeping_groups()

    async def disconnect(self, code: int) -> None:
        await self.stop_keeping_groups()

    async def resync(self) -> None:
        standings = await database_sync_to_async(_standings)(self.arena_id)
        if standings is not None:
            await self.send_json(standings)

    def error_text(self, code: str) -> str:
        return str(message_for(code))

    def database_notice(self) -> str:
        return str(message_for("arena_database_unavailable"))

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        data = await self.read_message(text_data, bytes_data)
        if data is None:
            return
        if data.get("type") == "ping":
            await self.send_pong()
        else:
            await self.send_error("bad_request", data.get("id"))

    async def arena_standings(self, event: ArenaStandingsEvent) -> None:
        await self.send_json(event["message"])
