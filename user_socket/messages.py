"""The user socket's vocabulary: the union of its parts' (games.live.messages' User*,
lobby.messages', tournaments.messages' User*) with what every socket shares
(realtime.messages). The vocabulary tests hold the socket to it.

No `from __future__ import annotations`: see realtime.messages.
"""

from typing import TypeAlias

from games.live import messages as games
from lobby import messages as lobby
from realtime.messages import ErrorMessage, PongMessage, ServiceMessage
from tournaments import messages as tournaments

ServerMessage: TypeAlias = (
    games.UserServerMessage
    | lobby.ServerMessage
    | tournaments.UserServerMessage
    | ErrorMessage
    | PongMessage
    | ServiceMessage
)
ClientMessage: TypeAlias = lobby.ClientMessage
LayerEvent: TypeAlias = games.UserLayerEvent | lobby.LayerEvent | tournaments.UserLayerEvent
