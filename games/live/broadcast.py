"""What each connection of a game is sent: views per audience, fanned out by realtime.

Views are computed here, on the server, per audience, and each audience has its own
group: a hidden tile never even crosses the channel layer towards a consumer that must
not see it (docs/architecture.md, how a move flows).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

from games import engine
from games.clock import timebase
from games.live.audiences import (
    AUDIENCE_SEAT,
    DEVICE,
    WATCH,
    game_audiences,
)
from games.live.groups import game_group
from games.live.messages import (
    Event,
    GameEvent,
    GameView,
    PlayerMeta,
    PresenceMessage,
    RematchInfo,
    RematchMessage,
    StateMessage,
)
from games.live.presence import WATCH as WATCH_SLOT
from games.live.presence import (
    presence_connected,
    presence_counts,
    presence_expected,
    presence_guard,
    presence_listening,
    presence_seen,
)
from games.live.yours import rematch_sends, your_game_sends
from games.models import Game
from realtime import fastjson
from realtime.channel_layer import GuardChanged
from realtime.events import lost_logged, send_now
from realtime.fanout import group_send_all, guarded_sends


def engine_view(state: Any, audience: str, now: float) -> dict[str, Any]:
    """The engine's view for an audience; a same-device screen's is the engine's too (R7.7)."""
    if audience == DEVICE:
        return engine.device_view(state, now)
    return engine.view(state, AUDIENCE_SEAT[audience], now)


def events_for_audience(events: list[dict[str, Any]], audience: str) -> list[dict[str, Any]]:
    # A shared screen is seen by both players: it gets the spectator's filtering.
    return engine.events_for(events, AUDIENCE_SEAT[audience])


def with_computer(game: Game, connected: list[bool]) -> list[bool]:
    """Each seat's "connected" dot: a person's open sockets; a computer is always there."""
    return [on or seat == game.bot_seat for seat, on in enumerate(connected)]


def players_meta(game: Game) -> list[PlayerMeta]:
    """Names, and the ratings stored with the game when it was created (no ledger read).

    `name` is what the page calls the seat: a same-device game's player names, else the
    username. `bot` is a computer player's strength (null for a person): the page names it
    "Computer (hard)" in the reader's language, which a broadcast cannot know.
    """
    bots = game.bots()
    return [
        {
            "username": username,
            "name": username if seat in bots else game.seat_name(seat),
            "bot": bots.get(seat),
            "rating": snapshot["rating"],
            "rating_label": snapshot["rating_label"],
        }
        for seat, (username, snapshot) in enumerate(
            zip(game.player_names(), game.players_snapshot, strict=True)
        )
    ]


def rematch_info(game: Game, *, declined_by: int | None = None) -> RematchInfo:
    """Where a rematch stands: the seat whose offer is open, the new game once agreed."""
    return {
        "offered_by": game.rematch_offered_by,
        "game": game.rematch_game_id,
        "declined_by": declined_by,
    }


def client_view(
    game: Game,
    state: Any,
    audience: str,
    now: float,
    *,
    connected: list[bool] | None,
    meta: list[PlayerMeta] | None = None,
) -> GameView:
    """The engine's view for the audience, with what the platform adds (the same keys)."""
    view = engine_view(state, audience, now)
    view["id"] = game.pk
    for player, extra in zip(view["players"], meta or players_meta(game), strict=True):
        player.update(extra)
    view["deadline"] = timebase.to_ms(view.get("deadline"))
    view["server_time"] = timebase.to_ms(now)
    view["connected"] = None if connected is None else with_computer(game, connected)
    view["rated"] = game.rated
    view["rematch"] = rematch_info(game)
    return cast(GameView, view)  # the engine's dict: GameView names its keys


def state_message(
    game: Game,
    audience: str,
    *,
    events: list[Event] | None = None,
    now: float | None = None,
    connected: list[bool] | None = None,
    meta: list[PlayerMeta] | None = None,
    state: Any = None,
    log: list[Event] | None = None,
) -> StateMessage:
    """`{"type": "state", ...}` for one audience, from the game row as it is now.

    `log`, when given, is every event of the game so far (games.replay.log.game_events): sent
    filtered for the audience as `log`, from which the page rebuilds its game log.
    """
    now = timebase.server_now() if now is None else now
    if state is None:
        state = engine.from_json(game.state)
    if connected is None:
        # Still None while Redis is away: the page then keeps the dots it shows, rather
        # than telling each player that the other has gone.
        connected = presence_connected(game.pk)
    message: StateMessage = {
        "type": "state",
        "version": game.version,
        "game": client_view(game, state, audience, now, connected=connected, meta=meta),
        "events": events_for_audience(events or [], audience),
    }
    if log is not None:
        message["log"] = events_for_audience(log, audience)
    return message


def message_text(message: Mapping[str, Any]) -> str:
    """A message as the WebSocket frame it is sent as: compact JSON.

    Every frame the game sockets send is written here, with orjson (realtime.fastjson),
    once per audience per change (docs/decisions/move-cost.md).
    """
    return fastjson.dumps_text(message)


