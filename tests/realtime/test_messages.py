"""The message vocabularies themselves (realtime.messages, games.live.messages,
lobby.messages, tournaments.messages; the user socket's is user_socket.messages), the
checker that holds the sockets to them (tests.realtime.vocabulary),
and the pages' side: each socket's script speaks only the kinds its vocabulary declares.

The sockets' own messages are checked in tests/games/test_messages.py and
tests/user_socket/test_messages.py. (No `from __future__ import annotations`, for the sample
TypedDicts below: see realtime.messages.)
"""

import re
import types
import typing
from pathlib import Path
from typing import Any, Literal, NotRequired, TypedDict

import pytest

from games.live import messages as game_messages
from lobby import messages as lobby_messages
from realtime import messages as shared_messages
from tests.realtime.vocabulary import hints, kind_of, marked_optional, members, problems
from tournaments import messages as arena_messages
from user_socket import messages as user_messages

ROOT = Path(__file__).resolve().parents[2]
MODULES = (shared_messages, game_messages, lobby_messages, arena_messages)
# Each declares ServerMessage, ClientMessage and LayerEvent.
SOCKETS = (game_messages, user_messages, arena_messages)


def typed_dicts(module: types.ModuleType) -> list[Any]:
    """The TypedDicts a module defines (not those it imports)."""
    return [
        value
        for value in vars(module).values()
        if typing.is_typeddict(value) and value.__module__ == module.__name__
    ]


def vocabulary(module: types.ModuleType) -> set[Any]:
    return {
        kind
        for union in (module.ServerMessage, module.ClientMessage, module.LayerEvent)
        for kind in members(union)
    }


@pytest.mark.parametrize("module", MODULES, ids=lambda m: m.__name__)
def test_every_type_says_what_it_is_and_which_keys_are_optional(module):
    found = typed_dicts(module)
    assert found
    for typed_dict in found:
        doc = typed_dict.__dict__.get("__doc__")
        assert doc and doc.strip(), f"{typed_dict.__name__} has no docstring"
        # With `from __future__ import annotations`, TypedDict takes NotRequired keys for
        # required ones: the checker would then refuse a message that leaves one out.
        assert typed_dict.__optional_keys__ == marked_optional(typed_dict), typed_dict
        for hint in hints(typed_dict).values():
            checkable(hint)


def checkable(hint: Any) -> None:
    """Raise if the checker has no check for a type, or for a type inside it."""
    if typing.get_origin(hint) is Literal:
        return
    problems(None, hint)
    for arg in typing.get_args(hint):
        checkable(arg)


def test_every_message_type_belongs_to_a_socket():
    """Each TypedDict with a `type` is a kind of a socket's vocabulary (or the base of
    one): one left out of the unions would be sent unchecked."""
    kinds = set().union(*(vocabulary(module) for module in SOCKETS))

    def extended_by_a_kind(base: Any) -> bool:  # (Python 3.11 keeps no TypedDict's bases)
        return any(hints(kind).items() >= hints(base).items() for kind in kinds)

    for module in MODULES:
        for typed_dict in typed_dicts(module):
            if "type" in hints(typed_dict) and typed_dict not in kinds:
                assert extended_by_a_kind(typed_dict), f"{typed_dict.__name__}: in no vocabulary"


@pytest.mark.parametrize("module", SOCKETS, ids=lambda m: m.__name__)
def test_kinds_are_told_apart(module):
    """Two kinds of a direction may share a `type` only with different keys."""
    for union in (module.ServerMessage, module.ClientMessage, module.LayerEvent):
        shapes = [(hints(kind)["type"], frozenset(hints(kind))) for kind in members(union)]
        assert len(set(shapes)) == len(shapes), union


# ---------------------------------------------------------------- the checker


class Inner(TypedDict):
    """A nested part."""

    n: int


class Sample(TypedDict):
    """A message with a bit of everything the vocabularies use."""

    type: Literal["sample"]
    id: str | int | None
    flag: bool
    ratio: float
    items: list[Inner]
    table: dict[str, Any]
    maybe: NotRequired[str]


