"""The lobby's channel-layer groups, named here only.

Every user socket joins its user's own group (realtime.groups.user_group: their game,
the challenges addressed to them, a redirect to a new game); a page that shows the
challenge list asks for LOBBY_GROUP too (/ws/user/?challenges=1), and one that shows the
games in progress for LIVE_GROUP (?live=1), so that the sockets of every other page are
not sent lists they never show.
"""

from __future__ import annotations

LOBBY_GROUP = "lobby"
LIVE_GROUP = "lobby_live"
