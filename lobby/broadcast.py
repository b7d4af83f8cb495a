"""Pushes to the user sockets (lobby's part: lobby.user_part), sent after the commit through
realtime.events.

Each change is read and rendered once here, where it happens, and travels finished: a
push costs the same database work for ten watchers as for ten thousand
(docs/decisions/built-once.md).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from typing import Any

from lobby import messages
from lobby.groups import LIVE_GROUP, LOBBY_GROUP
from lobby.models import Challenge
from lobby.selectors import invitations_of, live_games_shared, open_challenges
from realtime.events import Sends, send_all_on_commit, send_on_commit
from realtime.fanout import group_listened
from realtime.groups import user_group


def stamp() -> int:
    """Taken before a list is read: of two lists, the one stamped later was read after the
    other's change committed, so a socket keeps the later (see messages' channel layer)."""
    return time.time_ns()


def challenges_event() -> messages.UserLobbyChallengesEvent:
    taken = stamp()
    return {"type": "user.lobby.challenges", "stamp": taken, "challenges": open_challenges()}


def live_event() -> messages.UserLobbyLiveEvent:
    taken = stamp()
    return {"type": "user.lobby.live", "stamp": taken, "games": live_games_shared()}


def invitations_event(user_id: int) -> messages.UserLobbyInvitationsEvent:
    taken = stamp()
    return {"type": "user.lobby.invitations", "stamp": taken, "challenges": invitations_of(user_id)}


def if_listened(group: str, build: Callable[[], Mapping[str, Any]]) -> Sends:
    """`build`'s event for `group`, read only if a socket is in the group: a list nobody
    watches (an arena's wave creating a hundred games) costs no read."""
    return [(group, build())] if group_listened(group) else []


def lobby_changed_on_commit() -> None:
    """Every lobby page shows the challenges anew (each keeps those its user may see)."""
    send_all_on_commit(lambda: if_listened(LOBBY_GROUP, challenges_event), "challenge list")


def invitations_changed_on_commit(opponent_id: int | None) -> None:
    """The pages of the player a challenge is addressed to show the challenges open to them
    (one was made, or closed): each page offers them wherever the player is. An open
    challenge (`opponent_id` None, addressed to nobody) is the lobby list's only."""
    if opponent_id is None:
        return
    group = user_group(opponent_id)
    send_all_on_commit(
        lambda: if_listened(group, lambda: invitations_event(opponent_id)), "invitations"
    )


def live_games_changed_on_commit() -> None:
    """Every page showing the games in progress shows them anew (one started, or is over)."""
    send_all_on_commit(lambda: if_listened(LIVE_GROUP, live_event), "live games")


def challenger_told_declined_on_commit(challenge: Challenge) -> None:
    """The challenger's lobby says who declined: the challenge leaving the list says nothing
    of why."""
    assert challenge.opponent is not None  # only a challenge addressed to someone is declined
    message: messages.UserLobbyDeclinedEvent = {
        "type": "user.lobby.declined",
        "by": challenge.opponent.get_username(),
    }
    send_on_commit(user_group(challenge.challenger_id), message)
