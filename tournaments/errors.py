"""The arenas' error codes, and the human text for each."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from fairplay import errors as fairplay_errors
from games.errors import ServiceError
from realtime.errors import Messages

MESSAGES: Messages = {
    "arena_not_found": _("No such arena."),
    "arena_over": _("This arena is over."),
    "arena_rating_band": _("Your rating is outside this arena's band."),
    "arena_removed": _("You were removed from this arena."),
    "arena_not_joined": _("You have not joined this arena."),
    "arena_too_far": _("An arena you create starts within the next 24 hours."),
    "arena_database_unavailable": _(
        "The server cannot reach its database right now: the standings wait until it is back."
    ),
    "too_many_arenas": _("You have created as many arenas as a day allows: try again tomorrow."),
}


class ArenaError(ServiceError):
    """A refused arena request; `code` is one of MESSAGES' keys or a game's code."""

    messages = {**ServiceError.messages, **fairplay_errors.MESSAGES, **MESSAGES}


message_for = ArenaError.message_for