GOOD: dict[str, Any] = {
    "type": "sample",
    "id": 3,
    "flag": True,
    "ratio": 2,
    "items": [{"n": 1}],
    "table": {"a": [1]},
}


def test_the_checker_takes_a_well_formed_message():
    assert problems(GOOD, Sample) == []
    assert problems({**GOOD, "maybe": "x", "id": None, "ratio": 0.5}, Sample) == []


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        ({"flag": None}, "$.flag: None is not a boolean"),
        ({"id": True}, "$.id: True is no"),  # a boolean is not a request id
        ({"type": "other"}, "$.type: 'other' is none of ('sample',)"),
        ({"items": [{"n": "1"}]}, "$.items[0].n: '1' is not an integer"),
        ({"items": [{"n": 1, "m": 2}]}, "$.items[0]: Inner has no key 'm'"),
        ({"items": {}}, "$.items: {} is not a list"),
        ({"extra": 1}, "$: Sample has no key 'extra'"),  # an undeclared key
        ({"maybe": 1}, "$.maybe: 1 is not a string"),
    ],
)
def test_the_checker_refuses_what_the_type_does_not_say(change, expected):
    found = problems({**GOOD, **change}, Sample)
    assert any(p.startswith(expected) for p in found), found


def test_the_checker_refuses_a_renamed_or_missing_key():
    renamed = {("flags" if key == "flag" else key): value for key, value in GOOD.items()}
    assert sorted(problems(renamed, Sample)) == [
        "$: Sample has no key 'flags'",
        "$: Sample lacks 'flag'",
    ]


def test_the_checker_knows_no_type_it_cannot_check():
    with pytest.raises(TypeError):
        problems((1,), tuple[int])


def test_a_message_is_one_kind_of_its_vocabulary():
    ack = {"type": "ack", "id": "r1", "version": 4}
    assert kind_of(ack, game_messages.ServerMessage) is game_messages.ActionAck
    rematch = {"type": "ack", "id": "r1", "game": None}
    assert kind_of(rematch, game_messages.ServerMessage) is game_messages.RematchAck
    with pytest.raises(pytest.fail.Exception, match="none of the declared kinds"):
        kind_of({**ack, "game": 9}, game_messages.ServerMessage)


# ---------------------------------------------------------------- the pages


def script(path: str) -> str:
    return (ROOT / path).read_text()


def literals(hint: Any) -> set[str]:
    return set(typing.get_args(hint))


def kinds_of(union: Any) -> set[str]:
    return set().union(*(literals(hints(kind)["type"]) for kind in members(union)))


# (scripts of the socket, its vocabulary)
PAGES = [
    (["realtime/static/realtime/socket.js", "games/static/games/game/protocol.js"], game_messages),
    (
        [
            "realtime/static/realtime/socket.js",
            "user_socket/static/js/user.js",
            "lobby/static/lobby/lobby.js",
            "lobby/static/lobby/play_now.js",
        ],
        user_messages,
    ),
]


@pytest.mark.parametrize(("paths", "module"), PAGES, ids=["game", "user"])
def test_the_pages_speak_the_declared_vocabulary(paths, module):
    """What a page sends ({ type: "…" }) is a kind the socket takes; what it handles
    (`.type === "…"`, `case "…":`) a kind the socket sends."""
    text = "\n".join(script(path) for path in paths)
    sent = set(re.findall(r'\btype: "(\w+)"', text))
    handled = set(re.findall(r'\.type === "(\w+)"|case "(\w+)":', text))
    handled = {name for pair in handled for name in pair if name}
    assert sent and handled
    assert sent <= kinds_of(module.ClientMessage), sent - kinds_of(module.ClientMessage)
    assert handled <= kinds_of(module.ServerMessage), handled - kinds_of(module.ServerMessage)


def test_the_play_now_page_asks_and_hears_the_declared_queue_words():
    text = script("lobby/static/lobby/play_now.js")
    asked = set(re.findall(r'\bdo: "(\w+)"', text))
    heard = set(re.findall(r'\.change === "(\w+)"', text))
    assert asked and asked <= literals(hints(lobby_messages.QueueRequest)["do"])
    assert heard and heard <= literals(lobby_messages.QueueChange)
