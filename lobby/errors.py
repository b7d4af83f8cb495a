"""The lobby's error codes (challenges, the queue), and the human text for each."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from fairplay import errors as fairplay_errors
from games.errors import ServiceError
from realtime.errors import Messages

MESSAGES: Messages = {
    "challenge_not_found": _("No such challenge."),
    "challenge_not_open": _("This challenge is no longer open."),
    "challenge_expired": _("This challenge has expired."),
    "challenge_self": _("You cannot challenge yourself."),
    "challenge_own": _("You cannot accept your own challenge."),
    "challenge_not_yours": _("This challenge is not addressed to you."),
    "unknown_user": _("There is no player with that username."),
    "too_many_challenges": _("You have too many open challenges."),
    "challenger_playing": _("The challenger is in a game right now: try again when it ends."),
    "challenger_waiting": _(
        "The challenger left a game recently and cannot start a new one yet: this challenge"
        " cannot be accepted now."
    ),
    "lobby_database_unavailable": _(
        "The server cannot reach its database right now: challenges and the queue wait"
        " until it is back."
    ),
}


class LobbyError(ServiceError):
    """A refused lobby request; `code` is one of MESSAGES' keys or a game's code."""

    messages = {**ServiceError.messages, **fairplay_errors.MESSAGES, **MESSAGES}


message_for = LobbyError.message_for
