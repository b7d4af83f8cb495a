"""Characters no text of ours can hold: NUL, which PostgreSQL refuses in text (a query with
one raises rather than finding nothing). Pages (pages.bad_characters) and sockets
(realtime.handshake, realtime.consumer) refuse them where they arrive."""

from __future__ import annotations

REFUSED_CHARACTERS = frozenset("\x00")
# How JSON writes one inside a string (a socket message): \u0000.
REFUSED_ESCAPES = ("\\u0000",)


def holds_refused_character(text: str) -> bool:
    return not REFUSED_CHARACTERS.isdisjoint(text)


def json_holds_refused_character(text: str) -> bool:
    """Whether a JSON text holds one, written out or escaped."""
    return holds_refused_character(text) or any(escape in text for escape in REFUSED_ESCAPES)
