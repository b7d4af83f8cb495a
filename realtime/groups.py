"""Channel-layer group names that more than one app sends to.

A player's user group reaches every page of theirs (the user socket, lobby.consumers):
games tells it of their game (games.live.yours) and the lobby of their challenges and
pairings, and neither app may import the other.
"""

from __future__ import annotations


def user_group(user_id: int) -> str:
    return f"user_{user_id}"
