"""The arenas' channel-layer groups, named here only (a player's pages are told of an arena
through realtime.groups.user_group)."""

from __future__ import annotations


def arena_group(arena_id: int) -> str:
    """The channel-layer group of an arena's page sockets."""
    return f"arena_{arena_id}"
