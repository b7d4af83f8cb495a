"""The arenas' error codes, and the human text for each."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.utils.translation import gettext_lazy as _

from games.errors import ServiceError
from games.errors import message_for as game_message_for

if TYPE_CHECKING:
    from django_stubs_ext import StrPromise

MESSAGES: dict[str, StrPromise] = {
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


def message_for(code: str) -> StrPromise:
    return MESSAGES.get(code) or game_message_for(code)


class ArenaError(ServiceError):
    """A refused arena request; `code` is one of MESSAGES' keys."""

    @property
    def message(self) -> StrPromise:
        return message_for(self.code)