def game_event(
    message: StateMessage | PresenceMessage | RematchMessage, *, since: int | None = None
) -> GameEvent:
    """The channel-layer event carrying `message` to an audience's sockets.

    Serialized here, once per audience, rather than by every socket that receives it; the
    layer then carries one string, which it packs faster than the nested message. `since`
    is the version the state's events start from: a socket sent an older one missed
    changes in between, whose events it reads instead (GameConsumer.game_message).
    """
    event: GameEvent = {"type": "game.message", "text": message_text(message)}
    if message["type"] == "state":
        event["version"] = message["version"]  # what the socket then knows it has sent
        if since is not None:
            event["since"] = since
    return event


def heard(audience: str, listening: list[bool] | None) -> bool:
    """Whether a socket of this audience is open (when presence cannot tell: assume so).

    Skipping the others loses nothing: a socket registers its presence before it reads
    its first state, so one this change's presence read missed reads the change itself.
    """
    if listening is None:
        return True
    if audience == WATCH:
        return listening[WATCH_SLOT]
    seat = AUDIENCE_SEAT[audience]
    return listening[0] or listening[1] if seat is None else listening[seat]


# Sends composed for a presence that changed before they went; then one without the check.
GUARDED_ATTEMPTS = 3


def broadcast_state(
    game: Game,
    events: list[dict[str, Any]],
    *,
    state: Any = None,
    since: int | None = None,
    turn_changed: bool = False,
) -> None:
    """Send each audience of the game that somebody listens to its own view (on commit).

    `state` is the engine state of `game.state` when the caller already holds it; `since`
    the version before the change whose `events` these are. With Redis the messages are
    composed for the presence this process last saw, and the send checks it is still so
    (games.live.presence): no round trip of its own to read it. `turn_changed` (whose turn,
    or the status, changed): each player's pages are told too (games.live.yours), in the
    same send.
    """
    with lost_logged("broadcast of game %s version %s", game.pk, game.version):
        now = timebase.server_now()
        meta = players_meta(game)
        if state is None:
            state = engine.from_json(game.state)
        # Typed per event kind; the layer takes any mapping.
        yours: list[tuple[str, Mapping[str, Any]]] = (
            list(your_game_sends(game, state, now)) if turn_changed else []
        )
        guarded = guarded_sends()
        listening = presence_expected(game.pk) if guarded else presence_listening(game.pk)
        for _attempt in range(GUARDED_ATTEMPTS if guarded else 0):
            guard = presence_guard(game.pk, listening) if listening is not None else None
            if guard is None:
                break
            outgoing = [*state_messages(game, state, events, now, listening, meta, since), *yours]
            try:
                group_send_all(outgoing, only_if=guard)
            except GuardChanged as changed:
                listening = changed.observed
                presence_seen(game.pk, listening)
                continue
            presence_seen(game.pk, listening)
            return
        group_send_all([*state_messages(game, state, events, now, listening, meta, since), *yours])


def state_messages(
    game: Game,
    state: Any,
    events: list[dict[str, Any]],
    now: float,
    listening: list[bool] | None,
    meta: list[PlayerMeta],
    since: int | None = None,
) -> list[tuple[str, GameEvent]]:
    """(group, event) for each audience of the game that somebody listens to."""
    connected = None if listening is None else listening[:2]
    outgoing = []
    for audience in game_audiences(game):
        if not heard(audience, listening):
            continue
        message = state_message(
            game,
            audience,
            events=events,
            now=now,
            connected=connected,
            meta=meta,
            state=state,
        )
        outgoing.append((game_group(game.pk, audience), game_event(message, since=since)))
    return outgoing


def broadcast_rematch(game: Game, *, declined_by: int | None = None) -> None:
    """Tell every audience of a finished game where its rematch stands, and its players'
    other pages (games.live.yours), on commit."""
    message: RematchMessage = {"type": "rematch", **rematch_info(game, declined_by=declined_by)}
    event = game_event(message)
    sends = [
        *[(game_group(game.pk, audience), event) for audience in game_audiences(game)],
        *rematch_sends(game),
    ]
    send_now(sends, "rematch broadcast of game %s", game.pk)


def presence_messages(game: Game) -> list[tuple[str, GameEvent]]:
    counts = presence_counts(game.pk)
    if counts is None:  # Redis is away: nothing known to tell, and no layer to tell it by
        return []
    message: PresenceMessage = {
        "type": "presence",
        "connected": with_computer(game, [count > 0 for count in counts[:WATCH_SLOT]]),
        "watching": counts[WATCH_SLOT],
    }
    event = game_event(message)
    return [(game_group(game.pk, audience), event) for audience in game_audiences(game)]


def broadcast_presence(game: Game) -> None:
    group_send_all(presence_messages(game))


def broadcast_presence_of(game_ids: set[int]) -> None:
    """The presence of games whose sockets' process vanished (games.live.presence sweep).

    One send for them all: a Daphne process that dies leaves many games behind, and the
    clock keeper that sweeps must be back to the clocks at once.
    """
    games = Game.objects.filter(pk__in=game_ids).only("pk", "same_device", "bot_seat")
    send_now(
        lambda: [message for game in games for message in presence_messages(game)],
        "presence broadcast of %s games",
        len(game_ids),
    )
