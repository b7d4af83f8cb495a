"""What each connection is sent: views per audience, and the channel-layer fan-out.

Views are computed here, on the server, per audience, and each audience has its own
group: a hidden tile never even crosses the channel layer towards a consumer that must
not see it (boardgame.io's player views, design.md step 4).
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from games import engine, timebase
from games.audiences import (
    AUDIENCE_SEAT,
    DEVICE,
    game_audiences,
    game_group,
)
from games.models import Game
from games.presence import presence_connected

logger = logging.getLogger(__name__)


def engine_view(state: Any, audience: str, now: float) -> dict[str, Any]:
    """The engine's view for an audience; a same-device screen's is the engine's too (R7.7)."""
    if audience == DEVICE:
        return engine.device_view(state, now)
    return engine.view(state, AUDIENCE_SEAT[audience], now)


def events_for_audience(events: list[dict[str, Any]], audience: str) -> list[dict[str, Any]]:
    # A shared screen is seen by both players: it gets the spectator's filtering.
    return engine.events_for(events, AUDIENCE_SEAT[audience])


def game_connected(game: Game) -> list[bool]:
    """Each seat's "connected" dot: a person's sockets, and a computer, always there."""
    bots = game.bots()
    return [on or seat in bots for seat, on in enumerate(presence_connected(game.pk))]


def players_meta(game: Game) -> list[dict[str, Any]]:
    """Names, and the ratings stored with the game when it was created (no ledger read).

    `bot` is a computer player's strength (null for a person): the page names it
    "Computer (hard)" in the reader's language, which a broadcast cannot know.
    """
    users = [game.player0, game.player1]
    bots = game.bots()
    return [
        {
            "username": user.get_username(),
            "bot": bots.get(seat),
            "rating": snapshot["rating"],
            "rating_label": snapshot["rating_label"],
        }
        for seat, (user, snapshot) in enumerate(zip(users, game.players_snapshot, strict=True))
    ]


def client_view(
    game: Game,
    state: Any,
    audience: str,
    now: float,
    *,
    connected: list[bool],
    meta: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    view = engine_view(state, audience, now)
    view["id"] = game.pk
    for player, extra in zip(view["players"], meta or players_meta(game), strict=True):
        player.update(extra)
    view["deadline"] = timebase.to_ms(view.get("deadline"))
    view["server_time"] = timebase.to_ms(now)
    view["connected"] = list(connected)
    view["rated"] = game.rated
    return view


def state_message(
    game: Game,
    audience: str,
    *,
    events: list[dict[str, Any]] | None = None,
    now: float | None = None,
    connected: list[bool] | None = None,
    meta: list[dict[str, Any]] | None = None,
    state: Any = None,
) -> dict[str, Any]:
    """`{"type": "state", ...}` for one audience, from the game row as it is now."""
    now = timebase.server_now() if now is None else now
    if state is None:
        state = engine.from_json(game.state)
    if connected is None:
        connected = game_connected(game)
    return {
        "type": "state",
        "version": game.version,
        "game": client_view(game, state, audience, now, connected=connected, meta=meta),
        "events": events_for_audience(events or [], audience),
    }


def group_send_all(messages: list[tuple[str, dict[str, Any]]]) -> None:
    """All of a change's messages in one hop to the event loop (each hop costs a thread switch)."""
    layer = get_channel_layer()
    if layer is None:
        return

    async def send_all() -> None:
        await asyncio.gather(*(layer.group_send(group, message) for group, message in messages))

    async_to_sync(send_all)()


def broadcast_state(game: Game, events: list[dict[str, Any]], *, state: Any = None) -> None:
    """Send every audience of the game its own view (called on commit).

    `state` is the engine state of `game.state` when the caller already holds it.
    """
    try:
        now = timebase.server_now()
        connected = game_connected(game)
        meta = players_meta(game)
        if state is None:
            state = engine.from_json(game.state)
        outgoing = []
        for audience in game_audiences(game):
            message = state_message(
                game,
                audience,
                events=events,
                now=now,
                connected=connected,
                meta=meta,
                state=state,
            )
            outgoing.append(
                (game_group(game.pk, audience), {"type": "game.message", "message": message})
            )
        group_send_all(outgoing)
    except Exception:
        # The move is committed; a client that missed this push resyncs on reconnect.
        logger.exception("broadcast of game %s version %s failed", game.pk, game.version)


def broadcast_presence(game: Game) -> None:
    message = {"type": "presence", "connected": game_connected(game)}
    group_send_all(
        [
            (game_group(game.pk, audience), {"type": "game.message", "message": message})
            for audience in game_audiences(game)
        ]
    )


def broadcast_presence_of(game_id: int) -> None:
    """The presence of a game whose sockets' process vanished (games.presence sweep)."""
    game = Game.objects.filter(pk=game_id).only("pk", "same_device", "bot_seat").first()
    if game is None:
        return
    try:
        broadcast_presence(game)
    except Exception:  # the page learns it with its next state
        logger.exception("presence broadcast of game %s failed", game_id)
