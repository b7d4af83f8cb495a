"""Channel-layer group names that more than one app sends to.

A player's user group reaches every page of theirs (the user socket, user_socket.consumer):
games tells it of their game (games.live.yours), the lobby of their challenges and queue,
the arenas of an arena started, and none of them may import another's part.
"""

from __future__ import annotations


def user_group(user_id: int) -> str:
    return f"user_{user_id}"
