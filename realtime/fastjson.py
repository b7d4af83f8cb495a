"""JSON through orjson, the one place the platform uses it, and the strict reader of what
sockets receive (loads_untrusted).

orjson is several times faster than the standard library on a move's JSON
(docs/decisions/move-cost.md), and is used only where the output is the same: keys that
are not strings are written as strings, as json.dumps does, and what orjson refuses to
read (NaN, for one) is read by the standard library instead.
"""

from __future__ import annotations

import json
from typing import Any

import orjson

OPTIONS = orjson.OPT_NON_STR_KEYS


def dumps(value: Any) -> bytes:
    return orjson.dumps(value, option=OPTIONS)


def dumps_text(value: Any) -> str:
    return orjson.dumps(value, option=OPTIONS).decode()


def loads_untrusted(text: str | bytes) -> Any:
    """A message from outside: strict JSON only, raising ValueError for anything else.

    orjson refuses what the standard library would take and the platform could not use or
    send back: NaN and Infinity (PostgreSQL refuses them in a JSON column), nesting deeper
    than 1024 (the standard library raises RecursionError there); an integer beyond 64 bits
    comes back as a float.
    """
    return orjson.loads(text)


def loads(text: str | bytes) -> Any:
    try:
        return orjson.loads(text)
    except orjson.JSONDecodeError:
        return json.loads(text)
