"""The game socket's messages (/ws/games/<id>/), both ways, and the channel-layer event that
carries them to a game's sockets: the types games.live.broadcast and the consumer build.

What every socket shares (error, pong, service, ping, the ack's base, request ids) is
realtime.messages'. No `from __future__ import annotations`: see realtime.messages.
"""

from typing import Any, Literal, NotRequired, TypeAlias, TypedDict

from realtime.messages import (
    AckMessage,
    ErrorMessage,
    PingMessage,
    PongMessage,
    RequestId,
    ServiceMessage,
)

# One of the engine's events ({"type": "play", "t": …, "player": …, …}), filtered for the
# audience (engine.events_for): the engine's to define.
Event: TypeAlias = dict[str, Any]


class RematchInfo(TypedDict):
    """Where a finished game's rematch stands, in every view (`rematch`) and message."""

    offered_by: int | None  # the seat whose offer is open
    game: int | None  # the new game, once both agreed
    declined_by: int | None  # the seat that has just declined (messages only; null in views)


class PlayerMeta(TypedDict):
    """A seat's name and rating as the platform adds them to the engine's player view."""

    username: str
    name: str  # what the page calls the seat (a same-device game's names)
    bot: str | None  # a computer player's strength; null for a person
    rating: int
    rating_label: str


class PlayerView(PlayerMeta):
    """One seat in a view: the engine's public facts about it, and the platform's names."""

    balance: int
    bank: float  # seconds left, as of `now`
    hand_count: int
    started: bool
    continued: bool


class GameView(TypedDict):
    """The game as one audience may see it (a seat, a spectator, a shared screen): the
    engine's view (engine.view, engine.device_view) with what the platform adds
    (games.live.broadcast.client_view). Times are epoch seconds but for `deadline` and
    `server_time`, in milliseconds; the nested parts are the engine's to define."""

    status: str
    phase: str
    round: int
    seat: int | None
    same_device: bool
    showing: int | None
    players: list[PlayerView]
    to_act: int | None
    awaiting_reveal: bool
    clock: dict[str, Any] | None
    deadline: int | None
    now: float
    board: dict[str, Any]
    hand: list[str] | None
    must_play: str | None
    legal: list[dict[str, Any]]
    play_preview: dict[str, dict[str, int]]
    boneyard_left: int
    auction: dict[str, Any] | None
    trail: list[dict[str, Any]]
    jockey: int | None
    winner: int | None
    reason: str | None
    last_round: dict[str, Any] | None
    continue_at: float | None
    start_deadline: float | None
    rules: dict[str, float]
    # The platform's.
    id: int
    server_time: int
    connected: list[bool] | None  # per seat; null while presence is unknown
    rated: bool
    rematch: RematchInfo


# ---------------------------------------------------------------- server -> client


class StateMessage(TypedDict):
    """The game at `version` for this socket's audience: on connecting (with the `log` of
    every event so far), on every change (its `events`), and on a resync or a tick."""

    type: Literal["state"]
    version: int
    game: GameView
    events: list[Event]
    log: NotRequired[list[Event]]


class ActionAck(AckMessage):
    """A player's action applied (or applied already under that id): the version it made."""

    version: int


class RematchAck(AckMessage):
    """A rematch answer taken: the new game once both players want it, else null."""

    game: int | None


class PresenceMessage(TypedDict):
    """Who is at the game, when that changes: which seats have a socket open (a computer's
    always), and how many spectators' sockets are open."""

    type: Literal["presence"]
    connected: list[bool]
    watching: int


class ReviewMessage(TypedDict):
    """A finished game's review progress, to every audience: never before the game is over."""

    type: Literal["review"]
    status: str  # running, done or failed
    done: int
    total: int
    url: str


class RematchMessage(RematchInfo):
    """A rematch offered, declined or agreed, told to every socket of the finished game."""

    type: Literal["rematch"]


def action_ack(request_id: RequestId, version: int) -> ActionAck:
    return {"type": "ack", "id": request_id, "version": version}


def rematch_ack(request_id: RequestId, game: int | None) -> RematchAck:
    return {"type": "ack", "id": request_id, "game": game}


# ---------------------------------------------------------------- client -> server


class Action(TypedDict):
    """One of the engine's ACTIONs: `do`, and the fields engine.ACTION_KEYS gives it."""

    do: str
    tile: NotRequired[str]
    end: NotRequired[str]
    amount: NotRequired[int]


