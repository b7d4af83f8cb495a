"""Pushes to the user sockets (lobby.consumers.LobbyConsumer), sent after the commit."""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from django.db import transaction
from django.urls import reverse

from games.models import Game
from lobby import messages
from lobby.models import Challenge
from lobby.selectors import LIVE_GROUP, LOBBY_GROUP
from realtime.fanout import group_send_all
from realtime.groups import user_group

logger = logging.getLogger(__name__)


def _notify(group: str, message: Mapping[str, Any]) -> None:
    try:
        group_send_all([(group, message)])
    except Exception:  # the change is committed; the pages also learn of it on reload
        logger.exception("lobby notification to %s failed", group)


def lobby_changed_on_commit() -> None:
    """Every lobby page re-reads the challenges it may see."""
    message: messages.LobbyChangedEvent = {"type": "lobby.changed"}
    transaction.on_commit(lambda: _notify(LOBBY_GROUP, message))


def invitations_changed_on_commit(opponent_id: int | None) -> None:
    """The pages of the player a challenge is addressed to re-read the challenges open to
    them (one was made, or closed): each page offers them wherever the player is. An open
    challenge (`opponent_id` None, addressed to nobody) is the lobby list's only."""
    if opponent_id is None:
        return
    message: messages.LobbyInvitationsEvent = {"type": "lobby.invitations"}
    group = user_group(opponent_id)
    transaction.on_commit(lambda: _notify(group, message))


def live_games_changed_on_commit() -> None:
    """Every page showing the games in progress re-reads them (one started, or one is over)."""
    message: messages.LobbyLiveEvent = {"type": "lobby.live"}
    transaction.on_commit(lambda: _notify(LIVE_GROUP, message))


def players_redirect_on_commit(game: Game) -> None:
    """Both players' lobby sockets go to the new game, whether a challenge or the queue
    made it."""
    message: messages.LobbyRedirectEvent = {
        "type": "lobby.redirect",
        "url": reverse("game", kwargs={"game_id": game.pk}),
        "game": game.pk,
    }
    groups = [user_group(user_id) for user_id in {game.player0_id, game.player1_id}]

    def send() -> None:
        for group in groups:
            _notify(group, message)

    transaction.on_commit(send)


def challenger_told_declined_on_commit(challenge: Challenge) -> None:
    """The challenger's lobby says who declined: the challenge leaving the list says nothing
    of why."""
    assert challenge.opponent is not None  # only a challenge addressed to someone is declined
    message: messages.LobbyDeclinedEvent = {
        "type": "lobby.declined",
        "by": challenge.opponent.get_username(),
    }
    group = user_group(challenge.challenger_id)
    transaction.on_commit(lambda: _notify(group, message))


def queue_changed_on_commit(user_id: int, change: messages.QueueChange) -> None:
    """Every "Play now" page of the player shows the same queue: one joined ("joined"), or
    left it ("left"), or the page that had joined was closed ("closed")."""
    message: messages.LobbyQueueEvent = {"type": "lobby.queue", "change": change}
    group = user_group(user_id)
    transaction.on_commit(lambda: _notify(group, message))
