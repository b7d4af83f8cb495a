"""The lobby socket's messages (/ws/lobby/), both ways, and the channel-layer events that
tell its sockets of a change (lobby.broadcast): the types the consumer and services build.

What every socket shares (error, pong, service, ping, request ids) is realtime.messages'.
No `from __future__ import annotations`: see realtime.messages.
"""

from typing import Literal, NotRequired, TypeAlias, TypedDict

from realtime.messages import ErrorMessage, PingMessage, PongMessage, RequestId, ServiceMessage

# How a player's queue changed, told to every "Play now" page of theirs: they joined, left,
# or the page that had joined was closed (lobby.services.queue_leave).
QueueChange: TypeAlias = Literal["joined", "left", "closed"]


class ChallengeEntry(TypedDict):
    """A challenge as the lobby shows it to one user (lobby.selectors.challenge_public)."""

    id: int
    challenger: str
    opponent: str | None  # null: open to anyone
    created_at: int  # epoch milliseconds
    expires_at: int
    mine: bool
    to_me: bool


class LiveGame(TypedDict):
    """A game in progress as the lobby lists it: public facts only."""

    id: int
    url: str
    players: list[str]  # what each seat is called
    ratings: list[str] | None  # null for a same-device game or one against the computer
    playing: bool
    round: int
    balances: list[int]
    same_device: bool
    mine: bool


class QueueStatusFields(TypedDict):
    """What a "Play now" page shows of the queue (lobby.services.QueueStatus.as_message):
    sent only as one of the two messages below."""

    type: Literal["queue"]
    in_queue: bool
    waiting: int  # players in the queue, this one included
    wait_seconds: float
    rating: int | None
    range: int | None  # the ratings accepted by now, either side of the player's
    game: int | None  # a game to go to (paired, or playing already)
    url: str | None  # that game's page


# ---------------------------------------------------------------- server -> client


class ChallengesMessage(TypedDict):
    """The challenges the user may see: on connecting, on every change, on a resync."""

    type: Literal["challenges"]
    challenges: list[ChallengeEntry]


class LiveGamesMessage(TypedDict):
    """The games in progress, to a page that asked for them (?live=1): when a game is
    created, starts or ends, and on a resync."""

    type: Literal["live_games"]
    games: list[LiveGame]


class RedirectMessage(TypedDict):
    """Go to this new game: a challenge accepted or a pairing made (to both players), or
    one found on a resync."""

    type: Literal["redirect"]
    url: str
    game: int


class DeclinedMessage(TypedDict):
    """To the challenger: who declined their challenge."""

    type: Literal["declined"]
    by: str


class QueueAnswer(QueueStatusFields):
    """The answer to a queue request (join, leave, status), with the request's id."""

    id: RequestId | None


class QueueChanged(QueueStatusFields):
    """To every lobby socket of the player: they joined or left the queue elsewhere."""

    change: QueueChange


def challenges_message(challenges: list[ChallengeEntry]) -> ChallengesMessage:
    return {"type": "challenges", "challenges": challenges}


def live_games_message(games: list[LiveGame]) -> LiveGamesMessage:
    return {"type": "live_games", "games": games}


def redirect_message(url: str, game: int) -> RedirectMessage:
    return {"type": "redirect", "url": url, "game": game}


def declined_message(by: str) -> DeclinedMessage:
    return {"type": "declined", "by": by}


def queue_answer(status: QueueStatusFields, request_id: RequestId | None) -> QueueAnswer:
    return {**status, "id": request_id}


def queue_changed(status: QueueStatusFields, change: QueueChange) -> QueueChanged:
    return {**status, "change": change}


# ---------------------------------------------------------------- client -> server


class QueueRequest(TypedDict):
    """Join or leave the queue, or ask its status (which also says the page is still
    open); `closing`, on a leave: the page is closing, not the player's choice."""

    type: Literal["queue"]
    do: Literal["join", "leave", "status"]
    id: NotRequired[RequestId]
    closing: NotRequired[bool]


# ---------------------------------------------------------------- channel layer


class LobbyChangedEvent(TypedDict):
    """The challenges changed: each socket reads what its user may see."""

    type: Literal["lobby.changed"]


class LobbyLiveEvent(TypedDict):
    """A game was created, started or ended: the live games lists read them again."""

    type: Literal["lobby.live"]


class LobbyRedirectEvent(TypedDict):
    """To a player's sockets: go to this new game (sent on as a RedirectMessage)."""

    type: Literal["lobby.redirect"]
    url: str
    game: int


class LobbyDeclinedEvent(TypedDict):
    """To the challenger's sockets: who declined (sent on as a DeclinedMessage)."""

    type: Literal["lobby.declined"]
    by: str


class LobbyQueueEvent(TypedDict):
    """To a player's sockets: their queue changed elsewhere (sent on as QueueChanged)."""

    type: Literal["lobby.queue"]
    change: QueueChange


# Every message the lobby socket sends, every message it takes, and what the layer brings.
class ArenaStartedMessage(TypedDict):
    """An arena the player joined has started: its page, where the standings are."""

    type: Literal["arena_started"]
    arena: int
    name: str
    url: str


class ArenaStartedEvent(TypedDict):
    """To a joined player's sockets, from the arenas (sent on as an ArenaStartedMessage)."""

    type: Literal["arena.started"]
    arena: int
    name: str
    url: str


def arena_started_message(event: ArenaStartedEvent) -> ArenaStartedMessage:
    return {
        "type": "arena_started",
        "arena": event["arena"],
        "name": event["name"],
        "url": event["url"],
    }


ServerMessage: TypeAlias = (
    ChallengesMessage
    | LiveGamesMessage
    | RedirectMessage
    | DeclinedMessage
    | QueueAnswer
    | QueueChanged
    | ErrorMessage
    | PongMessage
    | ServiceMessage
    | ArenaStartedMessage
)
ClientMessage: TypeAlias = QueueRequest | PingMessage
LayerEvent: TypeAlias = (
    LobbyChangedEvent
    | LobbyLiveEvent
    | LobbyRedirectEvent
    | LobbyDeclinedEvent
    | LobbyQueueEvent
    | ArenaStartedEvent
)
