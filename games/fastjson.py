"""JSON through orjson, the one place the platform uses it (issue: fast moves under load).

orjson writes and reads a move's JSON (the state message, the engine state, the log row)
several times faster than the standard library, which was about a tenth of a move's
Python time. It is used where the standard library's output would be the same: keys that
are not strings are written as strings (as json.dumps does), and whatever orjson refuses
to read (NaN, for one) is read by the standard library instead.
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


def loads(text: str | bytes) -> Any:
    try:
        return orjson.loads(text)
    except orjson.JSONDecodeError:
        return json.loads(text)