class ActionRequest(TypedDict):
    """A player's move (or start, continue, reveal, resign), answered by ack or error."""

    type: Literal["action"]
    id: RequestId
    action: Action


class TickMessage(TypedDict):
    """The page's clock ran out: settle it (a player's), or send this socket the state."""

    type: Literal["tick"]


class RematchRequest(TypedDict):
    """A player's answer about a rematch of the finished game, answered by ack or error."""

    type: Literal["rematch"]
    id: RequestId
    answer: Literal["offer", "decline"]


# ---------------------------------------------------------------- channel layer


class GameEvent(TypedDict):
    """A message for one audience's sockets, serialized once (games.live.broadcast):
    `version` for a state, and `since`, the version its events start from."""

    type: Literal["game.message"]
    text: str
    version: NotRequired[int]
    since: NotRequired[int]


# ---------------------------------------------------------------- to a player's user group
# What games tells every page of a player (realtime.groups.user_group), wherever they are:
# games' part of the user socket (games.live.user_part, composed in user_socket) sends it
# on as the messages below.


class YourGame(TypedDict):
    """A player's game in progress as every page of theirs shows it ("your game"): whom
    they play, who has a decision to take, and their own clock; never a tile."""

    id: int  # its page is /games/<id>/ (the page knows the pattern)
    opponent: str  # the opponent's username
    bot: str | None  # the computer's strength when the opponent is the computer
    status: str  # "waiting" (not started by both) or "playing"
    your_turn: bool  # the player has something to decide (Start, a move, Continue)
    their_turn: bool
    bank: float  # seconds left in the player's bank as of `server_time`
    flag_at: int | None  # while the player's clock runs: when their flag falls (epoch ms)
    server_time: int  # epoch ms


class UserGameEvent(TypedDict):
    """To a player's pages: their game was created, started, ended or changed turn."""

    type: Literal["user.games.game"]
    game: YourGame | None  # null: no game in progress any more


class UserRematchEvent(TypedDict):
    """To a player's pages: where the rematch of their finished game stands for them."""

    type: Literal["user.games.rematch"]
    game: int  # the finished game
    url: str  # its page, where the rematch is offered and answered
    by: str | None  # the opponent who offers it; null: no offer stands for this player


class UserRedirectEvent(TypedDict):
    """To a player's pages: go to this new game (a challenge accepted, a pairing made by the
    queue or an arena's wave)."""

    type: Literal["user.games.redirect"]
    url: str
    game: int


class YourGameMessage(TypedDict):
    """The player's game in progress (null: none), for the header's "your game": on
    connecting, on a resync, and whenever it is created, starts, ends or changes turn."""

    type: Literal["your_game"]
    game: YourGame | None


class RematchOfferMessage(TypedDict):
    """Where the rematch of the player's finished game stands: `by` offers one (null: no
    offer stands any more). On connecting only when one stands."""

    type: Literal["rematch_offer"]
    game: int
    url: str
    by: str | None


class RedirectMessage(TypedDict):
    """Go to this new game: a challenge accepted or a pairing made (to both players), or
    one found on a resync."""

    type: Literal["redirect"]
    url: str
    game: int


def your_game_message(game: YourGame | None) -> YourGameMessage:
    return {"type": "your_game", "game": game}


def rematch_offer_message(event: UserRematchEvent) -> RematchOfferMessage:
    return {"type": "rematch_offer", "game": event["game"], "url": event["url"], "by": event["by"]}


def redirect_message(url: str, game: int) -> RedirectMessage:
    return {"type": "redirect", "url": url, "game": game}


# games' part of the user socket (user_socket composes it with the other apps').
UserServerMessage: TypeAlias = YourGameMessage | RematchOfferMessage | RedirectMessage
UserLayerEvent: TypeAlias = UserGameEvent | UserRematchEvent | UserRedirectEvent


# Every message the game socket sends, every message it takes, and what the layer brings.
ServerMessage: TypeAlias = (
    StateMessage
    | ActionAck
    | RematchAck
    | PresenceMessage
    | RematchMessage
    | ReviewMessage
    | ErrorMessage
    | PongMessage
    | ServiceMessage
)
ClientMessage: TypeAlias = ActionRequest | TickMessage | RematchRequest | PingMessage
LayerEvent: TypeAlias = GameEvent
