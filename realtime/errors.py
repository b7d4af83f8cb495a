"""The error codes every socket can answer, whatever app it serves (translatable)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.utils.translation import gettext_lazy as _

if TYPE_CHECKING:
    from django_stubs_ext import StrPromise

MESSAGES: dict[str, StrPromise] = {
    "bad_request": _("The request was malformed."),
    "rate_limited": _("Too many messages: slow down."),
    # The socket is open: it is the server that cannot serve (its database, its Redis).
    "unavailable": _("The server cannot answer right now — your last move is being sent again."),
}


def message_for(code: str) -> StrPromise:
    return MESSAGES.get(code, MESSAGES["bad_request"])
