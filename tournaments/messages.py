"""The arena page socket's messages (docs/protocol.md, "Arena socket"), and the arenas'
part of the user socket (tournaments.user_part): "your arena has started".

(No `from __future__ import annotations`: see realtime.messages.)
"""

from typing import Literal, TypeAlias, TypedDict

from realtime.messages import ErrorMessage, PingMessage, PongMessage, ServiceMessage


class StandingRow(TypedDict):
    """One player's line of the standings: public facts only."""

    rank: int
    user: str
    score: int
    streak: int
    fire: bool  # on a streak: the next win counts double
    wins: int
    losses: int
    short: int  # games over before both made a real start: they counted nothing
    performance: int | None
    state: str  # active, paused or withdrawn
    game: int | None  # the arena game in progress


class ArenaGameRow(TypedDict):
    """One ended game of the arena: who played, who won, what each scored."""

    game: int
    players: list[str]  # seat 0, seat 1
    winner: int | None  # the winner's seat; null: no result (voided, aborted)
    short: bool  # over before both made a real start: it counted nothing
    points: list[int]  # what each seat scored in the arena


class StandingsMessage(TypedDict):
    """The whole standings, pushed at most once a second per arena, and on connecting."""

    type: Literal["standings"]
    arena: int
    status: str  # scheduled, running, finished or cancelled
    starts_in: float  # seconds
    ends_in: float
    rows: list[StandingRow]
    playing: int  # games in progress
    games: list[ArenaGameRow]  # the latest ended games, newest first


class ArenaStandingsEvent(TypedDict):
    """Channel-layer event to an arena's group: the message, built once for every socket."""

    type: Literal["arena.standings"]
    message: StandingsMessage


ServerMessage: TypeAlias = StandingsMessage | ErrorMessage | PongMessage | ServiceMessage
ClientMessage: TypeAlias = PingMessage
LayerEvent: TypeAlias = ArenaStandingsEvent


class ArenaGameResult(TypedDict):
    """What an arena game's page shows its player once the game is over (the card)."""

    arena: int
    name: str
    url: str
    status: str  # the arena's: running, finished…
    points: int  # what this game scored the player
    score: int
    streak: int
    fire: bool
    rank: int | None
    players: int
    state: str  # the player's: active, paused, withdrawn or removed
    pause_url: str
    join_url: str
    next_seconds: float  # the page goes on to the next pairing after this countdown


# ---------------------------------------------------------------- the user socket's part


class ArenaStartedMessage(TypedDict):
    """An arena the player joined has started: its page, where the standings are."""

    type: Literal["arena_started"]
    arena: int
    name: str
    url: str


class UserArenaStartedEvent(TypedDict):
    """To a joined player's pages (sent on as an ArenaStartedMessage)."""

    type: Literal["user.tournaments.started"]
    arena: int
    name: str
    url: str


def arena_started_message(event: UserArenaStartedEvent) -> ArenaStartedMessage:
    return {
        "type": "arena_started",
        "arena": event["arena"],
        "name": event["name"],
        "url": event["url"],
    }


UserServerMessage: TypeAlias = ArenaStartedMessage
UserLayerEvent: TypeAlias = UserArenaStartedEvent
