"""What every socket's messages share: the request id, and the messages any socket sends or
takes (error, pong, service, ping; the ack's base), as types the consumers build them from.

Each app types its own socket's messages beside its consumer (games.live.messages,
lobby.messages, tournaments.messages; the user socket's union is user_socket.messages);
tests/games/test_messages.py and tests/user_socket/test_messages.py check every message a
socket sends against them.

No `from __future__ import annotations` here nor there: TypedDict reads `NotRequired` from
the annotations as written, and as strings it would count every key as required.
"""

from typing import Any, Literal, NotRequired, TypeAlias, TypedDict, TypeGuard

MAX_REQUEST_ID_CHARS = 64
# The largest integer a page's JavaScript holds exactly; beyond 64 bits it could not even
# be written back.
MAX_INT_ID = 2**53 - 1

# What a page names a request by, and gets back with the answer (see is_request_id).
RequestId: TypeAlias = str | int


def is_request_id(value: Any) -> TypeGuard[RequestId]:
    """A short string, or an integer a page can hold exactly: an id fit to log and echo.

    No NUL: PostgreSQL's text columns refuse it, and the id is logged with its answer.
    """
    if isinstance(value, str):
        return len(value) <= MAX_REQUEST_ID_CHARS and "\x00" not in value
    return isinstance(value, int) and not isinstance(value, bool) and abs(value) <= MAX_INT_ID


# ---------------------------------------------------------------- server -> client


class ErrorMessage(TypedDict):
    """A request refused, or a message not understood: sent on any socket, with the
    request's id (null when it had none fit to echo) and the code's text to show."""

    type: Literal["error"]
    id: RequestId | None
    code: str  # one of the socket's app's codes (realtime.errors and the app's errors)
    message: str


class PongMessage(TypedDict):
    """The answer to a ping, on any socket: the server's clock, in epoch milliseconds."""

    type: Literal["pong"]
    server_time: int


class ServiceMessage(TypedDict):
    """Sent on any socket when the server loses its database (with the text to show) or
    gets it back (then a fresh state or list follows)."""

    type: Literal["service"]
    database: bool
    message: NotRequired[str]


class AckMessage(TypedDict):
    """What every socket's positive answer to a request carries; each app's acks extend it."""

    type: Literal["ack"]
    id: RequestId


def error_message(code: str, request_id: RequestId | None, text: str) -> ErrorMessage:
    return {"type": "error", "id": request_id, "code": code, "message": text}


def pong_message(server_time: int) -> PongMessage:
    return {"type": "pong", "server_time": server_time}


def service_message(database: bool, notice: str | None = None) -> ServiceMessage:
    """`notice`, what the page shows while the database is away (only then)."""
    message: ServiceMessage = {"type": "service", "database": database}
    if notice is not None:
        message["message"] = notice
    return message


# ---------------------------------------------------------------- client -> server


class PingMessage(TypedDict):
    """A page's ping, on any socket, answered with a pong (the game page times its clock
    offset by it, and takes a silent socket for dead)."""

    type: Literal["ping"]
