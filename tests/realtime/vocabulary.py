"""Every message a socket sends or takes, checked against its types (the messages modules).

`problems(value, type)` checks a JSON value against a TypedDict of realtime.messages,
games.live.messages or lobby.messages, walking its annotations: required and undeclared
keys, Literal, unions, nested TypedDicts, lists and dicts. `wire` (a fixture) records what
every socket consumer sends, takes and is brought by the channel layer while a test
drives them; `assert_vocabulary` then checks each message against its socket's
vocabulary, and that every kind the vocabulary declares was seen.
"""

from __future__ import annotations

import json
import types
import typing
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest

from realtime.consumer import JsonSocketConsumer

_UNIONS = (typing.Union, types.UnionType)
_KEY_QUALIFIERS = (typing.NotRequired, typing.Required)


def hints(typed_dict: type) -> dict[str, Any]:
    """A TypedDict's keys and their types, NotRequired and Required taken off."""
    out = {}
    for key, hint in typing.get_type_hints(typed_dict, include_extras=True).items():
        while typing.get_origin(hint) in (*_KEY_QUALIFIERS, typing.Annotated):
            hint = typing.get_args(hint)[0]
        out[key] = hint
    return out


def marked_optional(typed_dict: type) -> frozenset[str]:
    """The keys whose annotation says NotRequired (what __optional_keys__ should be)."""
    return frozenset(
        key
        for key, hint in typing.get_type_hints(typed_dict, include_extras=True).items()
        if typing.get_origin(hint) is typing.NotRequired
    )


def problems(value: Any, hint: Any, where: str = "$") -> list[str]:
    """What is wrong with `value` as a `hint` (empty: nothing); a type it cannot check raises."""
    if hint is Any:
        return []
    if hint is None or hint is type(None):
        return [] if value is None else [f"{where}: {value!r} is not null"]
    if typing.is_typeddict(hint):
        return _typed_dict_problems(value, hint, where)
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin is typing.Literal:
        # `type(...) is`: True is not the literal 1, nor 1 the literal True.
        if any(value == arg and type(value) is type(arg) for arg in args):
            return []
        return [f"{where}: {value!r} is none of {args}"]
    if origin in _UNIONS:
        found = [problems(value, arg, where) for arg in args]
        if any(not listed for listed in found):
            return []
        return [f"{where}: {value!r} is no {hint} ({'; '.join(p for ps in found for p in ps)})"]
    if origin is list:
        if not isinstance(value, list):
            return [f"{where}: {value!r} is not a list"]
        return [p for i, item in enumerate(value) for p in problems(item, args[0], f"{where}[{i}]")]
    if origin is dict:
        if not isinstance(value, dict):
            return [f"{where}: {value!r} is not an object"]
        return [
            p
            for key, item in value.items()
            for p in problems(key, args[0], f"{where} key {key!r}")
            + problems(item, args[1], f"{where}.{key}")
        ]
    if hint is bool:
        return [] if isinstance(value, bool) else [f"{where}: {value!r} is not a boolean"]
    if hint is int:
        ok = isinstance(value, int) and not isinstance(value, bool)
        return [] if ok else [f"{where}: {value!r} is not an integer"]
    if hint is float:  # JSON does not tell 2.0 from 2: an integer is a number too
        ok = isinstance(value, int | float) and not isinstance(value, bool)
        return [] if ok else [f"{where}: {value!r} is not a number"]
    if hint is str:
        return [] if isinstance(value, str) else [f"{where}: {value!r} is not a string"]
    raise TypeError(f"{where}: no check for {hint!r}")


def _typed_dict_problems(value: Any, typed_dict: Any, where: str) -> list[str]:
    if not isinstance(value, dict):
        return [f"{where}: {value!r} is not an object ({typed_dict.__name__})"]
    declared = hints(typed_dict)
    name = typed_dict.__name__
    found = [f"{where}: {name} lacks {key!r}" for key in typed_dict.__required_keys__ - set(value)]
    found += [f"{where}: {name} has no key {key!r}" for key in set(value) - set(declared)]
    for key, item in value.items():
        if key in declared:
            found += problems(item, declared[key], f"{where}.{key}")
    return found


