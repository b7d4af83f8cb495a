"""games' part of the user socket (user_socket.consumer): the player's game in progress
("your game"), where the rematch of their finished game stands, and a new game to go to.

games.live.yours builds each event once, for the player, where the change happens; this
part sends it on as it is. It reads the database only when the socket opens (in the
socket's one opening read, realtime.parts) or resyncs.
"""

from __future__ import annotations

from typing import Any

from django.urls import reverse

from games.live.messages import (
    UserGameEvent,
    UserRedirectEvent,
    UserRematchEvent,
    YourGame,
    redirect_message,
    rematch_offer_message,
    your_game_message,
)
from games.live.yours import rematch_offered_to, your_game_of
from games.selectors import active_game_id
from realtime.consumer import in_pool
from realtime.parts import SocketPart


class GamesPart(SocketPart):
    def part_read(self, found: dict[str, Any]) -> None:
        found["games"] = self.read_games_news()
        super().part_read(found)

    async def part_open(self, found: dict[str, Any]) -> None:
        await self.send_games_news(*found["games"])
        await super().part_open(found)

    def read_games_news(self) -> tuple[YourGame | None, UserRematchEvent | None]:
        user_id = self.scope["user"].pk
        yours = your_game_of(user_id)
        return (yours[1] if yours else None), rematch_offered_to(user_id)

    async def send_games_news(
        self, game: YourGame | None, rematch: UserRematchEvent | None
    ) -> None:
        await self.send_json(your_game_message(game))
        if rematch is not None and game is None:  # with a game on, it could not be accepted
            await self.send_json(rematch_offer_message(rematch))

    async def part_resync(self) -> None:
        # A redirect to a game made meanwhile (a challenge accepted) was lost with the rest.
        game_id = await in_pool(active_game_id)(self.scope["user"].pk)
        if game_id is not None:
            url = reverse("game", kwargs={"game_id": game_id})
            await self.send_json(redirect_message(url, game_id))
        await self.send_games_news(*await in_pool(self.read_games_news)())
        await super().part_resync()

    async def user_games_game(self, event: UserGameEvent) -> None:
        await self.send_json(your_game_message(event["game"]))

    async def user_games_rematch(self, event: UserRematchEvent) -> None:
        await self.send_json(rematch_offer_message(event))

    async def user_games_redirect(self, event: UserRedirectEvent) -> None:
        await self.send_json(redirect_message(event["url"], event["game"]))
