"""lobby's part of the user socket (/ws/user/, open on every page of a signed-in player:
lobby.user_part, composed in user_socket), both ways, and the channel-layer events that
carry each change to its sockets, built once where it happens (lobby.broadcast).

What every socket shares (error, pong, service, ping, request ids) is realtime.messages';
games' and tournaments' parts keep theirs. No `from __future__ import annotations`: see
realtime.messages.
"""

from typing import Literal, NotRequired, TypeAlias, TypedDict

from realtime.messages import PingMessage, RequestId

# How a player's queue changed, told to every "Play now" page of theirs: they joined, left,
# or the page that had joined was closed (lobby.services.queue_leave).
QueueChange: TypeAlias = Literal["joined", "left", "closed"]


class ChallengeEntry(TypedDict):
    """A challenge as the lobby shows it to one user (lobby.selectors.challenges_for)."""

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
    held: bool  # their place is kept while they play the computer (not paired meanwhile)


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


class DeclinedMessage(TypedDict):
    """To the challenger: who declined their challenge."""

    type: Literal["declined"]
    by: str


class InvitationsMessage(TypedDict):
    """The open challenges addressed to the player, each offered with Accept and Decline
    on whatever page they are: on connecting, and whenever one is made or closed."""

    type: Literal["invitations"]
    challenges: list[ChallengeEntry]


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


def declined_message(by: str) -> DeclinedMessage:
    return {"type": "declined", "by": by}


def invitations_message(challenges: list[ChallengeEntry]) -> InvitationsMessage:
    return {"type": "invitations", "challenges": challenges}


def queue_answer(status: QueueStatusFields, request_id: RequestId | None) -> QueueAnswer:
    return {**status, "id": request_id}


def queue_changed(status: QueueStatusFields, change: QueueChange) -> QueueChanged:
    return {**status, "change": change}


# ---------------------------------------------------------------- client -> server


class QueueRequest(TypedDict):
    """Join or leave the queue, or ask its status (which also says the page is still
    open); `closing`, on a leave: the page is closing, not the player's choice. A status
    poll carries an id too, which its answer echoes: the page drops an answer to a poll
    older than a change it was told of since."""

    type: Literal["queue"]
    do: Literal["join", "leave", "status"]
    id: NotRequired[RequestId]
    closing: NotRequired[bool]


# ---------------------------------------------------------------- channel layer
# Each change is read and rendered once where it happens (lobby.broadcast) and travels
# finished: a socket only picks what its user may see. `stamp` (nanoseconds, taken before
# the read) lets a socket drop a list older than one it has sent.


class SharedChallenge(TypedDict):
    """An open challenge as every lobby page gets it; each socket keeps those its user may
    see and says which are theirs (lobby.selectors.challenges_for)."""

    id: int
    challenger: str
    opponent: str | None
    created_at: int
    expires_at: int
    challenger_id: int
    opponent_id: int | None


class SharedLiveGame(TypedDict):
    """A game in progress as every live list gets it; each socket says which are its
    user's (`mine`, from `player_ids`)."""

    id: int
    url: str
    players: list[str]
    ratings: list[str] | None
    playing: bool
    round: int
    balances: list[int]
    same_device: bool
    player_ids: list[int]


class UserLobbyChallengesEvent(TypedDict):
    """To every page showing the challenges: the open ones, all of them."""

    type: Literal["user.lobby.challenges"]
    stamp: int
    challenges: list[SharedChallenge]


class UserLobbyLiveEvent(TypedDict):
    """To every page showing the games in progress (a game was created, started or ended):
    the list, its seats named in each language the site speaks."""

    type: Literal["user.lobby.live"]
    stamp: int
    games: dict[str, list[SharedLiveGame]]


class UserLobbyInvitationsEvent(TypedDict):
    """To a player's pages: the open challenges addressed to them (one was made or closed),
    as an InvitationsMessage says them."""

    type: Literal["user.lobby.invitations"]
    stamp: int
    challenges: list[ChallengeEntry]


class UserLobbyDeclinedEvent(TypedDict):
    """To the challenger's pages: who declined (sent on as a DeclinedMessage)."""

    type: Literal["user.lobby.declined"]
    by: str


class UserLobbyQueueEvent(TypedDict):
    """To a player's pages: their queue changed elsewhere, and where it stands now (sent on
    as QueueChanged)."""

    type: Literal["user.lobby.queue"]
    change: QueueChange
    status: QueueStatusFields


# lobby's part of the user socket (user_socket composes it with the other apps').
ServerMessage: TypeAlias = (
    ChallengesMessage
    | LiveGamesMessage
    | DeclinedMessage
    | QueueAnswer
    | QueueChanged
    | InvitationsMessage
)
ClientMessage: TypeAlias = QueueRequest | PingMessage
LayerEvent: TypeAlias = (
    UserLobbyChallengesEvent
    | UserLobbyLiveEvent
    | UserLobbyInvitationsEvent
    | UserLobbyDeclinedEvent
    | UserLobbyQueueEvent
)
