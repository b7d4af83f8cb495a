"""The request vocabulary: every `do` a client may send, and the fields each one may carry.

The one list the engine validates against; the service, the consumers, the ratings pages
and the page's protocol code read it from here instead of keeping copies that drift.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from types import MappingProxyType
from typing import Any

# Fields besides "do", in the order a client writes them; anything else is a bad request.
ACTION_KEYS: Mapping[str, tuple[str, ...]] = MappingProxyType(
    {
        "start": (),
        "continue": (),
        "reveal": (),
        "play": ("tile", "end"),
        "draw": (),
        "lead": ("tile",),
        "bid": ("amount",),
        "raise": ("amount",),
        "accept": (),
        "renounce": (),
        "resign": (),
    }
)
ACTIONS: tuple[str, ...] = tuple(ACTION_KEYS)
# The most keys a well-formed request has, "do" included: lets a caller refuse junk unread.
MAX_ACTION_KEYS: int = 1 + max(len(fields) for fields in ACTION_KEYS.values())
# The choices of a decision (R7.2), as opposed to the buttons around one (start, continue,
# reveal, resign): what a player's move count or a replay's move list is made of.
DECISIONS: tuple[str, ...] = ("play", "draw", "lead", "bid", "raise", "accept", "renounce")


def choices(legal: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The actions of `legal` other than resigning, which is open to both seats at any time."""
    return [dict(action) for action in legal if action["do"] != "resign"]