def members(union: Any) -> tuple[type, ...]:
    """The TypedDicts of a union alias (or the one TypedDict it is)."""
    return typing.get_args(union) if typing.get_origin(union) in _UNIONS else (union,)


def shown(message: Any, chars: int = 600) -> str:
    text = repr(message)
    return text if len(text) <= chars else text[:chars] + " …"


def kind_of(message: Any, union: Any, direction: str = "") -> type:
    """The one member of `union` that `message` is; fails saying why when none or several."""
    matched = [member for member in members(union) if not problems(message, member)]
    if len(matched) == 1:
        return matched[0]
    if matched:
        names = [member.__name__ for member in matched]
        pytest.fail(f"{direction}: {shown(message)} is several kinds: {names}")
    # Say what is wrong against the kinds of its `type`, if any has it, else against all.
    same_type = [
        member
        for member in members(union)
        if not problems(
            message.get("type") if isinstance(message, dict) else None,
            hints(member).get("type", Any),
        )
    ]
    reasons = [p for member in same_type or members(union) for p in problems(message, member)]
    pytest.fail(
        f"{direction}: {shown(message)} is none of the declared kinds:\n" + "\n".join(reasons)
    )


@dataclass
class Wire:
    """What the socket consumers of a test sent, took, and were brought by the layer."""

    sent: list[tuple[type, Any]] = field(default_factory=list)
    received: list[tuple[type, Any]] = field(default_factory=list)
    events: list[tuple[type, dict[str, Any]]] = field(default_factory=list)

    def of(self, consumer: type) -> tuple[list[Any], list[Any], list[dict[str, Any]]]:
        """(sent, received, layer events) of the sockets of one consumer class."""

        def mine(records: list[tuple[type, Any]]) -> list[Any]:
            return [item for cls, item in records if issubclass(cls, consumer)]

        return mine(self.sent), mine(self.received), mine(self.events)


@pytest.fixture
def wire(monkeypatch: pytest.MonkeyPatch) -> Iterator[Wire]:
    """Record every frame every socket sends and takes, and every layer event it handles."""
    recorded = Wire()
    dispatch = JsonSocketConsumer.dispatch
    send = JsonSocketConsumer.send

    async def recording_dispatch(self: JsonSocketConsumer, message: dict[str, Any]) -> None:
        kind = message["type"]
        if kind == "websocket.receive":
            if message.get("text") is not None:
                recorded.received.append((type(self), json.loads(message["text"])))
        elif not kind.startswith("websocket."):
            recorded.events.append((type(self), dict(message)))
        await dispatch(self, message)

    async def recording_send(
        self: JsonSocketConsumer,
        text_data: str | None = None,
        bytes_data: bytes | None = None,
        close: bool = False,
    ) -> None:
        if text_data is not None:
            recorded.sent.append((type(self), json.loads(text_data)))
        await send(self, text_data=text_data, bytes_data=bytes_data, close=close)

    monkeypatch.setattr(JsonSocketConsumer, "dispatch", recording_dispatch)
    monkeypatch.setattr(JsonSocketConsumer, "send", recording_send)
    yield recorded


def assert_vocabulary(
    wire: Wire,
    consumer: type,
    vocabulary: types.ModuleType,
    *,
    error_code: Callable[[str], bool],
) -> dict[str, set[type]]:
    """Every message of `consumer`'s sockets is one kind of its vocabulary's (ServerMessage,
    ClientMessage, LayerEvent), and every kind each declares was seen; error codes are the
    socket's app's (`error_code`). Returns the kinds seen, per direction."""
    sent, received, events = wire.of(consumer)
    assert sent and received and events, "the scenario drove no socket of this kind"
    seen: dict[str, set[type]] = {}
    for direction, messages, union in (
        ("server -> client", sent, vocabulary.ServerMessage),
        ("client -> server", received, vocabulary.ClientMessage),
        ("channel layer", events, vocabulary.LayerEvent),
    ):
        kinds = seen[direction] = {kind_of(message, union, direction) for message in messages}
        never = {kind.__name__ for kind in members(union)} - {kind.__name__ for kind in kinds}
        assert not never, f"{direction}: never seen, so never checked: {sorted(never)}"
    for message in sent:
        if message["type"] == "error":
            assert error_code(message["code"]), f"not a code of this socket's app: {message}"
    return seen
